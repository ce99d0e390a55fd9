"""Wounds on the table (``battles.rules.wounds``): a player's model loses a wound at a time
and fights on while he has one left; the wound that leaves him none, and each after it, rolls
on the injury chart with the helper's dice (the server's, or the faces typed), the worst
result applying. A wound that rolls nothing is undone like a tap; an injury roll, like every
roll, stands. A fall (after a failed Initiative test, or any other, of a height the player
gives) rolls its hits, each hit's roll to wound and the injuries they lead to, at once."""

from __future__ import annotations

from django.db import transaction

from battles.dice import check_used, holding_rolls
from battles.helper.common import (
    changed_fighter,
    dice,
    enemy_taking_out,
    fighter_of,
    locked,
    log,
)
from battles.models import Fighter, Game, GameEvent
from battles.rules import play
from battles.rules import wounds as rules
from core.errors import RuleViolation
from core.words import possessive

MOST_FALLEN = 30  # inches: as the Initiative tests' heights (``battles.rules.play``)


def check_cause(game: Game, fighter: Fighter, cause: str, by_id: int | None) -> None:
    """What would take him out of action, asked before his injury roll is made."""
    if cause not in Fighter.Cause.values:
        raise RuleViolation(
            f"Say what wounded {fighter.name}: his injury roll may take him out of action."
        )
    if cause == "enemy":
        enemy_taking_out(game, fighter, by_id)


def injured(game: Game, fighter: Fighter, wounded: rules.Wounded, *, cause: str, by_id) -> str:
    """Apply ``wounded`` to ``fighter`` (unsaved); what his injury rolls did, for the log."""
    old = fighter.state
    fighter.wounds_lost, fighter.state = wounded.lost, wounded.state
    if not wounded.injuries:
        return ""
    rolls = ", ".join(str(r) for r in wounded.injuries)
    said = f"injury roll{'s' if len(wounded.injuries) > 1 else ''} {rolls}"
    if fighter.state == old:
        return f"{said}, stays {play.STATES[old].lower()}"
    fighter.may_stand = False
    if fighter.state != play.OUT_OF_ACTION:
        return f"{said}, {play.STATES[fighter.state].lower()}"
    fighter.cause, fighter.taken_out_turn = cause, game.turn
    fighter.taken_out_by_id = by_id if cause == "enemy" else None
    if cause != "enemy":
        return f"{said}, out of action ({fighter.get_cause_display()})"
    by = fighter.taken_out_by
    return f"{said}, out of action, taken out by {by.name} of {by.warband.name}"


@transaction.atomic
def wound(
    battle_id: int, fighter_id: int, *, cause: str = "", by_id: int | None = None,
    entered: str = "", actor,
) -> Fighter:  # fmt: skip
    """One wound to one of the player's models. With more than one wound left he only loses
    it; otherwise he rolls on the injury chart, and ``cause`` (and ``by_id``, the enemy
    warrior) says what takes him out of action if it comes to that."""
    game = locked(battle_id, actor)
    fighter = fighter_of(game, fighter_id, actor)
    name = fighter.name
    if fighter.is_out:
        raise RuleViolation(f"{name} is out of action already.")
    if fighter.fall_height:
        raise RuleViolation(f"Roll {possessive(name)} fall first.")
    before, old, left = fighter.snapshot(), fighter.state, fighter.wounds_left
    if left > 1:
        fighter.wounds_lost += 1
        fighter.save()
        log(game, f"{name} loses a wound: {fighter.wounds_left} of {fighter.wounds} left.",
            kind=GameEvent.Kind.STATE, actor=actor, fighter=fighter, before=before)  # fmt: skip
        changed_fighter(game, fighter, old)
        return fighter
    check_cause(game, fighter, cause, by_id)
    rolled, held = dice(game, entered, fighter.side, actor), []
    with holding_rolls(held):
        wounded = rules.take(rolled, 1, wounds=fighter.wounds, lost=fighter.wounds_lost,
                             state=fighter.state, who=name)  # fmt: skip
    check_used(rolled, "The injury roll (one D6)")
    what = injured(game, fighter, wounded, cause=cause, by_id=by_id)
    fighter.save()
    if left == 1:
        text = f"{name} loses his last wound: {what}."
    else:
        text = f"{name}, wounded with no wounds left: {what}."
    log(game, text, kind=GameEvent.Kind.TEST, actor=actor, fighter=fighter, rolls=held)
    changed_fighter(game, fighter, old, dice=True)
    return fighter


def _fall_height(fighter: Fighter, height: int | None) -> int:
    """The height of his fall: that of the test he failed, or the one given."""
    if fighter.fall_height:
        if height and height != fighter.fall_height:
            raise RuleViolation(
                f'{fighter.name} falls {fighter.fall_height}" from the test he failed.'
            )
        return fighter.fall_height
    if not height or not 1 <= height <= MOST_FALLEN:
        raise RuleViolation(f"Give the height of {possessive(fighter.name)} fall in inches.")
    return height


@transaction.atomic
def fall(battle_id: int, fighter_id: int, *, height: int | None = None, entered: str = "",
         actor) -> rules.Fall:  # fmt: skip
    """One of the player's models falls: the one a failed test left to roll, or one of
    ``height`` inches. Typed dice are taken in order: the D6 for the D3 hits, one per hit to
    wound, then the injury rolls. He may not move further or hide this turn."""
    game = locked(battle_id, actor)
    fighter = fighter_of(game, fighter_id, actor)
    name = fighter.name
    if fighter.is_out:
        raise RuleViolation(f"{name} is out of action already.")
    height = _fall_height(fighter, height)
    old = fighter.state
    rolled, held = dice(game, entered, fighter.side, actor), []
    with holding_rolls(held):
        fell = rules.fall(rolled, height, fighter.warrior.T, name)
        wounded = rules.take(
            rolled, fell.wounds, wounds=fighter.wounds, lost=fighter.wounds_lost,
            state=play.STANDING if old == play.HIDDEN else old, who=name,  # seen as he falls
        )  # fmt: skip
    check_used(rolled, "The fall (a D6 for the D3 hits, one per hit to wound, then injuries)")
    fighter.fall_height, fighter.fell = 0, True
    what = injured(game, fighter, wounded, cause="fall", by_id=None)
    fighter.save()
    log(game, _fall_text(name, height, fell, fighter.warrior.T, what), kind=GameEvent.Kind.TEST,
        actor=actor, fighter=fighter, rolls=held)  # fmt: skip
    changed_fighter(game, fighter, old, dice=True)
    return fell


def _fall_text(name: str, height: int, fell: rules.Fall, toughness: int, what: str) -> str:
    hits = f"{fell.hits} hit{'s' if fell.hits > 1 else ''}"
    text = f'{name} falls {height}": {hits} at Strength {fell.strength}, no armour save; '
    if fell.needs is None:
        text += f"Strength {fell.strength} cannot wound T{toughness}"
    else:
        rolls = ", ".join(str(r) for r in fell.rolls)
        count = f"{fell.wounds or 'no'} wound{'s' if fell.wounds != 1 else ''}"
        text += f"to wound T{toughness} on {fell.needs}+: {rolls}, {count}"
    if what:
        text += f"; {what}"
    return text + ". He may not move further or hide this turn."
