"""Securing uncontrolled carried items (Mayhem in Mordheim), with scripted dice."""

import itertools

import pytest

from battles.rules import (
    LooseItem,
    Side,
    after_securing,
    choosing_order,
    resolve_uncontrolled,
)
from core.dice import ScriptedDice

STAYED, FLED = 1, 2


def two_sides(*, stayed_pitters=0, fled_pitters=0, stayed_qm=0, fled_qm=0):
    return [
        Side(STAYED, "Stayed", pitters=stayed_pitters, quartermasters=stayed_qm),
        Side(FLED, "Fled", routed=True, rout_order=1, pitters=fled_pitters, quartermasters=fled_qm),
    ]


def test_every_die_face_with_every_combination_of_modifiers():
    """The Recovery Table (1-2 routing, 3-6 remaining) and each modifier of the text, against
    an oracle written from the text, for all 6 faces × 648 combinations."""
    failures = []
    combos = itertools.product(
        [None, STAYED, FLED],  # majority of warriors near it
        [False, True],  # heavy
        [0, 1, 2],  # Band of Pitters of the remaining warband
        [0, 1, 2],  # Band of Pitters of the routing warband
        ["off", STAYED, FLED, "tie"],  # most standing Quartermasters
        [None, STAYED, FLED],  # the warband that deployed the mule
    )
    for majority, heavy, stayed_pitters, fled_pitters, quartermasters, mule in combos:
        qm = {"off": (0, 0), STAYED: (2, 1), FLED: (1, 2), "tie": (1, 1)}[quartermasters]
        sides = two_sides(
            stayed_pitters=stayed_pitters, fled_pitters=fled_pitters, stayed_qm=qm[0], fled_qm=qm[1]
        )
        item = LooseItem("chest", heavy=heavy, majority=majority, mule_of=mule)
        expected_modifier = (
            {None: 0, STAYED: 1, FLED: -1}[majority]
            + (1 if heavy else 0)
            + stayed_pitters
            - fled_pitters
            + {"off": 0, STAYED: 1, FLED: -1, "tie": 0}[quartermasters]
            + {None: 0, STAYED: 1, FLED: -1}[mule]
        )
        for face in range(1, 7):
            recovery = resolve_uncontrolled(
                item, sides, ScriptedDice([face]), quartermaster_option=quartermasters != "off"
            )
            if face == 1:
                expected = FLED
            elif face == 6:
                expected = STAYED
            else:
                expected = STAYED if face + expected_modifier >= 3 else FLED
            (roll,) = recovery.rolls
            if recovery.winner != expected or roll.total != face + expected_modifier:
                failures.append((face, majority, heavy, stayed_pitters, fled_pitters, qm, mule))
    assert failures == []


@pytest.mark.parametrize("face", [1, 2])
def test_low_rolls_go_to_the_routing_warband(face):
    assert resolve_uncontrolled(LooseItem("sack"), two_sides(), ScriptedDice([face])).winner == FLED


@pytest.mark.parametrize("face", [3, 4, 5, 6])
def test_high_rolls_go_to_the_warband_remaining(face):
    assert (
        resolve_uncontrolled(LooseItem("sack"), two_sides(), ScriptedDice([face])).winner == STAYED
    )


def test_a_natural_one_and_six_are_final_whatever_the_modifiers():
    helped = LooseItem("chest", heavy=True, majority=STAYED, mule_of=STAYED)
    hindered = LooseItem("chest", majority=FLED, mule_of=FLED)

    one = resolve_uncontrolled(helped, two_sides(stayed_pitters=2), ScriptedDice([1]))
    six = resolve_uncontrolled(hindered, two_sides(fled_pitters=2), ScriptedDice([6]))

    assert (one.winner, one.rolls[0].total, one.rolls[0].natural) == (FLED, 6, True)
    assert (six.winner, six.rolls[0].total, six.rolls[0].natural) == (STAYED, 2, True)


def test_the_quartermaster_modifier_needs_the_campaign_option():
    sides = two_sides(fled_qm=3)

    without = resolve_uncontrolled(LooseItem("sack"), sides, ScriptedDice([3]))
    with_option = resolve_uncontrolled(
        LooseItem("sack"), sides, ScriptedDice([3]), quartermaster_option=True
    )

    assert (without.winner, with_option.winner) == (STAYED, FLED)


