"""Rout tests (``battles.rules.play``) entry by entry (FACTS.md §8): when a warband tests,
what each model counts for (the warband lists: Not Orcs, Largely Insignificant), whose
Leadership it takes (never a hired sword's), the re-rolls of a failure (Utter Determination,
Bellowing Roar, Da Cunnin' Plan, Blood Oath, Cathayan Silk Clothes, Ostermark), and how far a
leader's Leadership reaches (Reikland, Battle Tongue)."""

from fractions import Fraction

import pytest

from battles.rules import play
from battles.rules.play import FLEEING, HIDDEN, KNOCKED_DOWN, OUT_OF_ACTION, STANDING, STUNNED

HALF = Fraction(1, 2)


# When a warband tests: a quarter or more out of action.


def band(out=0, standing=0, weight=Fraction(1), **others):
    models = [play.Model(OUT_OF_ACTION, 7, weight=weight) for _ in range(out)]
    models += [play.Model(STANDING, 7, weight=weight) for _ in range(standing)]
    for state, count in others.items():
        models += [play.Model(state, 7, weight=weight) for _ in range(count)]
    return models


@pytest.mark.parametrize(
    ("out", "tests"), [(0, False), (1, False), (2, False), (3, True), (12, True)]
)
def test_twelve_warriors_test_at_three_out(out, tests):
    assert play.must_test(band(out=out, standing=12 - out)) is tests


@pytest.mark.parametrize(("size", "at"), [(3, 1), (4, 1), (5, 2), (8, 2), (9, 3), (15, 4)])
def test_a_quarter_or_more(size, at):
    assert play.must_test(band(out=at - 1, standing=size - at + 1)) is False
    assert play.must_test(band(out=at, standing=size - at)) is True


def test_only_the_out_of_action_count():
    assert not play.must_test(band(out=2, standing=2, stunned=4, knocked_down=2, fleeing=2))


def orcs_and_goblins(orcs_out, goblins_out, orcs=5, goblins=10):
    weight = play.rout_weight("goblin_warrior", "Orc Mob")
    return [
        *band(out=orcs_out, standing=orcs - orcs_out),
        *band(out=goblins_out, standing=goblins - goblins_out, weight=weight),
    ]


@pytest.mark.parametrize(
    ("orcs_out", "goblins_out", "tests"),
    [(2, 0, False), (0, 4, False), (1, 2, False), (4, 0, True), (0, 8, True), (2, 4, True)],
)
def test_goblins_out_of_action_count_half(orcs_out, goblins_out, tests):
    """5 Orcs and 10 Goblins: a test at 4 models out (4 Orcs or 8 Goblins, or a mix)."""
    assert play.must_test(orcs_and_goblins(orcs_out, goblins_out)) is tests


@pytest.mark.parametrize(("orcs_out", "goblins_out"), [(3, 0), (0, 7), (2, 3)])
def test_the_book_example_of_not_orcs_does_not_test_below_four(orcs_out, goblins_out):
    assert play.must_test(orcs_and_goblins(orcs_out, goblins_out)) is False


def test_a_weightless_model_counts_neither_in_size_nor_out():
    gnoblar = play.rout_weight("gnoblar", "Mercenaries")
    humans = band(out=1, standing=3)
    assert play.must_test(humans + band(standing=8, weight=gnoblar)) is True
    assert play.must_test(band(out=0, standing=4) + band(out=8, weight=gnoblar)) is False


def test_a_warband_of_nothing_that_counts_never_tests():
    assert play.must_test(band(out=3, standing=1, weight=Fraction(0))) is False
    assert play.must_test([]) is False


# How much a model counts.


WEIGHTS = [
    ("goblin_warrior", "Orc Mob", HALF), ("cave_squig", "Orc Mob", HALF),
    ("orc_boss", "Orc Mob", 1), ("orc_shaman", "Orc Mob", 1), ("orc_big_un", "Orc Mob", 1),
    ("orc_boy", "Orc Mob", 1), ("troll", "Orc Mob", 1), ("goblin_warrior", "Mercenaries", 1),
    ("cave_squig", "Skaven", 1), ("warrior", "Mercenaries", 1), ("gnoblar", "Orc Mob", 0),
    ("gnoblar", "Mercenaries", 0), ("gnoblar_trapper", "Skaven", 0), ("hired_gnoblar", "Undead", 0),
]  # fmt: skip


@pytest.mark.parametrize(("type_key", "family", "weight"), WEIGHTS)
def test_rout_weight(type_key, family, weight):
    assert play.rout_weight(type_key, family) == weight


# Whose Leadership the rout test takes.


def leader(state, ld=8):
    return play.Model(state, ld, is_leader=True)


OTHERS = [
    play.Model(STANDING, 6),
    play.Model(KNOCKED_DOWN, 7),
    play.Model(STUNNED, 9),
    play.Model(OUT_OF_ACTION, 10),
]


@pytest.mark.parametrize("state", [STANDING, KNOCKED_DOWN, FLEEING, HIDDEN])
def test_the_leaders_leadership_while_he_is_neither_stunned_nor_out(state):
    assert play.rout_leadership([*OTHERS, leader(state, ld=5)]) == 5
    assert play.rout_leadership([leader(state, ld=9), *OTHERS]) == 9


@pytest.mark.parametrize("state", [STUNNED, OUT_OF_ACTION])
def test_else_the_best_of_those_neither_stunned_nor_out(state):
    assert play.rout_leadership([leader(state, ld=10), *OTHERS]) == 7


def test_without_a_leader_the_best_of_the_others():
    assert play.rout_leadership(OTHERS) == 7
    assert play.rout_leadership([play.Model(FLEEING, 8), play.Model(HIDDEN, 6)]) == 8


