"""warbands/rules.py against FACTS.md and the campaigns text, with plain values."""

import pytest

from core.errors import RuleViolation
from warbands import rules
from warbands.rules import (
    Buyer,
    ListEntry,
    Profile,
    RatedWarrior,
    RosterEntry,
    WarbandLimits,
    WarriorKind,
)

HUMAN_MAX = Profile(M=4, WS=6, BS=6, S=4, T=4, W=3, I=6, A=4, Ld=9)


# --- Rating (campaigns text, Warband rating) -----------------------------------------------


@pytest.mark.parametrize(
    ("warriors", "expected"),
    [
        ([], 0),
        ([RatedWarrior(models=1, experience=20)], 25),  # a captain
        ([RatedWarrior(models=3, experience=2)], 21),  # 3 henchmen with 2 XP each
        ([RatedWarrior(models=1, experience=0, large=True)], 20),  # a Rat Ogre
        ([RatedWarrior(models=1, experience=3, large=True)], 23),
        (
            [
                RatedWarrior(models=1, experience=20),
                RatedWarrior(models=1, experience=8),
                RatedWarrior(models=5, experience=0),
            ],
            5 + 20 + 5 + 8 + 25,
        ),
    ],
)
def test_warband_rating_is_five_per_warrior_plus_experience(warriors, expected):
    assert rules.warband_rating(warriors) == expected


# --- Experience (FACTS.md section 2) -------------------------------------------------------


def test_hero_advance_thresholds_are_the_roster_sheets_thick_boxes():
    assert rules.HERO_ADVANCE_THRESHOLDS == (
        2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36, 41, 46, 51, 57, 63, 69, 76, 83, 90,
    )  # fmt: skip
    assert len(rules.HERO_ADVANCE_THRESHOLDS) == 21


def test_henchman_advance_thresholds():
    assert rules.HENCHMAN_ADVANCE_THRESHOLDS == (2, 5, 9, 14)


@pytest.mark.parametrize(
    ("old", "new", "is_hero", "expected"),
    [
        (0, 1, True, []),
        (0, 2, True, [2]),
        (1, 2, True, [2]),
        (2, 3, True, []),
        (20, 23, True, []),  # a captain's starting 20 XP gives no advance; the next is 24
        (20, 24, True, [24]),
        (7, 12, True, [8, 11]),  # several advances in one battle
        (89, 95, True, [90]),
        (90, 99, True, []),
        (0, 2, False, [2]),
        (2, 5, False, [5]),
        (4, 14, False, [5, 9, 14]),
        (14, 20, False, []),
        (8, 9, False, [9]),
        (10, 13, False, []),
    ],
)
def test_advances_earned_counts_thresholds_strictly_above_the_old_total(
    old, new, is_hero, expected
):
    assert rules.advances_earned(old, new, is_hero=is_hero) == expected


@pytest.mark.parametrize(
    ("experience", "is_hero", "expected"),
    [(0, True, 2), (20, True, 24), (8, True, 11), (89, True, 90), (90, True, None), (5, False, 9)],
)
def test_next_advance(experience, is_hero, expected):
    assert rules.next_advance(experience, is_hero=is_hero) == expected


def test_experience_track_marks_ticked_thick_and_starting_boxes():
    track = rules.experience_track(22, is_hero=True, starting_experience=20)

    assert len(track) == 90
    assert [box.number for box in track if box.thick] == list(rules.HERO_ADVANCE_THRESHOLDS)
    assert sum(box.ticked for box in track) == 22
    assert sum(box.starting for box in track) == 20
    assert not track[22].ticked and track[21].ticked


def test_henchman_track_has_fourteen_boxes():
    track = rules.experience_track(5, is_hero=False)

    assert len(track) == 14
    assert [box.number for box in track if box.thick] == [2, 5, 9, 14]


# --- Characteristics -----------------------------------------------------------------------


