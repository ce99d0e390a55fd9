"""``core.dice.StagedDice``: a roll's typed dice, then a group per further roll asked for, each
exactly the dice that roll takes; an empty group leaves the rest to the live dice."""

import pytest

from core.dice import DiceError, MoreDice, Need, ScriptedDice, StagedDice


def test_the_first_dice_then_each_further_roll_from_its_own_group():
    dice = StagedDice([4], [[5], [2, 3]], live=ScriptedDice([]))

    assert dice.roll(1, 6, "first").faces == (4,)
    assert dice.roll(1, 6, "roll-off: A").faces == (5,)
    assert dice.roll(2, 6, "again").faces == (2, 3)
    assert dice.left_over == 0
    with pytest.raises(MoreDice) as asked:
        dice.roll(1, 6, "roll-off: B")
    assert (asked.value.n, asked.value.sides, asked.value.purpose) == (1, 6, "roll-off: B")


def test_a_group_of_another_count_is_refused_with_the_count():
    dice = StagedDice([4], [[5, 6]], live=ScriptedDice([]))
    dice.roll(1, 6, "first")

    with pytest.raises(DiceError, match=r"Roll-off: A needs 1 die \(D6\); you typed 2\."):
        dice.roll(1, 6, "roll-off: A")


def test_an_empty_group_leaves_that_roll_and_every_later_one_to_the_live_dice():
    dice = StagedDice([4], [[]], live=ScriptedDice([3, 2]))
    dice.roll(1, 6, "first")

    assert dice.roll(1, 6, "roll-off: A").source == "scripted"
    assert dice.roll(1, 6, "roll-off: B").faces == (2,)


def test_groups_no_roll_used_are_left_over():
    dice = StagedDice([4], [[5]], live=ScriptedDice([]))
    dice.roll(1, 6, "first")

    assert dice.left_over == 1


def test_a_need_labels_its_field_and_checks_the_count():
    need = Need(2, "one D6 per warband: A, B")

    assert need.label == "Type 2 dice (one D6 per warband: A, B), e.g. 4 1"
    assert need.check([45], "The roll-off") == [4, 5]
    with pytest.raises(DiceError, match=r"The roll-off needs 2 dice .*; you typed 3\."):
        need.check([4, 5, 6], "The roll-off")
    with pytest.raises(DiceError, match=r"takes no dice now \(none\); you typed 1"):
        Need(0, note="none").check([4], "The roll-off")
