"""The Heroes' serious injuries chart, entry by entry, with scripted dice."""

import pytest

from battles.rules.injuries import (
    Enemy,
    InjuryContext,
    LeaderCandidate,
    daemons_banished,
    henchmen_lost,
    hero_injuries,
    new_leader,
)
from battles.rules.tasks import NeedsAnswer
from core.dice import ScriptedDice

ENEMY = Enemy(
    warrior="Snikch", warrior_is_hero=True, warband_id=7, warband="Grey Scourge",
    leader="Skrit", warband_type="Skaven of Clan Eshin",
)  # fmt: skip
CONTEXT = InjuryContext(name="Otto", enemy=ENEMY, opponents=((7, "Grey Scourge"),))


def injure(faces, *, context=CONTEXT, answers=None):
    dice = ScriptedDice(faces)
    result = hero_injuries(dice, context=context, answers=answers or {})
    assert dice.remaining == (), "every scripted face is used"
    return result


@pytest.mark.parametrize(
    ("faces", "lost"), [([1], 1), ([2], 1), ([3], 0), ([6], 0), ([1, 4, 2], 2)]
)
def test_henchmen_are_lost_on_one_or_two(faces, lost):
    assert henchmen_lost(ScriptedDice(faces), name="Guards", models=len(faces))[0] == lost


@pytest.mark.parametrize("first_die", [1])
@pytest.mark.parametrize("second_die", [1, 2, 3, 4, 5])
def test_11_to_15_dead(first_die, second_die):
    (injury,) = injure([first_die, second_die]).injuries

    assert (injury.name, injury.dead, injury.lose_equipment) == ("Dead", True, "all")


@pytest.mark.parametrize(
    ("faces", "name", "effect"),
    [
        ([2, 2], "Leg wound", {"lowered": ("M",)}),
        ([2, 6], "Chest wound", {"lowered": ("T",)}),
        ([3, 1], "Blinded in one eye", {"lowered": ("BS",)}),
        ([3, 3], "Nervous condition", {"lowered": ("I",)}),
        ([3, 4], "Hand injury", {"lowered": ("WS",)}),
        ([3, 6], "Robbed", {"lose_equipment": "all"}),
        ([6, 2], "Hardened", {"lasting": "Hardened: immune to fear"}),
        ([6, 3], "Hardened", {"lasting": "Hardened: immune to fear"}),
        ([6, 4], "Horrible scars", {"lasting": "Horrible scars: causes fear"}),
        ([6, 6], "Survives against the odds", {"experience": 1}),
        ([3, 2], "Old battle wound", {"lasting": "Old battle wound: does not fight on a 1 on a "
                                                 "D6 at the start of a battle"}),
    ],
)  # fmt: skip
def test_single_results(faces, name, effect):
    (injury,) = injure(faces).injuries

    assert injury.name == name
    for attribute, value in effect.items():
        assert getattr(injury, attribute) == value
    assert not injury.dead


@pytest.mark.parametrize("faces", [[4, 1], [4, 6], [5, 1], [5, 5]])
def test_41_to_55_full_recovery(faces):
    (injury,) = injure(faces).injuries

    assert injury.name == "Full recovery"
    assert injury == type(injury)(injury.code, "Full recovery")  # no effect at all


@pytest.mark.parametrize(
    ("sub", "detail", "miss", "lasting"),
    [
        (
            1,
            "severe: the arm is amputated",
            0,
            "Amputated arm: may only use a single one-handed weapon",
        )
    ]
    + [(n, "light wound: misses the next game", 1, "") for n in range(2, 7)],
)
def test_23_arm_wound(sub, detail, miss, lasting):
    (injury,) = injure([2, 3, sub]).injuries

    assert (injury.detail, injury.miss_games, injury.lasting) == (detail, miss, lasting)


@pytest.mark.parametrize(
    ("sub", "madness"), [(1, "stupidity"), (3, "stupidity"), (4, "frenzy"), (6, "frenzy")]
)
def test_24_madness(sub, madness):
    (injury,) = injure([2, 4, sub]).injuries

    assert injury.lasting == f"Madness: {madness}"


@pytest.mark.parametrize(("sub", "runs", "miss"), [(1, False, 0), (2, True, 1), (6, True, 1)])
def test_25_smashed_leg(sub, runs, miss):
    (injury,) = injure([2, 5, sub]).injuries

    assert ("may not run" in injury.lasting) is not runs
    assert injury.miss_games == miss


