"""Underdog bonus and advance tables, entry by entry, with scripted dice (FACTS.md 1-3)."""

import pytest

from battles.rules.experience import (
    TALENT_KILLED,
    HenchmanContext,
    HeroContext,
    advances_due,
    effects_of,
    henchman_advance,
    hero_advance,
    talent_lists,
    underdog_bonus,
)
from battles.rules.tasks import NeedsAnswer
from core.dice import ScriptedDice
from warbands.rules.roster import Profile

HUMAN_MAX = Profile(M=4, WS=6, BS=6, S=4, T=4, W=3, I=6, A=4, Ld=9)
CHAMPION = Profile(M=4, WS=4, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)
SKILLS = {"Combat": [("strike_to_injure", "Strike to Injure"), ("step_aside", "Step Aside")]}


# --- Underdogs (FACTS.md section 1) --------------------------------------------------------


@pytest.mark.parametrize(
    ("difference", "bonus"),
    [(-20, 0), (0, 0), (50, 0), (51, 1), (75, 1), (76, 2), (100, 2), (101, 3), (150, 3),
     (151, 4), (300, 4), (301, 5), (900, 5)],
)  # fmt: skip
def test_underdog_bonus_bands(difference, bonus):
    assert underdog_bonus(100, [100 + difference]) == bonus


def test_the_difference_is_to_the_highest_rated_opponent():
    assert underdog_bonus(100, [120, 260, 90]) == 4
    assert underdog_bonus(100, []) == 0


# --- Hero advances (FACTS.md section 3) ----------------------------------------------------


def hero(current=CHAMPION, maximum=HUMAN_MAX, **kwargs):
    return HeroContext(name="Otto", current=current, maximum=maximum, skills=SKILLS, **kwargs)


def advance(faces, context=None, answers=None):
    dice = ScriptedDice(faces)
    result = hero_advance(dice, context=context or hero(), answers=answers or {})
    assert dice.remaining == ()
    return result


@pytest.mark.parametrize("dice", [[1, 1], [2, 3], [1, 4], [4, 6], [5, 6], [6, 6]])
def test_2_to_5_and_10_to_12_give_a_new_skill_from_his_lists(dice):
    with pytest.raises(NeedsAnswer) as question:
        advance(dice)
    assert question.value.question.options == (
        ("strike_to_injure", "Strike to Injure (Combat)"),
        ("step_aside", "Step Aside (Combat)"),
    )
    result = advance(dice, answers={"skill": "step_aside"})
    assert (result.kind, result.skill) == ("skill", "step_aside")


def test_a_skill_he_knows_is_not_offered_again():
    with pytest.raises(NeedsAnswer) as question:
        advance([1, 1], hero(known_skills=frozenset({"step_aside"})))
    assert question.value.question.options == (("strike_to_injure", "Strike to Injure (Combat)"),)


@pytest.mark.parametrize(
    ("dice", "characteristic"),
    [
        ([3, 3, 1], "S"), ([3, 3, 3], "S"), ([3, 3, 4], "A"), ([3, 3, 6], "A"),
        ([4, 4, 2], "I"), ([4, 4, 5], "Ld"),
        ([4, 5, 3], "W"), ([4, 5, 4], "T"),
    ],
)  # fmt: skip
def test_6_8_and_9_roll_a_d6_for_the_characteristic(dice, characteristic):
    result = advance(dice)

    assert (result.kind, result.characteristic) == ("characteristic", characteristic)


def test_7_lets_the_player_choose_ws_or_bs():
    with pytest.raises(NeedsAnswer) as question:
        advance([3, 4])
    assert [value for value, _ in question.value.question.options] == ["WS", "BS"]
    assert advance([3, 4], answers={"ws_or_bs": "BS"}).characteristic == "BS"


def test_a_characteristic_at_its_maximum_gives_the_other_of_its_pair():
    strong = CHAMPION.with_value("S", 4)

    assert advance([3, 3, 2], hero(current=strong)).characteristic == "A"


def test_7_offers_only_the_skill_not_at_its_maximum():
    sharp = CHAMPION.with_value("WS", 6)

    with pytest.raises(NeedsAnswer) as question:
        advance([3, 4], hero(current=sharp))
    assert [value for value, _ in question.value.question.options] == ["BS"]


def test_both_at_maximum_lets_the_player_raise_any_other():
    capped = CHAMPION.with_value("S", 4).with_value("A", 4)

    with pytest.raises(NeedsAnswer) as question:
        advance([3, 3, 5], hero(current=capped))
    options = [value for value, _ in question.value.question.options]
    assert "S" not in options and "A" not in options and "M" not in options  # M 4 is at max
    assert (
        advance([3, 3, 5], hero(current=capped), {"free_characteristic": "I"}).characteristic == "I"
    )


