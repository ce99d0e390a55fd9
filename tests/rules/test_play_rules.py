"""The rules of play (``battles.rules.play``) entry by entry, with scripted dice: characteristic
and Leadership tests, the recovery phase, hiding, climbing, jumping down, diving charges, gaps,
edges and falls (core rules: characteristics, the turn, movement), the turn order and the end
of the game. Rout tests and the leader's Leadership are in ``test_rout_rules``."""

from fractions import Fraction

import pytest

from battles.rules import play
from battles.rules.play import FLEEING, HIDDEN, KNOCKED_DOWN, OUT_OF_ACTION, STANDING, STUNNED
from core.dice import DiceError, ScriptedDice

HALF = Fraction(1, 2)


# Characteristic tests: D6 equal to or under the value, a 6 always fails.


@pytest.mark.parametrize("value", [0, 1, 3, 5, 6, 7, 10])
@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_characteristic_test_for_every_roll(roll, value):
    assert play.characteristic_test(roll, value) is (roll != 6 and roll <= value)


@pytest.mark.parametrize("value", [6, 7, 9, 10])
def test_a_six_fails_whatever_the_value(value):
    assert play.characteristic_test(6, value) is False
    assert play.characteristic_test(5, value) is True


def test_the_rulebook_example_dieter_with_initiative_3():
    assert [play.characteristic_test(r, 3) for r in range(1, 7)] == [True] * 3 + [False] * 3


# How many Initiative tests: one per full 2" jumped down (6" at most), one otherwise.