def test_a_warband_with_nobody_left_to_secure_takes_it_only_on_its_natural_roll():
    sides = [Side(STAYED, "Stayed", securers=0), Side(FLED, "Fled", routed=True, rout_order=1)]

    four = resolve_uncontrolled(LooseItem("sack"), sides, ScriptedDice([4]))
    six = resolve_uncontrolled(LooseItem("sack"), sides, ScriptedDice([6]))

    assert (four.winner, six.winner) == (FLED, STAYED)
    assert "nobody left" in four.note


def test_a_routing_warband_with_nobody_left_secures_only_on_a_natural_one():
    sides = [Side(STAYED, "Stayed"), Side(FLED, "Fled", routed=True, rout_order=1, securers=0)]

    assert resolve_uncontrolled(LooseItem("sack"), sides, ScriptedDice([2])).winner == STAYED
    assert resolve_uncontrolled(LooseItem("sack"), sides, ScriptedDice([1])).winner == FLED


def test_an_item_nobody_can_secure_is_left_behind():
    sides = [
        Side(STAYED, "Stayed", securers=0),
        Side(FLED, "Fled", routed=True, rout_order=1, securers=0),
    ]

    recovery = resolve_uncontrolled(LooseItem("sack"), sides, ScriptedDice([4]))

    assert recovery.winner is None
    assert "lost" in recovery.note


def test_the_four_warband_finale_of_the_text():
    """Six items; the winner secures 3, the routers 3. The Burgher Kings (last to rout, with a
    Band of Pitters) secure 2 of those; the last goes to the Sisters of Cersei (first to rout)
    over Prospero's Spears, because of the Sisters' standing Quartermaster."""
    winner = Side(10, "The Winners")
    sisters = Side(11, "Sisters of Cersei", routed=True, rout_order=1, securers=0, quartermasters=1)
    spears = Side(12, "Prospero's Spears", routed=True, rout_order=2, securers=0)
    kings = Side(13, "Burgher Kings", routed=True, rout_order=3, pitters=1)
    sides = [winner, sisters, spears, kings]
    dice = ScriptedDice(
        [
            5, 6, 5,  # items 1-3: the remaining warband (5 -1 Kings' pitters = 4)
            2, 3,  # item 4: routers; then Kings (3 +1 pitters -1 quartermaster = 3)
            1, 4,  # item 5: natural 1 to the routers; then Kings again
            2, 2, 3,  # item 6: routers; Kings lose (2); Spears vs Sisters: 3 -1 = 2, Sisters
        ]
    )  # fmt: skip

    winners = [
        resolve_uncontrolled(LooseItem(f"item {n}"), sides, dice, quartermaster_option=True)
        for n in range(1, 7)
    ]

    assert [r.winner for r in winners] == [10, 10, 10, 13, 13, 11]
    last = winners[-1]
    assert [roll.high for roll in last.rolls] == [(10,), (13,), (12,)]
    assert last.rolls[2].modifiers == (("Sisters of Cersei's Quartermasters", -1),)
    assert dice.remaining == ()


def test_the_two_warbands_that_did_not_rout():
    """Knights of the Living Dead win on 1-3, the Follypop Guild on 4-6; modifiers apply."""
    knights, follypop = Side(1, "Knights of the Living Dead"), Side(2, "Follypop Guild")
    dice = ScriptedDice([2, 5, 3])

    results = [
        resolve_uncontrolled(LooseItem("first"), [knights, follypop], dice).winner,
        resolve_uncontrolled(LooseItem("second"), [knights, follypop], dice).winner,
        resolve_uncontrolled(LooseItem("third", majority=2), [knights, follypop], dice).winner,
    ]

    assert results == [1, 2, 2]


