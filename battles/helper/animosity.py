"""Animosity, prompted and rolled as the turn of a warband with models subject to it begins
(``battles.rules.animosity``): a D6 for each of them still on the table, save those its player
spares (in hand-to-hand combat, which the text exempts, or kept calm by something on the table
the helper does not see: a Boss Pole within 6"); on a 1 a second D6 for the result. The turn
waits for the rolls (``battles.helper.moves.next_phase``), each result is in the log and on
the model's row for the rest of the turn, and the players carry out what it says.

The text is silent on models knocked down, stunned, fleeing or hidden: they roll like the
others (the result may well leave them nothing to do), and the player may spare them."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from battles.dice import check_used, holding_rolls
from battles.helper.common import changed, dice, is_turn_of, locked, log, side_of
from battles.helper.permissions import check_side
from battles.models import Fighter, Game, GameEvent, GameSide
from battles.rules import animosity as rules
from battles.rules import play
from core.errors import RuleViolation


def subjects(fighters: Sequence[Fighter]) -> list[Fighter]:
    """The models (``fighters`` with their warrior types) subject to Animosity, on the table."""
    return [
        f for f in fighters
        if not f.is_out and rules.subject(f.warrior.warrior_type.special_rules)
    ]  # fmt: skip


def may_be_due(game: Game, side: GameSide) -> bool:
    """Its turn is beginning and it has not rolled yet: whether it must roll depends on its
    models (``animosity_due``)."""
    return (
        is_turn_of(game, side)
        and game.phase == play.PHASE_ORDER[0]
        and side.animosity_turn < game.turn
        and not side.participant.routed
    )


def animosity_due(game: Game, side: GameSide, fighters: Sequence[Fighter]) -> bool:
    """The side's turn is beginning, it has not rolled for Animosity yet and has models that
    must."""
    return not game.is_over and may_be_due(game, side) and bool(subjects(fighters))


def _models(count: int) -> str:
    return f"{count} model{'s' if count != 1 else ''}"


def _summary(name: str, results, together, group: list, spared: list[str]) -> str:
    parts = []
    if results:
        offended = sum(1 for _, r in results if r.offended)
        parts.append(f"{_models(len(results))} rolled; {offended or 'none'} rolled a 1")
    if together is not None:
        parts.append(f"one roll for {_models(len(group))}: {together.first}"
                     + (", they squabble" if together.offended else ""))  # fmt: skip
    text = f"Animosity, {name}: {'; '.join(parts)}."
    return text + (f" Spared: {', '.join(spared)}." if spared else "")


@transaction.atomic
def roll(
    battle_id: int, side_id: int, *, spared: Sequence[int] = (), entered: str = "", actor
) -> list[Fighter]:
    """The side's Animosity, once a turn as it begins: typed dice are taken in order, a model
    at a time (his D6, then the result's D6 when it was a 1), then the one roll of those whose
    rule has ``one_roll``. Returns the models who took offence."""
    game = locked(battle_id, actor)
    side = side_of(game, side_id)
    check_side(actor, game, side)
    name = side.participant.warband.name
    fighters = list(
        Fighter.objects.select_for_update(of=("self",), no_key=True)
        .filter(side=side)
        .select_related("warrior__warrior_type")
    )
    able = subjects(fighters)
    if not able:
        raise RuleViolation(f"{name} has no models subject to Animosity.")
    if side.animosity_turn >= game.turn:
        raise RuleViolation(f"{name} rolled for Animosity this turn already.")
    if not may_be_due(game, side):
        raise RuleViolation(f"{name} rolls for Animosity as its own turn begins.")
    kept_out = set(spared)
    if kept_out - {f.pk for f in able}:
        raise RuleViolation("Spare only models that are subject to Animosity.")
    rolling = [f for f in able if f.pk not in kept_out]
    group = [f for f in rolling if _rule(f).get("one_roll")]
    rolled, held, together = dice(game, entered, side, actor), [], None
    with holding_rolls(held):
        results = [(f, rules.roll(rolled, f.name)) for f in rolling if f not in group]
        if group:
            together = rules.roll_together(rolled, name, len(group))
    check_used(rolled, "Animosity (a D6 a model, and a second after a 1)")
    side.animosity_turn = game.turn
    side.save(update_fields=["animosity_turn"])
    offended = [(f, r) for f, r in results if r.offended]
    if together is not None and together.offended:
        offended += [(f, together) for f in group]
    for fighter, result in offended:
        fighter.animosity = result.result.key
    Fighter.objects.bulk_update([f for f, _ in offended], ["animosity"])
    spared_names = [f.name for f in able if f.pk in kept_out]
    log(game, _summary(name, results, together, group, spared_names), kind=GameEvent.Kind.TEST,
        actor=actor, side=side, rolls=held)  # fmt: skip
    for fighter, result in offended:
        if result is not together:
            log(game, rules.describe(fighter.name, result, _rule(fighter)),
                kind=GameEvent.Kind.TEST, actor=actor, side=side, fighter=fighter)  # fmt: skip
    if together is not None and together.offended:
        log(game, rules.describe_together(together, [f.name for f in group]),
            kind=GameEvent.Kind.TEST, actor=actor, side=side)  # fmt: skip
    changed(game, fighters=[f for f, _ in offended], sides=[side], dice=True)
    return [f for f, _ in offended]


def _rule(fighter: Fighter):
    return rules.subject(fighter.warrior.warrior_type.special_rules)
