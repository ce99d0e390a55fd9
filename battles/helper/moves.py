"""States and deeds on the table: a player's own warriors knocked down, stunned, fleeing,
hidden, standing up or out of action (and by whom); running and charging; loot picked up;
notes; the turn sequence moving on; undoing one's own latest change.

The turn sequence (core rules, the turn): recovery, movement, shooting, hand-to-hand, then the
next warband's turn. As a warband's turn begins, what its warriors did last turn is forgotten,
its stunned warriors become knocked down and those already knocked down may stand up in its
recovery phase (``battles.helper.turns``)."""

from __future__ import annotations

from django.db import transaction

from battles.helper.animosity import animosity_due, may_be_due
from battles.helper.common import (
    changed,
    changed_fighter,
    current_side,
    enemy_taking_out,
    fighter_of,
    is_turn_of,
    locked,
    log,
)
from battles.helper.permissions import check_plays, check_turn
from battles.helper.rout import rout_due, rout_first
from battles.helper.turns import advance_turn
from battles.models import Fighter, Game, GameEvent
from battles.rules import play
from core.errors import RuleViolation
from core.words import possessive

LOOT_MOST = {"gold": 500, "wyrdstone": 20, "item": 1, "container": 1}


def refusal(game: Game, fighter: Fighter, new: str) -> str:
    old, name = fighter.state, fighter.name
    if old == play.OUT_OF_ACTION:
        return f"{name} is out of action (undo it if that was a mistake)."
    if new == old:
        return f"{name} is already {play.STATES[new].lower()}."
    if fighter.fall_height:
        return f"Roll {possessive(name)} fall first."
    if new == play.STANDING:
        if old == play.STUNNED:
            return (
                f"{name} is stunned: he becomes knocked down in his next recovery phase, and "
                "stands up in the one after."
            )
        if old == play.FLEEING:
            return f"{name} stops fleeing by passing a Rally test in his recovery phase."
        if old == play.KNOCKED_DOWN and not (
            fighter.may_stand and game.phase == "recovery" and is_turn_of(game, fighter.side)
        ):
            return (
                f"{name} stands up in his own recovery phase, when he was knocked down as it began."
            )
    if new == play.KNOCKED_DOWN and old == play.STUNNED:
        return f"{name} becomes knocked down by himself as his next recovery phase begins."
    if new == play.HIDDEN:
        why = play.may_hide(
            old, ran=fighter.ran, charged=fighter.charged, fell=fighter.fell, fled=fighter.fled
        )
        if why:
            return why
    return ""


@transaction.atomic
def set_state(
    battle_id: int, fighter_id: int, state: str, *, actor, cause: str = "", by_id=None
) -> Fighter:
    """A player's warrior changes state as the rules allow; out of action says what did it
    (an enemy warrior, a fall, fleeing off the table, something else)."""
    if state not in play.STATES:
        raise RuleViolation("No such state.")
    game = locked(battle_id, actor)
    fighter = fighter_of(game, fighter_id, actor)
    why = refusal(game, fighter, state)
    if why:
        raise RuleViolation(why)
    before = fighter.snapshot()
    if state == play.OUT_OF_ACTION:
        if cause not in Fighter.Cause.values:
            raise RuleViolation(f"Say what took {fighter.name} out of action.")
        fighter.cause = cause
        by_enemy = cause == "enemy"
        fighter.taken_out_by_id = enemy_taking_out(game, fighter, by_id) if by_enemy else None
        fighter.taken_out_turn = game.turn
    if state == play.FLEEING:
        fighter.fled = True
    fighter.may_stand = False
    old, fighter.state = fighter.state, state
    fighter.save()
    log(game, _describe(fighter, old), kind=GameEvent.Kind.STATE, actor=actor, fighter=fighter,
        before=before)  # fmt: skip
    changed_fighter(game, fighter, old)
    return fighter


def _describe(fighter: Fighter, old: str) -> str:
    name, new = fighter.name, fighter.state
    if new == play.STANDING:
        return {
            play.KNOCKED_DOWN: f"{name} stands up.",
            play.HIDDEN: f"{name} is no longer hidden.",
        }.get(old, f"{name} is standing.")
    if new == play.OUT_OF_ACTION:
        if fighter.cause == "enemy":
            by = fighter.taken_out_by
            return f"{name} is out of action, taken out by {by.name} of {by.warband.name}."
        return f"{name} is out of action ({fighter.get_cause_display()})."
    return f"{name}: {play.STATES[new].lower()}."


@transaction.atomic
def mark(battle_id: int, fighter_id: int, deed: str, *, doing: bool = True, actor) -> Fighter:
    """A warrior ran or charged this turn (``doing``), or did not after all: neither may hide
    this turn, and a hidden warrior who does either is seen. The button says which, so a
    second tab's press of the same one changes nothing."""
    if deed not in ("ran", "charged"):
        raise RuleViolation("No such deed.")
    game = locked(battle_id, actor)
    fighter = fighter_of(game, fighter_id, actor)
    if not is_turn_of(game, fighter.side):
        raise RuleViolation(f"{fighter.name} runs or charges in his own warband's turn.")
    if fighter.state not in (play.STANDING, play.HIDDEN):
        raise RuleViolation(
            f"{fighter.name} is {play.STATES[fighter.state].lower()}: he neither runs nor charges."
        )
    if getattr(fighter, deed) == doing:
        raise RuleViolation(f"{fighter.name}: noted already.")
    before = fighter.snapshot()
    fighter.ran = doing and deed == "ran"
    fighter.charged = doing and deed == "charged"
    text = f"{fighter.name} {deed}." if doing else f"{fighter.name} did not {deed[:-1]} after all."
    if doing and fighter.state == play.HIDDEN:
        fighter.state = play.STANDING
        text = f"{fighter.name} {deed} and is no longer hidden."
    fighter.save()
    log(game, text, kind=GameEvent.Kind.STATE, actor=actor, fighter=fighter, before=before)
    changed(game, fighters=[fighter])
    return fighter


