"""Falls in the battle helper (core rules, falling): D3 hits at the Strength of the height in
inches, no armour save, each rolled to wound against the model's Toughness on the wound chart;
the wounds are lost one at a time and the last rolls on the injury chart. The helper rolls it
all with its dice (or the faces typed, in that order), applies it and logs it."""

import pytest

from battles.helper import checks, moves, wounds
from battles.models import DiceRoll, Fighter, GameEvent
from battles.rules import play
from core.dice import DiceError
from core.errors import RuleViolation
from tests.helpers import game_of, warriors
from warbands.models import Warrior

pytestmark = pytest.mark.django_db


def fighter(battle, warrior, number=1) -> Fighter:
    return Fighter.objects.get(game__battle=battle, warrior=warrior, number=number)


def test_a_failed_jump_down_falls_and_its_hits_are_rolled_to_wound(duel):
    """Captain Adler (T 3, W 1) fails a 5" jump: a 4 for the D3 is 2 hits at S5, which wound
    T3 on 2+; a 6 wounds, a 1 does not; his one wound lost, a 5 on the injury chart."""
    battle = game_of(duel)
    reavers = duel["reavers"].owner
    captain = warriors(duel["reavers"])[0]
    adler = fighter(battle, captain)
    checks.initiative_test(battle.pk, adler.pk, "jump_down", height=5, entered="1 6",
                           actor=reavers)  # fmt: skip
    with pytest.raises(RuleViolation, match="fall"):
        moves.next_phase(battle.pk, actor=reavers)

    result = wounds.fall(battle.pk, adler.pk, entered="4 6 1 5", actor=reavers)

    assert (result.hits, result.strength, result.needs, result.rolls, result.wounds) == (
        2, 5, 2, (6, 1), 1)  # fmt: skip
    adler.refresh_from_db()
    assert (adler.state, adler.cause, adler.fall_height, adler.fell) == (
        play.OUT_OF_ACTION, "fall", 0, True)  # fmt: skip
    line = GameEvent.objects.filter(game__battle=battle).latest("pk").text
    assert line == (
        'Captain Adler falls 5": 2 hits at Strength 5, no armour save; to wound T3 on 2+: 6, 1, '
        "1 wound; injury roll 5, out of action (a fall). He may not move further or hide this "
        "turn."
    )
    rolls = list(DiceRoll.objects.filter(battle=battle).order_by("pk")
                 .values_list("purpose", "faces"))[2:]  # fmt: skip
    assert rolls == [
        ('A fall of 5": Captain Adler, D3 hits', [4]),
        ('A fall of 5": Captain Adler, to wound (hit 1)', [6]),
        ('A fall of 5": Captain Adler, to wound (hit 2)', [1]),
        ("Injury: Captain Adler", [5]),
    ]
    moves.next_phase(battle.pk, actor=reavers)


def test_a_model_of_several_wounds_loses_them_and_stands(duel):
    captain = warriors(duel["reavers"])[0]
    Warrior.objects.filter(pk=captain.pk).update(W=3)
    battle = game_of(duel)
    adler = fighter(battle, captain)

    result = wounds.fall(battle.pk, adler.pk, height=4, entered="6 3 2 5",
                         actor=duel["reavers"].owner)  # fmt: skip

    assert (result.hits, result.needs, result.wounds) == (3, 3, 2)  # S4 against T3: 3+
    adler.refresh_from_db()
    assert (adler.state, adler.wounds_left, adler.fell) == (play.STANDING, 1, True)
    with pytest.raises(RuleViolation, match="cannot hide"):
        moves.set_state(battle.pk, adler.pk, play.HIDDEN, actor=duel["reavers"].owner)


def test_a_fall_too_weak_to_wound_rolls_only_its_hits(duel):
    """A 1" fall is Strength 1: against Toughness 5 the wound chart leaves no chance."""
    captain = warriors(duel["reavers"])[0]
    Warrior.objects.filter(pk=captain.pk).update(T=5)
    battle = game_of(duel)
    adler = fighter(battle, captain)

    result = wounds.fall(battle.pk, adler.pk, height=1, entered="6",
                         actor=duel["reavers"].owner)  # fmt: skip

    assert (result.hits, result.needs, result.rolls, result.wounds) == (3, None, (), 0)
    assert fighter(battle, captain).state == play.STANDING
    assert "cannot wound T5" in GameEvent.objects.filter(game__battle=battle).latest("pk").text


def test_a_fall_asks_its_height_and_leaves_nothing_changed_on_too_few_dice(duel):
    battle = game_of(duel)
    reavers = duel["reavers"].owner
    adler = fighter(battle, warriors(duel["reavers"])[0])
    with pytest.raises(RuleViolation, match="height"):
        wounds.fall(battle.pk, adler.pk, entered="4", actor=reavers)
    with pytest.raises(DiceError, match="no typed dice are left"):
        wounds.fall(battle.pk, adler.pk, height=3, entered="4", actor=reavers)
    assert not DiceRoll.objects.filter(battle=battle).exists()
    assert fighter(battle, adler.warrior).fell is False
