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