@transaction.atomic
def undo(battle_id: int, event_id: int, *, actor) -> str:
    """One of the actor's changes of a warrior (the latest, as his page offers it), put back
    when nothing happened to that warrior since: a mistaken tap costs nothing. Named by its
    event, so that a second tab's press undoes nothing more."""
    game = locked(battle_id, actor)
    event = GameEvent.objects.filter(
        game=game, pk=event_id, by=actor, kind=GameEvent.Kind.STATE
    ).first()
    if event is None:
        raise RuleViolation("You have no such change of a warrior to undo.")
    if event.before is None:
        raise RuleViolation(f"Undone already: {event.text}")
    fighter = fighter_of(game, event.fighter_id, actor)
    latest = GameEvent.objects.filter(game=game, fighter=fighter).order_by("-pk").first()
    if latest.pk != event.pk:
        raise RuleViolation(f"{fighter.name} changed again since: set his state instead.")
    old = fighter.state
    fighter.restore(event.before)
    fighter.save()
    event.before = None
    event.save(update_fields=["before"])
    log(game, f"Undone: {event.text}", kind=GameEvent.Kind.STATE, actor=actor, side=fighter.side)
    changed_fighter(game, fighter, old)
    return event.text


@transaction.atomic
def next_phase(battle_id: int, *, actor, seen: str = "") -> Game:
    """The player whose turn it is (or an organiser) moves to the next phase; after
    hand-to-hand, the next warband still on the table takes its turn. ``seen``: the turn,
    player and phase the page showed (``position``): a second tab's press of the same button
    changes nothing."""
    game = locked(battle_id, actor)
    if seen and seen != position(game):
        raise RuleViolation("The game has moved on already: here it is as it stands.")
    side = current_side(game)
    check_turn(actor, game, side)
    if rout_due(game, side):
        raise RuleViolation(rout_first(side))
    falling = Fighter.objects.filter(game=game, fall_height__gt=0).select_related("warrior")
    if falling:
        raise RuleViolation(f"Roll first the fall of {', '.join(f.name for f in falling)}.")
    if may_be_due(game, side) and animosity_due(game, side, _with_types(side)):
        raise RuleViolation(f"{side.participant.warband.name} rolls for Animosity first.")
    order = play.PHASE_ORDER
    if game.phase != order[-1]:
        game.phase = order[order.index(game.phase) + 1]
        game.save(update_fields=["phase"])
        changed(game, phase_of=side)
        return game
    advance_turn(game, actor)
    return game


def _with_types(side) -> list[Fighter]:
    return list(Fighter.objects.filter(side=side).select_related("warrior__warrior_type"))


def position(game: Game) -> str:
    """Where the game stands: "turn:player:phase"."""
    return f"{game.turn}:{game.player}:{game.phase}"


@transaction.atomic
def pick_up(
    battle_id: int, fighter_id: int, *, loot: str, amount: int = 1, what: str = "", actor
) -> GameEvent:
    """Loot a warrior picks up on the table (gold crowns, wyrdstone shards, an item, a carried
    container by its kind): kept in the game's log and, at the end, in the battle's notes;
    wyrdstone counts as the scenario's shards."""
    game = locked(battle_id, actor)
    fighter = fighter_of(game, fighter_id, actor)
    if fighter.is_out:
        raise RuleViolation(f"{fighter.name} is out of action: he picks nothing up.")
    if loot not in LOOT_MOST:
        raise RuleViolation("Say what he picked up.")
    if not 1 <= amount <= LOOT_MOST[loot]:
        raise RuleViolation(f"Between 1 and {LOOT_MOST[loot]}, please.")
    what = what.strip()[:100]
    if loot in ("item", "container") and not what:
        raise RuleViolation("Say what he picked up.")
    shown = {
        "gold": f"{amount} gold crown{'s' if amount > 1 else ''}",
        "wyrdstone": f"{amount} shard{'s' if amount > 1 else ''} of wyrdstone",
    }.get(loot, what)
    return _logged(game, log(
        game, f"{fighter.name} picked up {shown}.", kind=GameEvent.Kind.LOOT, actor=actor,
        fighter=fighter, loot=loot, amount=amount,
    ))  # fmt: skip


@transaction.atomic
def note(battle_id: int, text: str, *, actor) -> GameEvent:
    game = locked(battle_id, actor)
    check_plays(actor, game, "The game's players and organisers write in its log.")
    text = " ".join(text.split())
    if not text:
        raise RuleViolation("Write something first.")
    return _logged(game, log(game, f"{actor.username}: {text[:250]}", kind="note", actor=actor))


def _logged(game: Game, event: GameEvent) -> GameEvent:
    """Only the log changes."""
    changed(game)
    return event