@pytest.mark.parametrize(("sub", "games"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_35_deep_wound_misses_d3_games(sub, games):
    (injury,) = injure([3, 5, sub]).injuries

    assert injury.miss_games == games


@pytest.mark.parametrize(
    ("sub", "hatred"),
    [
        (1, "Bitter enmity: hates Snikch"),
        (3, "Bitter enmity: hates Snikch"),
        (4, "Bitter enmity: hates Skrit, leader of Grey Scourge"),
        (5, "Bitter enmity: hates the whole of Grey Scourge"),
        (6, "Bitter enmity: hates all Skaven of Clan Eshin"),
    ],
)
def test_56_bitter_enmity(sub, hatred):
    (injury,) = injure([5, 6, sub]).injuries

    assert injury.lasting == hatred


def test_bitter_enmity_against_a_henchman_means_his_leader():
    henchman = InjuryContext(
        name="Otto", enemy=Enemy(warrior="Verminkin", warrior_is_hero=False, warband="Scourge",
                                 leader="Skrit"),
    )  # fmt: skip

    (injury,) = injure([5, 6, 2], context=henchman).injuries

    assert injury.lasting == "Bitter enmity: hates Skrit, leader of Scourge"


def test_61_captured_by_the_enemy_who_took_him_out():
    (injury,) = injure([6, 1]).injuries

    assert (injury.name, injury.captured_by, injury.detail) == (
        "Captured",
        7,
        "held by Grey Scourge",
    )


def test_captured_asks_who_holds_him_when_several_enemies_could():
    context = InjuryContext(name="Otto", opponents=((7, "Scourge"), (8, "Pyre")))

    with pytest.raises(NeedsAnswer) as question:
        injure([6, 1], context=context)
    assert question.value.question.options == (("7", "Scourge"), ("8", "Pyre"))
    (injury,) = injure([6, 1], context=context, answers={"captor": "8"}).injuries
    assert injury.captured_by == 8


def test_65_sold_to_the_pits_asks_who_won_then_pays_a_winner():
    with pytest.raises(NeedsAnswer) as question:
        injure([6, 5])
    assert question.value.question.key == "pit_fight"

    (injury,) = injure([6, 5], answers={"pit_fight": "won"}).injuries

    assert (injury.gold, injury.experience, injury.lose_equipment) == (50, 2, "")


def test_a_loser_in_the_pits_rolls_11_to_35_and_loses_his_weapons_and_armour():
    # 52 and 46 are above 35 and rolled again; 22 is a leg wound.
    result = injure([6, 5, 5, 2, 4, 6, 2, 2], answers={"pit_fight": "lost"})

    names = [injury.name for injury in result.injuries]
    assert names == ["Sold to the pits", "Thrown out of the pits", "Leg wound"]
    assert result.injuries[1].lose_equipment == "weapons_and_armour"


def test_a_loser_who_dies_in_the_pits_just_dies():
    result = injure([6, 5, 1, 3], answers={"pit_fight": "lost"})

    assert [i.name for i in result.injuries] == ["Sold to the pits", "Dead"]
    assert result.dead


@pytest.mark.parametrize("code", [(1, 6), (2, 1)])
def test_16_to_21_multiple_injuries_rerolls_dead_captured_and_multiple(code):
    faces = [
        *code,
        3,  # D6: three further injuries
        1, 2, 6, 1, 2, 2,  # dead and captured are rolled again, then a leg wound
        1, 6, 3, 3,  # multiple injuries is rolled again, then a nervous condition
        6, 6,  # survives against the odds
    ]  # fmt: skip

    result = injure(faces)

    names = [injury.name for injury in result.injuries]
    assert names == [
        "Multiple injuries",
        "Leg wound",
        "Nervous condition",
        "Survives against the odds",
    ]
    assert not result.dead and not any(i.captured_by for i in result.injuries)


def test_multiple_injuries_never_yield_dead_captured_or_more_multiple_injuries():
    """Six further injuries, every one first landing on a result to roll again."""
    rerolled = [[1, 1], [6, 1], [2, 1], [1, 5], [1, 6], [6, 1]]
    kept = [[2, 2], [3, 3], [4, 4], [5, 5], [6, 2], [6, 6]]
    faces = [1, 6, 6] + [
        face for pair in zip(rerolled, kept, strict=True) for d in pair for face in d
    ]

    names = [injury.name for injury in injure(faces).injuries]

    assert names[0] == "Multiple injuries" and len(names) == 7
    assert not {"Dead", "Captured", "Multiple injuries"} & set(names[1:])


def test_a_second_blinding_retires_the_hero():
    blinded = InjuryContext(name="Otto", blinded_before=True)

    (injury,) = injure([3, 1], context=blinded).injuries

    assert injury.retire and injury.lowered == ()


def test_two_blindings_in_one_multiple_injuries_retire_him():
    result = injure([1, 6, 2, 3, 1, 3, 1])

    assert [i.retire for i in result.injuries] == [False, False, True]


# --- Death of a leader ---------------------------------------------------------------------


def candidate(pk, ld, xp, key="champion"):
    return LeaderCandidate(pk, f"Hero {pk}", ld, xp, key)


def test_the_highest_leadership_takes_command():
    assert (
        new_leader(
            [candidate(1, 7, 8), candidate(2, 8, 0)], ScriptedDice([]), warband_family="Mercenaries"
        )[0]
        == 2
    )


def test_most_experience_breaks_a_tie_then_a_d6():
    heroes = [candidate(1, 7, 8), candidate(2, 7, 9), candidate(3, 7, 9)]

    chosen, _ = new_leader(heroes, ScriptedDice([2, 5]), warband_family="Mercenaries")

    assert chosen == 3


def test_an_undead_necromancer_takes_over_and_without_one_the_warband_collapses():
    dreg, necro = candidate(1, 9, 9, "dreg"), candidate(2, 7, 8, "necromancer")

    assert new_leader([dreg, necro], ScriptedDice([]), warband_family="Undead")[0] == 2
    chosen, note = new_leader([dreg], ScriptedDice([]), warband_family="Undead")
    assert chosen is None and "collapses" in note


# --- Warband special rules (reference/warbands-core-and-grade-1a.md) ----------------------


@pytest.mark.parametrize(("faces", "name"), [([3, 6], "Robbed"), ([6, 1], "Captured")])
def test_a_bear_tamer_whose_bear_stood_makes_a_full_recovery(faces, name):
    """Fiercely Loyal: Robbed and Captured count as Full recovery while his bear stood."""
    guarded = InjuryContext(name="Yuri", enemy=ENEMY, opponents=((7, "Grey Scourge"),),
                            guarded=True)  # fmt: skip

    (injury,) = injure(faces, context=guarded).injuries

    assert injury.name == "Full recovery"
    assert name.lower() in injury.detail
    assert not injury.lose_equipment and injury.captured_by is None


def test_a_guarded_bear_tamer_is_never_sold_to_the_pits():
    guarded = InjuryContext(name="Yuri", guarded=True)

    (injury,) = injure([6, 5], context=guarded).injuries  # no pit fight asked

    assert injury.name == "Full recovery"


def test_an_unguarded_bear_tamer_is_robbed_as_anyone():
    (injury,) = injure([3, 6], context=InjuryContext(name="Yuri")).injuries

    assert (injury.name, injury.lose_equipment) == ("Robbed", "all")


@pytest.mark.parametrize(
    ("faces", "bonus", "lost"),
    [([3], 0, 1), ([4], 0, 0), ([2], 1, 1), ([3], 1, 0), ([1, 6, 2], 0, 2)],
)
def test_daemons_are_banished_on_one_to_three(faces, bonus, lost):
    """Daemonic instability: 1-3 on a D6 banishes; the Plague Cart adds 1."""
    dice = ScriptedDice(faces)
    assert daemons_banished(dice, name="Nurglings", models=len(faces), bonus=bonus)[0] == lost


def test_a_type_that_never_leads_is_passed_over():
    """No Respect: a promoted Ruffian never takes command, even with the best Leadership."""
    ruffian = LeaderCandidate(1, "Ruffian", 9, 40, "ruffian", may_lead=False)

    chosen, _ = new_leader([ruffian, candidate(2, 7, 10)], ScriptedDice([]), warband_family="")

    assert chosen == 2


def test_nobody_takes_command_when_only_ruffians_are_left():
    ruffian = LeaderCandidate(1, "Ruffian", 9, 40, "ruffian", may_lead=False)

    assert new_leader([ruffian], ScriptedDice([]), warband_family="")[0] is None