@pytest.mark.parametrize("characteristic", rules.CHARACTERISTICS)
def test_a_characteristic_below_its_maximum_rises_by_one(characteristic):
    current = Profile(M=3, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)

    raised = rules.raise_characteristic(current, characteristic, HUMAN_MAX)

    assert raised.get(characteristic) == current.get(characteristic) + 1
    for other in rules.CHARACTERISTICS:
        if other != characteristic:
            assert raised.get(other) == current.get(other)


@pytest.mark.parametrize("characteristic", rules.CHARACTERISTICS)
def test_a_characteristic_never_exceeds_the_racial_maximum(characteristic):
    at_maximum = HUMAN_MAX

    with pytest.raises(RuleViolation, match="racial maximum"):
        rules.raise_characteristic(at_maximum, characteristic, HUMAN_MAX)


@pytest.mark.parametrize(
    ("start", "current", "expected"),
    [(3, 3, 2), (3, 2, 1), (3, 1, 1), (1, 1, 1), (0, 0, 0), (4, 2, 1)],
)
def test_injuries_lower_a_characteristic_but_not_below_one(start, current, expected):
    starting = Profile(M=4, WS=3, BS=start, S=3, T=3, W=1, I=3, A=1, Ld=7)
    now = starting.with_value("BS", current)

    lowered = rules.lower_characteristic(now, "BS", starting)

    assert lowered.get("BS") == expected


# --- Hiring (FACTS.md section 7) -----------------------------------------------------------

LIMITS = WarbandLimits(max_warriors=15, min_warriors=3, max_heroes=6)
CAPTAIN = WarriorKind("captain", "Mercenary Captain", True, True, 60, 1, 1)
CHAMPION = WarriorKind("champion", "Champions", True, False, 35, 0, 2)
WARRIOR = WarriorKind("warrior", "Warriors", False, False, 25, 0, None, group_max=5)
MARKSMAN = WarriorKind("marksman", "Marksmen", False, False, 25, 0, 7, group_max=5)


def entry(kind: WarriorKind, models: int = 1) -> RosterEntry:
    return RosterEntry(kind.key, kind.is_hero, kind.is_leader, models)


def test_a_legal_hire_returns_its_cost():
    assert rules.check_hire(LIMITS, [], CAPTAIN, models=1, gold=500) == 60
    assert rules.check_hire(LIMITS, [entry(CAPTAIN)], WARRIOR, models=4, gold=500) == 100


@pytest.mark.parametrize(
    ("roster", "kind", "models", "gold", "reason"),
    [
        ([], CAPTAIN, 1, 59, "costs 60 gc but only 59 gc"),
        ([], WARRIOR, 5, 124, "costs 125 gc but only 124 gc"),
        ([entry(CAPTAIN)], CAPTAIN, 1, 500, "at most 1 Mercenary Captain"),
        ([entry(CHAMPION), entry(CHAMPION)], CHAMPION, 1, 500, "at most 2 Champions"),
        ([entry(MARKSMAN, 5)], MARKSMAN, 3, 500, "at most 7 Marksmen"),
        ([], WARRIOR, 6, 500, "groups of 1 to 5"),
        ([], WARRIOR, 0, 500, "groups of 1 to 5"),
        ([], CHAMPION, 2, 500, "one at a time"),
        ([entry(WARRIOR, 5)] * 3, WARRIOR, 1, 500, "at most 15 warriors"),
    ],
)
def test_illegal_hires_are_refused_with_the_reason(roster, kind, models, gold, reason):
    with pytest.raises(RuleViolation, match=reason):
        rules.check_hire(LIMITS, roster, kind, models=models, gold=gold)


def test_a_second_leader_is_refused_even_of_another_type():
    other_leader = WarriorKind("priest", "Priest", True, True, 40, 0, 5)

    with pytest.raises(RuleViolation, match="one leader"):
        rules.check_hire(LIMITS, [entry(CAPTAIN)], other_leader, models=1, gold=500)


def test_more_than_the_maximum_heroes_is_refused():
    hero = WarriorKind("hero", "Heroes", True, False, 10, 0, None)
    six = [entry(CAPTAIN)] + [entry(hero)] * 5

    with pytest.raises(RuleViolation, match="at most 6 heroes"):
        rules.check_hire(LIMITS, six, hero, models=1, gold=500)


