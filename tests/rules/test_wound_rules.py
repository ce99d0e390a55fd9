"""Wounds and injuries (``battles.rules.wounds``) entry by entry with scripted dice: the injury
chart (1-2 knocked down, 3-4 stunned, 5-6 out of action), wounds lost one at a time, a roll
for the wound that leaves none and for each after it, the worst result standing."""

import pytest

from battles.rules import wounds
from battles.rules.play import HIDDEN, KNOCKED_DOWN, OUT_OF_ACTION, STANDING, STUNNED
from core.dice import ScriptedDice


@pytest.mark.parametrize(
    ("face", "state"),
    [(1, KNOCKED_DOWN), (2, KNOCKED_DOWN), (3, STUNNED), (4, STUNNED), (5, OUT_OF_ACTION),
     (6, OUT_OF_ACTION)],
)  # fmt: skip
def test_the_injury_chart(face, state):
    assert wounds.INJURY_CHART[face] == state
    taken = wounds.take(ScriptedDice([face]), 1, wounds=1, lost=0, state=STANDING, who="X")
    assert (taken.lost, taken.injuries, taken.state) == (1, (face,), state)


@pytest.mark.parametrize(("lost", "left"), [(0, 3), (1, 2)])
def test_a_wound_with_more_left_rolls_nothing(lost, left):
    dice = ScriptedDice([6])
    taken = wounds.take(dice, 1, wounds=3, lost=lost, state=HIDDEN, who="X")
    assert (taken.lost, taken.injuries, taken.state) == (lost + 1, (), HIDDEN)
    assert dice.remaining == (6,)


def test_the_wound_that_leaves_none_and_each_after_roll_and_the_worst_stands():
    taken = wounds.take(ScriptedDice([3, 1]), 3, wounds=2, lost=0, state=STANDING, who="X")
    assert (taken.lost, taken.injuries, taken.state) == (2, (3, 1), STUNNED)


@pytest.mark.parametrize(
    ("state", "face", "after"),
    [(KNOCKED_DOWN, 1, KNOCKED_DOWN), (STUNNED, 2, STUNNED), (KNOCKED_DOWN, 3, STUNNED),
     (STUNNED, 6, OUT_OF_ACTION), (HIDDEN, 1, KNOCKED_DOWN)],
)  # fmt: skip
def test_a_milder_roll_never_makes_him_better(state, face, after):
    taken = wounds.take(ScriptedDice([face]), 1, wounds=2, lost=2, state=state, who="X")
    assert taken.state == after


def test_a_profile_of_no_wounds_counts_as_one():
    taken = wounds.take(ScriptedDice([2]), 1, wounds=0, lost=0, state=STANDING, who="X")
    assert (taken.lost, taken.state) == (1, KNOCKED_DOWN)


def test_each_injury_roll_is_named_for_the_dice_log():
    purposes = []
    dice = ScriptedDice([1, 2], recorder=lambda roll: purposes.append(roll.purpose))
    wounds.take(dice, 2, wounds=1, lost=0, state=STANDING, who="Ogre")
    assert purposes == ["Injury: Ogre", "Injury: Ogre"]


# The wound chart, row by row (Strength 1-10 against Toughness 1-10; None: no chance).
N = None
CHART = {
    1: (4, 5, 6, 6, N, N, N, N, N, N),
    2: (3, 4, 5, 6, 6, N, N, N, N, N),
    3: (2, 3, 4, 5, 6, 6, N, N, N, N),
    4: (2, 2, 3, 4, 5, 6, 6, N, N, N),
    5: (2, 2, 2, 3, 4, 5, 6, 6, N, N),
    6: (2, 2, 2, 2, 3, 4, 5, 6, 6, N),
    7: (2, 2, 2, 2, 2, 3, 4, 5, 6, 6),
    8: (2, 2, 2, 2, 2, 2, 3, 4, 5, 6),
    9: (2, 2, 2, 2, 2, 2, 2, 3, 4, 5),
    10: (2, 2, 2, 2, 2, 2, 2, 2, 3, 4),
}


@pytest.mark.parametrize("strength", range(1, 11))
@pytest.mark.parametrize("toughness", range(1, 11))
def test_the_wound_chart(strength, toughness):
    assert wounds.to_wound(strength, toughness) == CHART[strength][toughness - 1]


@pytest.mark.parametrize(
    ("faces", "hits", "rolls", "wounded"),
    [([1, 4], 1, (4,), 1), ([2, 3], 1, (3,), 0), ([3, 4, 1], 2, (4, 1), 1),
     ([6, 6, 5, 4], 3, (6, 5, 4), 3)],
)  # fmt: skip
def test_a_fall_rolls_each_hit_to_wound(faces, hits, rolls, wounded):
    """A 3" fall on T3: Strength 3, each hit wounds on 4+."""
    dice = ScriptedDice(faces)
    fell = wounds.fall(dice, 3, 3, "X")
    assert (fell.hits, fell.strength, fell.needs, fell.rolls, fell.wounds) == (hits, 3, 4, rolls,
                                                                              wounded)  # fmt: skip
    assert dice.remaining == ()


def test_a_fall_that_cannot_wound_rolls_only_its_hits():
    dice = ScriptedDice([6, 6])
    fell = wounds.fall(dice, 2, 6, "X")
    assert (fell.hits, fell.needs, fell.rolls, fell.wounds) == (3, None, (), 0)
    assert dice.remaining == (6,)


def test_a_fall_over_ten_inches_strikes_at_strength_ten():
    fell = wounds.fall(ScriptedDice([1, 3]), 12, 10, "X")
    assert (fell.strength, fell.needs, fell.wounds) == (10, 4, 0)