def test_a_wizard_may_roll_a_spell_instead_and_known_spells_are_rolled_again():
    wizard = hero(is_wizard=True, known_spell_rolls=frozenset({2}))

    result = advance([1, 1, 2, 5], wizard, {"skill_or_spell": "spell"})

    assert (result.kind, result.spell_roll) == ("spell", 5)


def test_a_leaders_successor_may_learn_magic_instead_of_rolling():
    successor = hero(learns_magic_first=True)

    with pytest.raises(NeedsAnswer):
        advance([], successor)
    assert advance([4], successor, {"successor_magic": "spell"}).spell_roll == 4
    assert advance([3, 3, 1], successor, {"successor_magic": "advance"}).characteristic == "S"


# --- Henchman advances ---------------------------------------------------------------------

WARRIOR = Profile(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)


def group(current=WARRIOR, heroes=3, **kwargs):
    return HenchmanContext(
        name="Guards", starting=WARRIOR, current=current, maximum=HUMAN_MAX, heroes=heroes,
        max_heroes=6, **kwargs,
    )  # fmt: skip


def henchman(faces, context=None, answers=None):
    dice = ScriptedDice(faces)
    result = henchman_advance(dice, context=context or group(), answers=answers or {})
    assert dice.remaining == ()
    return result


@pytest.mark.parametrize(
    ("faces", "characteristic"),
    [([1, 1], "I"), ([1, 3], "I"), ([2, 3], "S"), ([4, 4], "A"), ([4, 5], "Ld")],
)
def test_henchman_table(faces, characteristic):
    assert henchman(faces).characteristic == characteristic


@pytest.mark.parametrize("faces", [[3, 3], [3, 4]])
def test_6_or_7_lets_the_player_choose_bs_or_ws(faces):
    assert henchman(faces, answers={"bs_or_ws": "WS"}).characteristic == "WS"


@pytest.mark.parametrize("faces", [[4, 6], [5, 6], [6, 6]])
def test_10_to_12_is_the_lads_got_talent(faces):
    assert henchman(faces).kind == "lads_talent"


def test_a_raised_characteristic_is_rolled_again():
    once = WARRIOR.with_value("A", 2)

    result = henchman([4, 4, 2, 3], group(current=once))

    assert result.characteristic == "S"
    assert result.rolls == (8, 5)


def test_6_or_7_with_both_raised_is_rolled_again():
    raised = WARRIOR.with_value("WS", 4).with_value("BS", 4)

    assert henchman([3, 3, 1, 1], group(current=raised)).characteristic == "I"


def test_the_lads_talent_is_rolled_again_with_six_heroes_or_after_the_talent():
    assert henchman([6, 6, 2, 3], group(heroes=6)).characteristic == "S"
    assert henchman([5, 5, 4, 5], group(talent_allowed=False)).characteristic == "Ld"


# --- Warband special rules (reference/warbands-core-and-grade-1a.md) ----------------------


def test_effects_are_read_from_the_special_rules():
    rules = [
        {"name": "Animal", "text": "…"},
        {"name": "Slow Witted", "effect": "half_rate_advances"},
    ]

    assert set(effects_of(rules)) == {"half_rate_advances"}


def test_lowest_of_the_low_rolls_the_lads_talent_again():
    """Ungor and Minotaurs never become heroes: 11 is rolled again, 8 gives +1 Attack."""
    advance = henchman([5, 6, 4, 4], group(talent="reroll"))

    assert (advance.kind, advance.characteristic) == ("characteristic", "A")
    assert advance.rolls == (11, 8)


def test_a_goblin_who_rolls_the_lads_talent_is_killed():
    """Runts: the mouthy Goblin is removed instead of promoted, even with room for a hero."""
    advance = henchman([6, 5], group(talent="kills"))

    assert advance.kind == TALENT_KILLED


@pytest.mark.parametrize(
    ("old", "new", "due"), [(0, 2, []), (0, 4, [4]), (3, 10, [4, 10]), (4, 9, []), (17, 18, [18])]
)
def test_an_ogre_advances_at_half_rate(old, new, due):
    """Slow Witted: each thick box of the henchman track (2, 5, 9, 14) needs twice as much."""
    assert advances_due(old, new, is_hero=False, half_rate=True) == due


def test_at_full_rate_the_boxes_are_the_tracks():
    assert advances_due(0, 5, is_hero=False) == [2, 5]


LISTS = [("combat", "Combat"), ("shooting", "Shooting"), ("strength", "Strength")]


def test_a_promoted_ogre_picks_only_combat_and_strength():
    rule = {"effect": "talent_skill_lists", "lists": ["combat", "strength"]}

    assert talent_lists(LISTS, rule) == [("combat", "Combat"), ("strength", "Strength")]


def test_a_promoted_halfling_may_not_pick_strength():
    rule = {"effect": "talent_skill_lists", "not_lists": ["strength"]}

    assert talent_lists(LISTS, rule) == [("combat", "Combat"), ("shooting", "Shooting")]
    assert talent_lists(LISTS, None) == LISTS