def test_gold_none_checks_limits_only():
    assert rules.check_hire(LIMITS, [], CAPTAIN, models=1, gold=None) == 60


def test_muster_problems_name_what_is_missing():
    problems = rules.muster_problems(
        LIMITS, [entry(WARRIOR, 2)], [CAPTAIN, WARRIOR], missing_required=["X lacks a mutation."]
    )

    assert [p.message for p in problems] == [
        "The warband has no leader yet.",
        "A warband needs at least 3 warriors (it has 2).",
        "X lacks a mutation.",
    ]
    assert rules.muster_problems(LIMITS, [entry(CAPTAIN), entry(WARRIOR, 2)], [CAPTAIN]) == []


def test_a_type_with_a_minimum_must_be_included():
    required = WarriorKind("priest", "Warrior-Priest", True, False, 40, 1, 1)

    problems = rules.muster_problems(LIMITS, [entry(CAPTAIN), entry(WARRIOR, 3)], [required])

    assert [p.message for p in problems] == ["The warband must include 1 Warrior-Priest."]


# --- Equipment -----------------------------------------------------------------------------

DAGGER = ListEntry("dagger", "Dagger", "hand_to_hand", 2, first_free=True)
SWORD = ListEntry("sword", "Sword", "hand_to_hand", 10)
WOLFCLOAK = ListEntry("wolfcloak", "Wolfcloak", "misc", 10, heroes_only=True)
CLAW = ListEntry(
    "great_claw", "Great Claw", "mutation", 50, recruitment_only=True, repeat_price_multiplier=2
)
LIST = [DAGGER, SWORD, WOLFCLOAK, CLAW]


def buyer(**kwargs) -> Buyer:
    defaults = {"name": "Otto", "is_hero": True, "models": 1}
    return Buyer(**{**defaults, **kwargs})


def test_the_first_dagger_is_free_and_the_second_costs_two():
    founding = {"founding": True}
    assert rules.check_purchase(LIST, "dagger", buyer(**founding), models=1, gold=0)[1] == 0
    second = buyer(owned_item_keys=("dagger",), **founding)
    assert rules.check_purchase(LIST, "dagger", second, models=1, gold=5)[1] == 2


def test_after_the_founding_even_a_first_dagger_costs_two():
    """The free dagger comes with the hire: one bought later is paid for, or selling it for
    1 gc and buying it again for nothing would mint gold."""
    assert rules.check_purchase(LIST, "dagger", buyer(), models=1, gold=5)[1] == 2
    group = buyer(is_hero=False, models=3)
    assert rules.check_purchase(LIST, "dagger", group, models=3, gold=6)[1] == 6


def test_a_henchman_group_pays_for_every_model():
    group = buyer(is_hero=False, models=4)

    assert rules.check_purchase(LIST, "sword", group, models=4, gold=40)[1] == 40


def test_second_and_later_mutations_cost_double():
    first = rules.check_purchase(LIST, "great_claw", buyer(), models=1, gold=500)[1]
    second = rules.check_purchase(
        LIST, "great_claw", buyer(owned_categories=("mutation",)), models=1, gold=500
    )[1]

    assert (first, second) == (50, 100)


@pytest.mark.parametrize(
    ("item", "who", "models", "gold", "reason"),
    [
        ("handgun", buyer(), 1, 500, "not on Otto's equipment list"),
        ("wolfcloak", buyer(is_hero=False, models=2), 2, 500, "for heroes only"),
        ("great_claw", buyer(being_recruited=False), 1, 500, "only be bought when"),
        ("sword", buyer(is_hero=False, models=3), 1, 500, "equipped alike"),
        ("sword", buyer(), 1, 9, "costs 10 gc but only 9 gc"),
        ("sword", buyer(is_hero=False, models=3), 3, 29, "costs 30 gc but only 29 gc"),
    ],
)
def test_illegal_purchases_are_refused_with_the_reason(item, who, models, gold, reason):
    with pytest.raises(RuleViolation, match=reason):
        rules.check_purchase(LIST, item, who, models=models, gold=gold)
