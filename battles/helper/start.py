"""Setting a game up: the battle (being played, no result yet), its sides in the order they
play and a fighter per model on the table."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from battles import permissions as battle_permissions
from battles.helper.permissions import check_starts
from battles.models import Battle, Fighter, Game, GameEvent, GameSide, Participant
from battles.report.services import lock_warbands
from battles.report.sides import fighters
from battles.rules import scenarios
from battles.schedule import starting
from campaign import cache
from campaign.models import Campaign
from core.errors import RuleViolation
from warbands import services as warband_services


@transaction.atomic
def start_game(
    *,
    actor,
    campaign: Campaign,
    warband_ids: Sequence[int],
    scenario_key: str = "",
    scenario: str = "",
    fought_on: datetime.date | None = None,
    random_fortune: bool = False,
    fortune_table: str = "d66",
    fixture_id: int | None = None,
) -> Battle:
    """A player (one of the warbands is his) or an organiser starts a game between two or more
    of the campaign's warbands, ``warband_ids`` in the order they take their turns (the
    scenario says who goes first). Every warrior free to fight
    (``battles.report.sides.fighters``) is on the table, a henchman group as one fighter per
    model. From a planned game (``fixture_id``) the battle links back to it."""
    battle_permissions.check_open(campaign)
    ids = list(dict.fromkeys(warband_ids))
    if len(ids) < 2:
        raise RuleViolation("A game needs at least two warbands.")
    if len(ids) != len(warband_ids):
        raise RuleViolation("Each warband takes one place in the turn order.")
    played = scenarios.scenario(scenario_key)
    if scenario_key and not played.key:
        raise RuleViolation("Pick a scenario from the list, or “Other” and name it.")
    scenario = (scenario or "").strip() or (played.name if played.key else "")
    if not scenario:
        raise RuleViolation("Name the scenario.")
    fixture = starting.claim(campaign, fixture_id, ids)
    warbands = lock_warbands(campaign, ids)
    mine = any(w.owner_id == actor.pk for w in warbands.values())
    check_starts(actor, campaign, plays=mine)
    battle = Battle.objects.create(
        campaign=campaign, scenario=scenario[:100], scenario_key=scenario_key,
        fought_on=fought_on or timezone.localdate(), random_fortune=random_fortune,
        fortune_table=fortune_table, reported_by=actor, status=Battle.Status.PLAYING,
    )  # fmt: skip
    starting.link(fixture, battle)
    game = Game.objects.create(battle=battle, started_by=actor)
    cache.changed(campaign=campaign, battle=battle)  # the battles list, the dashboards
    ratings = warband_services.ratings_of(warbands.values())
    rows = []
    for position, warband_id in enumerate(ids):
        warband = warbands[warband_id]
        participant = Participant.objects.create(
            battle=battle, warband=warband, result="", rating_before=ratings[warband_id]
        )
        side = GameSide.objects.create(game=game, participant=participant, position=position)
        on_table = list(fighters(warband).order_by("pk"))
        if not on_table:
            raise RuleViolation(f"{warband.name} has nobody free to fight.")
        for warrior in on_table:
            size = 1 if warrior.is_hero else warrior.group_size
            rows += [
                Fighter(game=game, side=side, warrior=warrior, number=n) for n in range(1, size + 1)
            ]
    Fighter.objects.bulk_create(rows)
    names = " and ".join(warbands[i].name for i in ids)
    GameEvent.objects.create(
        game=game, turn=1, kind=GameEvent.Kind.TURN, by=actor,
        text=f"{names} play {scenario}; {warbands[ids[0]].name} takes the first turn.",
    )  # fmt: skip
    return battle