@pytest.mark.parametrize("key", ["jump_down", "diving_charge"])
@pytest.mark.parametrize(("height", "tests"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_one_test_per_full_two_inches_jumped_down(key, height, tests):
    assert play.tests_for(play.TESTS[key], height) == tests


@pytest.mark.parametrize("key", ["jump_down", "diving_charge"])
@pytest.mark.parametrize("height", [0, 7, 8])
def test_jumps_of_nothing_or_over_six_inches_are_refused(key, height):
    with pytest.raises(play.PlayError, match='6" at most'):
        play.tests_for(play.TESTS[key], height)


@pytest.mark.parametrize("key", ["climb_down", "edge", "gap"])
@pytest.mark.parametrize("height", [1, 2, 6, 7, 12, 30])
def test_climbing_down_edges_and_gaps_take_one_test_whatever_the_height(key, height):
    assert play.tests_for(play.TESTS[key], height) == 1


@pytest.mark.parametrize("key", ["edge", "gap"])
@pytest.mark.parametrize("height", [0, 31, -1])
def test_a_fall_height_must_be_given(key, height):
    with pytest.raises(play.PlayError, match="height of the fall"):
        play.tests_for(play.TESTS[key], height)


@pytest.mark.parametrize("key", ["climb_up", "climb_down"])
@pytest.mark.parametrize(("height", "movement"), [(1, 4), (4, 4), (5, 5), (6, None)])
def test_a_climb_up_to_the_move_is_one_test(key, height, movement):
    assert play.TESTS[key].asks_height is True
    assert play.tests_for(play.TESTS[key], height, movement) == 1


@pytest.mark.parametrize("key", ["climb_up", "climb_down"])
@pytest.mark.parametrize(("height", "movement"), [(5, 4), (7, 6), (9, 8)])
def test_a_climb_higher_than_the_move_is_refused(key, height, movement):
    """Core rules, climbing: a height more than the model's Move cannot be climbed."""
    with pytest.raises(play.PlayError, match=f"no higher than his Move \\({movement}"):
        play.tests_for(play.TESTS[key], height, movement)


@pytest.mark.parametrize("key", ["climb_up", "climb_down"])
@pytest.mark.parametrize("height", [0, 31, -1])
def test_a_climb_asks_its_height(key, height):
    with pytest.raises(play.PlayError, match="height climbed"):
        play.tests_for(play.TESTS[key], height, 4)


def test_which_failures_are_falls():
    assert {k for k, t in play.TESTS.items() if t.falls} == set(play.TESTS) - {"climb_up"}
    assert all(t.key == k for k, t in play.TESTS.items())


# Rolling the Initiative tests.


def purposes_of(faces, test, height, initiative):
    rolled = []
    dice = ScriptedDice(faces, recorder=rolled.append)
    result = play.initiative_tests(dice, test, height, initiative, "Hans")
    return result, [r.purpose for r in rolled], dice.remaining


@pytest.mark.parametrize(
    ("faces", "passed", "rolls"),
    [
        ([1, 2, 3], True, (1, 2, 3)),
        ([4, 1, 1], False, (4,)),  # the first failure ends them
        ([1, 5, 1], False, (1, 5)),
        ([2, 2, 6], False, (2, 2, 6)),
    ],
)
def test_a_six_inch_jump_stops_at_the_first_failure(faces, passed, rolls):
    result, purposes, left = purposes_of(faces, play.TESTS["jump_down"], 6, 3)
    assert (result.passed, result.rolls) == (passed, rolls)
    assert result.fall_height == (0 if passed else 6)
    assert len(left) == 3 - len(rolls)
    assert purposes == [
        f"Jumping down: Hans, Initiative test {n}" for n in range(1, len(rolls) + 1)
    ]


@pytest.mark.parametrize(
    ("key", "height"),
    [("climb_down", 5), ("jump_down", 3), ("diving_charge", 4), ("gap", 2), ("edge", 9)],
)
def test_a_failed_test_falls_the_full_height(key, height):
    result = play.initiative_tests(ScriptedDice([6, 6, 6]), play.TESTS[key], height, 10, "Hans")
    assert result == play.TestResult(False, (6,), height)


@pytest.mark.parametrize(
    ("key", "height", "purpose"),
    [
        ("climb_up", 3, "Climbing up: Hans, Initiative test"),
        ("climb_down", 4, "Climbing down: Hans, Initiative test"),
        ("jump_down", 2, "Jumping down: Hans, Initiative test"),
        ("diving_charge", 3, "Diving charge: Hans, Initiative test"),
        ("gap", 3, "Jumping a gap: Hans, Initiative test"),
        ("edge", 5, 'Knocked down or stunned within 1" of an edge: Hans, Initiative test'),
    ],
)
def test_a_single_test_is_named_without_a_number(key, height, purpose):
    result, purposes, _ = purposes_of([2], play.TESTS[key], height, 4)
    assert result == play.TestResult(True, (2,), 0)
    assert purposes == [purpose]


def test_a_diving_charge_of_four_inches_names_both_tests():
    result, purposes, _ = purposes_of([1, 3], play.TESTS["diving_charge"], 4, 3)
    assert result.passed
    assert purposes == [
        "Diving charge: Hans, Initiative test 1",
        "Diving charge: Hans, Initiative test 2",
    ]


@pytest.mark.parametrize("face", [4, 5, 6])
def test_a_failed_climb_up_only_stops_him(face):
    result = play.initiative_tests(ScriptedDice([face]), play.TESTS["climb_up"], 3, 3, "Hans")
    assert result == play.TestResult(False, (face,), 0)
    assert "falls" not in result.describe(3)


def test_a_refused_height_rolls_nothing():
    dice = ScriptedDice([1, 1, 1, 1])
    with pytest.raises(play.PlayError):
        play.initiative_tests(dice, play.TESTS["jump_down"], 7, 3, "Hans")
    assert dice.remaining == (1, 1, 1, 1)


def test_too_few_dice_is_a_dice_error():
    with pytest.raises(DiceError):
        play.initiative_tests(ScriptedDice([1]), play.TESTS["jump_down"], 5, 3, "Hans")


def test_describe():
    assert play.TestResult(True, (1, 2), 0).describe(4) == "I 4: rolled 1, 2, passed"
    assert play.TestResult(False, (3, 5), 5).describe(4) == 'I 4: rolled 3, 5, failed; falls 5"'


# Falling: D3 hits at the Strength of the height, no armour save.


@pytest.mark.parametrize(("face", "hits"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_a_fall_deals_d3_hits(face, hits):
    rolled = []
    dice = ScriptedDice([face], recorder=rolled.append)
    assert play.fall_hits(dice, 4, "Hans") == (hits, 4)
    assert [r.purpose for r in rolled] == ['A fall of 4": Hans, D3 hits']


@pytest.mark.parametrize(
    ("height", "strength"), [(1, 1), (2, 2), (5, 5), (6, 6), (9, 9), (10, 10), (11, 10), (30, 10)]
)
def test_the_strength_is_the_height_capped_at_ten(height, strength):
    assert play.fall_hits(ScriptedDice([3]), height, "Hans") == (2, strength)


# Leadership tests: 2D6 equal to or under Ld.


LEADERSHIP = [
    ((3, 4), 7, True), ((4, 4), 7, False), ((1, 1), 2, True), ((1, 1), 1, False),
    ((6, 6), 12, True), ((6, 5), 10, False), ((5, 5), 10, True), ((1, 2), 0, False),
]  # fmt: skip


@pytest.mark.parametrize(("faces", "leadership", "passed"), LEADERSHIP)
def test_leadership_test_boundaries(faces, leadership, passed):
    rolled = []
    dice = ScriptedDice(faces, recorder=rolled.append)
    assert play.leadership_test(dice, leadership, "Rally: Hans") == (passed, sum(faces))
    assert [(r.purpose, r.faces) for r in rolled] == [("Rally: Hans", faces)]


# Hiding: not after running, fleeing, falling or charging, nor stunned (or down, or out).

NOTHING_DONE = {"ran": False, "charged": False, "fell": False, "fled": False}


@pytest.mark.parametrize(
    ("state", "why"),
    [
        (STANDING, ""),
        (HIDDEN, ""),
        (STUNNED, "A stunned warrior cannot hide."),
        (KNOCKED_DOWN, "A warrior knocked down cannot hide."),
        (FLEEING, "A warrior fleeing cannot hide."),
        (OUT_OF_ACTION, "A warrior out of action cannot hide."),
    ],
)
def test_may_hide_for_each_state(state, why):
    assert play.may_hide(state, **NOTHING_DONE) == why


@pytest.mark.parametrize("flag", ["ran", "charged", "fell", "fled"])
def test_may_hide_for_each_flag(flag):
    why = play.may_hide(STANDING, **{**NOTHING_DONE, flag: True})
    assert why == f"A warrior who {flag} this turn cannot hide."
    assert play.may_hide(HIDDEN, **{**NOTHING_DONE, flag: True}) == why


def test_the_state_is_given_before_what_he_did():
    assert play.may_hide(STUNNED, ran=True, charged=True, fell=True, fled=True) == (
        "A stunned warrior cannot hide."
    )


# The recovery phase: stunned becomes knocked down, everything else stays.


@pytest.mark.parametrize(
    ("state", "becomes"),
    [
        (STUNNED, KNOCKED_DOWN),
        (KNOCKED_DOWN, KNOCKED_DOWN),
        (STANDING, STANDING),
        (FLEEING, FLEEING),
        (HIDDEN, HIDDEN),
        (OUT_OF_ACTION, OUT_OF_ACTION),
    ],
)
def test_recovered(state, becomes):
    assert play.recovered(state) == becomes


# The turn order and the end of the game.


TURNS = [
    (2, 0, 1, (1, 1)), (2, 1, 1, (0, 2)), (2, 1, 5, (0, 6)), (3, 0, 1, (1, 1)),
    (3, 1, 1, (2, 1)), (3, 2, 1, (0, 2)), (3, 2, 7, (0, 8)), (1, 0, 3, (0, 4)),
]  # fmt: skip


@pytest.mark.parametrize(("order_len", "player", "turn", "after"), TURNS)
def test_next_turn(order_len, player, turn, after):
    assert play.next_turn(order_len, player, turn) == after


def test_a_full_round_of_three_sides():
    player, turn, seen = 0, 1, []
    for _ in range(6):
        player, turn = play.next_turn(3, player, turn)
        seen.append((player, turn))
    assert seen == [(1, 1), (2, 1), (0, 2), (1, 2), (2, 2), (0, 3)]


ROUTS = [
    ([10, 20], set(), None), ([10, 20], {10}, [20]), ([10, 20], {20}, [10]),
    ([10, 20, 30], set(), None), ([10, 20, 30], {20}, None), ([10, 20, 30], {10, 30}, [20]),
    ([10, 20, 30], {10, 20, 30}, []), ([10, 20, 30, 40], {40, 10}, None),
]  # fmt: skip


@pytest.mark.parametrize(("order", "routed", "winners"), ROUTS)
def test_winners_after_rout(order, routed, winners):
    assert play.winners_after_rout(order, routed) == winners