@pytest.mark.parametrize(("face", "winner"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_equal_odds_faces(face, winner):
    sides = [Side(1, "A"), Side(2, "B")]

    assert resolve_uncontrolled(LooseItem("x", heavy=True), sides, ScriptedDice([face])).winner == (
        winner
    )


def test_equal_odds_natural_rolls_beat_modifiers():
    sides = [Side(1, "A", pitters=2), Side(2, "B")]

    assert resolve_uncontrolled(LooseItem("x"), sides, ScriptedDice([6])).winner == 2
    assert resolve_uncontrolled(LooseItem("x", majority=2), sides, ScriptedDice([1])).winner == 1


def test_three_warbands_remaining_roll_off_with_their_own_modifiers():
    sides = [Side(1, "A"), Side(2, "B", pitters=1), Side(3, "C")]

    recovery = resolve_uncontrolled(LooseItem("x"), sides, ScriptedDice([4, 4, 5, 2, 6]))

    # 4, 4+1 = 5, 5: B and C tie on 5 and roll again: B 2+1 = 3, C 6.
    assert recovery.winner == 3
    assert len(recovery.rolls) == 5


def test_several_warbands_remaining_against_routers():
    stayed_a, stayed_b = Side(1, "A"), Side(2, "B")
    fled = Side(3, "C", routed=True, rout_order=1)

    recovery = resolve_uncontrolled(
        LooseItem("x"), [stayed_a, stayed_b, fled], ScriptedDice([4, 3, 5])
    )

    assert recovery.winner == 2  # remaining side wins, then B beats A in the roll-off


def test_choosing_order_starts_with_the_warbands_that_did_not_rout():
    sides = [
        Side(1, "A", routed=True, rout_order=1),
        Side(2, "B"),
        Side(3, "C"),
        Side(4, "D", routed=True, rout_order=2),
    ]

    order = choosing_order(sides, ScriptedDice([2, 5]))

    assert [s.warband_id for s in order] == [3, 2, 4, 1]


def test_securing_an_item_removes_a_warrior_able_to_secure():
    sides = two_sides()

    after = after_securing(sides, STAYED)

    assert [s.securers for s in after] == [0, 1]
    assert after_securing(after, STAYED)[0].securers == 0


def test_the_first_roll_ignores_the_pitters_and_quartermasters_of_earlier_routers():
    """Only the final warbands' modifiers apply to the first roll: the first to rout has left
    the table, so its Band of Pitters and its Quartermasters do not count (3 stays 3)."""
    winner = Side(10, "Winners", quartermasters=1)
    first = Side(11, "First out", routed=True, rout_order=1, pitters=1, quartermasters=2)
    last = Side(12, "Last out", routed=True, rout_order=2)

    recovery = resolve_uncontrolled(
        LooseItem("chest"), [winner, first, last], ScriptedDice([3]), quartermaster_option=True
    )

    assert recovery.winner == 10
    assert recovery.rolls[0].modifiers == (("Winners' Quartermasters", 1),)
    assert recovery.rolls[0].total == 4


def test_the_first_roll_counts_the_last_router_still_on_the_table():
    """The last to rout is one of the final warbands: its Band of Pitters pulls the first roll."""
    winner = Side(10, "Winners")
    first = Side(11, "First out", routed=True, rout_order=1)
    last = Side(12, "Last out", routed=True, rout_order=2, pitters=1)
    dice = ScriptedDice([3, 2])  # 3 -1 = 2: the routers; then the chain, Last out wins on 2 + 1

    recovery = resolve_uncontrolled(LooseItem("chest"), [winner, first, last], dice)

    assert recovery.rolls[0].modifiers == (("Last out's Band of Pitters", -1),)
    assert recovery.winner == 12


def test_the_chain_compares_quartermasters_among_the_routers_only():
    """In the chain the winners' Quartermasters are out of it: the Sisters' one counts (-1)."""
    winner = Side(10, "Winners", quartermasters=3)
    sisters = Side(11, "Sisters", routed=True, rout_order=1, quartermasters=1)
    spears = Side(12, "Spears", routed=True, rout_order=2)
    dice = ScriptedDice([1, 3])  # a natural 1 to the routers; then Spears 3 -1 = 2, Sisters

    recovery = resolve_uncontrolled(
        LooseItem("chest"), [winner, sisters, spears], dice, quartermaster_option=True
    )

    assert recovery.rolls[1].modifiers == (("Sisters' Quartermasters", -1),)
    assert recovery.winner == 11
