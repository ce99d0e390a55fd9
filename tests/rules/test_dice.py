import pytest

from core.dice import (
    DiceError,
    EnteredDice,
    ScriptedDice,
    ServerDice,
    d3,
    d6,
    d66,
    two_d6,
)


def test_scripted_dice_give_their_faces_in_order():
    dice = ScriptedDice([3, 5, 1, 6, 2])

    assert d6(dice) == 3
    assert two_d6(dice) == 6
    assert d66(dice) == 62
    assert dice.remaining == ()


@pytest.mark.parametrize(("face", "expected"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_a_d3_is_a_d6_halved_rounding_up(face, expected):
    assert d3(ScriptedDice([face])) == expected


@pytest.mark.parametrize("face", [0, 7, -1])
def test_entered_dice_refuse_impossible_faces(face):
    with pytest.raises(DiceError, match="not a possible roll"):
        d6(EnteredDice([face]))


def test_running_out_of_entered_dice_says_how_many_the_roll_takes():
    with pytest.raises(DiceError, match="Advance takes 2 D6; only 1 typed die is left for it"):
        two_d6(EnteredDice([3]), "advance")
    with pytest.raises(DiceError, match="A roll takes a D6; no typed dice are left for it"):
        d6(EnteredDice([]))


@pytest.mark.parametrize("typed", [[41], [4, 1]])
def test_a_d66_takes_41_typed_as_one_number_or_two(typed):
    dice = EnteredDice(typed)

    assert d66(dice) == 41
    assert (dice.used, dice.remaining) == (2, ())


def test_a_number_of_digits_is_split_only_into_the_dice_a_roll_takes():
    dice = EnteredDice([124, 5])

    assert dice.roll(3, 6).faces == (1, 2, 4)  # three dice typed as one number
    with pytest.raises(DiceError, match="not a possible roll of a D6"):
        EnteredDice([41]).roll(1, 6)  # one die: 41 is no face of a D6
    assert EnteredDice([12]).roll(1, 20).faces == (12,)  # a D20 shows two digits
    assert dice.remaining == (5,)


def test_server_dice_report_every_roll_to_the_recorder():
    rolls = []
    dice = ServerDice(recorder=rolls.append)

    results = [dice.roll(2, 6, "exploration") for _ in range(200)]

    assert rolls == results
    faces = [face for roll in results for face in roll.faces]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(roll.source == "server" and roll.purpose == "exploration" for roll in results)


def test_a_roll_describes_itself():
    assert ScriptedDice([4, 2]).roll(2, 6).describe() == "2D6 4+2 = 6"
    assert ScriptedDice([5]).roll(1, 6).describe() == "D6 5"