@pytest.mark.parametrize("state", [STUNNED, OUT_OF_ACTION])
def test_a_hired_swords_leadership_never_takes_the_rout_test(state):
    """Hired-swords chapter: his Leadership is not used for Rout tests."""
    ogre = play.Model(STANDING, 9, hired=True)
    assert play.rout_leadership([leader(state, ld=10), *OTHERS, ogre]) == 7
    assert play.rout_leadership([leader(state), ogre]) == 0
    assert play.rout_leadership([leader(STANDING, ld=6), ogre]) == 6  # the leader's own


@pytest.mark.parametrize("state", [STUNNED, OUT_OF_ACTION])
def test_none_left_is_zero(state):
    models = [leader(state), play.Model(STUNNED, 9), play.Model(OUT_OF_ACTION, 10)]
    assert play.rout_leadership(models) == 0
    assert play.rout_leadership([]) == 0


# The re-rolls of a failed rout test.


# Special rules of lists: the Ostermarkers' re-roll of every failed Rout test, and one that
# is no re-roll.
HARDY = {"name": "Hardy (Rout tests)", "effect": "rout_reroll", "text": "…"}
ARCHERY = {"name": "Archery", "text": "…"}


def offered(skills=(), *, out=False, silk=False, family="Orc Mob", rules=(), used=()):
    rerolls = play.rout_rerolls(
        leader_skills=set(skills), leader_out=out, leader_has_silk=silk, family=family,
        list_rules=rules, used=set(used),
    )  # fmt: skip
    return [r.key for r in rerolls]


def test_no_skill_no_reroll():
    assert offered() == []
    assert offered({"ere_we_go", "waaagh"}) == []


@pytest.mark.parametrize("skill", ["utter_determination", "bellowing_roar"])
@pytest.mark.parametrize("out", [False, True])
def test_the_leaders_skill_every_time_whatever_became_of_him(skill, out):
    assert offered({skill}, out=out) == [skill]
    assert offered({skill}, out=out, used={skill}) == [skill]


def test_da_cunnin_plan_while_the_boss_is_not_out_of_action():
    assert offered({"da_cunnin_plan"}) == ["da_cunnin_plan"]
    assert offered({"da_cunnin_plan"}, used={"da_cunnin_plan"}) == ["da_cunnin_plan"]
    assert offered({"da_cunnin_plan"}, out=True) == []


@pytest.mark.parametrize("out", [False, True])
def test_blood_oath_once_per_game(out):
    assert offered({"blood_oath"}, out=out, family="Mercenaries") == ["blood_oath"]
    assert offered({"blood_oath"}, out=out, used={"blood_oath"}) == []
    assert play.REROLLS["blood_oath"].once_per_game is True


@pytest.mark.parametrize("rules", [(), (ARCHERY,)])
def test_silk_for_a_mercenary_leader_the_first_failed_test(rules):
    family = "Mercenaries"
    assert offered(silk=True, family=family, rules=rules) == ["silk"]
    assert offered(silk=True, family=family, rules=rules, out=True) == ["silk"]
    assert offered(silk=True, family=family, rules=rules, used={"silk"}) == []
    assert offered(silk=False, family=family, rules=rules) == []
    assert play.SILK.once_per_game is True


@pytest.mark.parametrize("family", ["Witch Hunters", "Sisters of Sigmar", "Orc Mob", "mercenaries"])
def test_silk_for_mercenaries_only(family):
    assert offered(silk=True, family=family) == []


@pytest.mark.parametrize(
    ("rules", "expected"),
    [((HARDY,), ["rout_reroll"]), ((ARCHERY, HARDY), ["rout_reroll"]), ((ARCHERY,), []), ((), [])],
)
@pytest.mark.parametrize("out", [False, True])
def test_a_lists_own_reroll_every_test_by_its_effect(rules, expected, out):
    """Ostermark: every failed Rout test may be re-rolled (not once per game), whatever became
    of the leader; the offer is labelled with the rule's name."""
    assert offered(family="Mercenaries", rules=rules, out=out) == expected
    assert offered(family="Mercenaries", rules=rules, used={"rout_reroll"}) == expected
    labels = [r.label for r in play.rout_rerolls(
        leader_skills=set(), leader_out=out, leader_has_silk=False, family="Mercenaries",
        list_rules=rules, used=set(),
    )]  # fmt: skip
    assert labels == ["Hardy (Rout tests)"] * len(expected)


def test_everything_at_once_in_order():
    skills = set(play.REROLLS)
    assert offered(skills, silk=True, family="Mercenaries", rules=(HARDY,)) == [
        "utter_determination",
        "bellowing_roar",
        "da_cunnin_plan",
        "blood_oath",
        "silk",
        "rout_reroll",
    ]
    used = {"blood_oath", "silk", "utter_determination"}
    assert offered(
        skills, out=True, silk=True, family="Mercenaries", rules=(HARDY,), used=used
    ) == ["utter_determination", "bellowing_roar", "rout_reroll"]


# How far a leader's Leadership reaches.


def test_a_leader_reaches_six_inches():
    assert play.leader_reach([{"name": "Leader", "text": "…"}], set()) == 6


def test_a_reikland_captain_reaches_twelve():
    """Reikland Mercenaries: the captain's Leadership reaches 12" (the list's rule)."""
    rules = [{"name": "Leader", "effect": "leader_range", "inches": 12}]
    assert play.leader_reach(rules, set()) == 12


def test_battle_tongue_reaches_twelve():
    """Norse Explorers, Battle Tongue: the leader's Leadership reaches 12"."""
    assert play.leader_reach([], {"battle_tongue", "strike_to_injure"}) == 12
    assert play.leader_reach([], {"strike_to_injure"}) == 6
