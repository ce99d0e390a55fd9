"""The end of a game: the battle's report written from what happened on the table.

Each side gets, for every warrior who was on the table: out of action or not (a henchman
group: how many of its models), who took him out, how many enemies he put out of action, who
led it; the wyrdstone its warriors picked up counts as the scenario's shards (up to what the
scenario gives) and, in Wyrdstone Hunt, as the counters each carried to the end (a warrior
taken out of action drops his where he fell: neither he nor his warband keeps them, unless
another picks them up, which the players record as his loot). Loot and notes go in the
battle's notes. The result: the warband left when the others routed, or what the players say
(a winner, or a draw) when the scenario ended the game.

The sides stay to be entered: each player saves his side as it was written and confirms the
battle in one press (``battles.report.services.confirm_side_as_recorded``), or opens it first,
checks or changes it and saves it (``battles.report.sides.enter_side``), then confirms; the
post-battle sequences start from it once every player has.
"""

from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.utils import timezone

from battles.helper.common import changed, locked, log
from battles.helper.permissions import check_plays
from battles.models import Battle, Fighter, Game, GameEvent, GameSide, Participant, WarriorOutcome
from battles.rules import scenarios
from campaign import cache
from core.errors import RuleViolation

COUNTER = "wyrdstone_counter"


@transaction.atomic
def end_game(battle_id: int, *, actor, winner_id: int | None) -> Battle:
    """A player of the game (or an organiser) ends it as the scenario says: ``winner_id``,
    the warband that won, or None for a draw."""
    game = locked(battle_id, actor)
    check_plays(actor, game, "The game's players and organisers end it.")
    standing = [
        s.participant.warband_id
        for s in GameSide.objects.filter(game=game).select_related("participant")
        if not s.participant.routed
    ]
    if winner_id is not None and winner_id not in standing:
        raise RuleViolation("The winner is a warband still on the table.")
    finish(game, winners=[winner_id] if winner_id else [], actor=actor)
    return game.battle


def finish(game: Game, *, winners: list[int], actor) -> None:
    """Write the report (results, rout order, each warrior's part) and end the game. The
    battle's row is locked before its participants', as every service that writes a side
    takes them (``battles.report.sides.enter_side``), so the two never wait on each other."""
    battle = (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=game.battle_id)
    )
    game.battle = battle  # the callers read the report from the game
    cache.changed(campaign=battle.campaign_id, battle=battle)  # the battles list, dashboards
    played = scenarios.scenario(battle.scenario_key)
    fighters = list(
        Fighter.objects.filter(game=game).select_related("warrior", "side__participant")
    )
    kills = Counter(f.taken_out_by_id for f in fighters if f.taken_out_by_id)
    loot = list(GameEvent.objects.filter(game=game, kind=GameEvent.Kind.LOOT).order_by("pk"))
    shards = Counter()
    for event in loot:
        if event.loot == GameEvent.Loot.WYRDSTONE:
            shards[event.fighter_id] += event.amount
    counter = next((a for a in played.awards if a.key == COUNTER), None)
    if counter:  # Wyrdstone Hunt: a carrier taken out of action drops his counters there
        for fighter in fighters:
            if fighter.is_out:
                shards[fighter.pk] = 0
    by_side: dict[int, list[Fighter]] = {}
    for fighter in fighters:
        by_side.setdefault(fighter.side.participant_id, []).append(fighter)
    for participant in Participant.objects.filter(battle=battle).select_for_update(
        of=("self",), no_key=True
    ):
        mine = by_side.get(participant.pk, [])
        if participant.routed:
            participant.result = Participant.Result.LOST
        elif not winners:
            participant.result = Participant.Result.DRAW
        else:
            won = participant.warband_id in winners
            participant.result = Participant.Result.WON if won else Participant.Result.LOST
        leader = next((f.warrior for f in mine if f.warrior.is_leader), None)
        participant.leader = leader
        participant.scenario_shards = min(sum(shards[f.pk] for f in mine), played.most_shards)
        participant.save(update_fields=["result", "leader", "scenario_shards"])
        WarriorOutcome.objects.filter(participant=participant).delete()
        WarriorOutcome.objects.bulk_create(
            _outcome(participant, models, kills, shards, counter)
            for models in _by_warrior(mine).values()
        )
    battle.status = Battle.Status.REPORTED
    lines = [e.text for e in loot]
    lines += [e.text for e in game.events.filter(kind=GameEvent.Kind.NOTE).order_by("pk")]
    if lines:
        battle.notes = "\n".join(filter(None, [battle.notes, "From the battle helper:", *lines]))
    battle.save(update_fields=["status", "notes"])
    game.ended_at, game.ended_by = timezone.now(), actor
    game.save(update_fields=["ended_at", "ended_by"])
    log(game, _summary(battle), kind=GameEvent.Kind.END, actor=actor)
    changed(game, whole=True)


def _by_warrior(fighters: list[Fighter]) -> dict[int, list[Fighter]]:
    grouped: dict[int, list[Fighter]] = {}
    for fighter in fighters:
        grouped.setdefault(fighter.warrior_id, []).append(fighter)
    return grouped


def _outcome(participant, models: list[Fighter], kills, shards, counter) -> WarriorOutcome:
    warrior = models[0].warrior
    out = [m for m in models if m.is_out]
    taken_by = next((m.taken_out_by_id for m in out if m.taken_out_by_id), None)
    awards = {}
    carried = sum(shards[m.pk] for m in models)
    if counter and carried and (warrior.is_hero or not counter.heroes_only):
        awards[counter.key] = min(carried, counter.most)
    return WarriorOutcome(
        participant=participant,
        warrior=warrior,
        out_of_action=len(out) == len(models),
        models_out_of_action=0 if warrior.is_hero else len(out),
        enemies_out_of_action=kills[warrior.pk],
        taken_out_by_id=taken_by,
        awards=awards,
    )


def _summary(battle: Battle) -> str:
    participants = list(battle.participants.select_related("warband").order_by("pk"))
    winners = [p.warband.name for p in participants if p.result == Participant.Result.WON]
    if not winners:
        return "The game is over: a draw. Each player now checks his side of the report."
    return (
        f"The game is over: {' and '.join(winners)} won. Each player now checks his side of "
        "the report."
    )
