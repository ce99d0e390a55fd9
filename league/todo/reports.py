"""A player's part in a battle being reported or played: his side to enter, a report to
confirm or dispute, his turn in the battle helper. One query each."""

from __future__ import annotations

from django.db.models import Exists, F, OuterRef, Subquery
from django.urls import reverse

from battles.models import Battle, GameEvent, GameSide, Participant
from campaign.models import Campaign
from campaign.todo import Waiting

OPEN = Campaign.Status.OPEN
PENDING = Participant.Confirmation.PENDING


def _own(user):
    """The user's participations in battles of his running campaigns."""
    return Participant.objects.filter(
        warband__owner=user, battle__campaign__status=OPEN
    ).select_related("battle__campaign", "warband")


def sides_to_enter(user) -> list[Waiting]:
    """A side is due once the battle is reported (or disputed) and until it is confirmed
    (``battles.report.sides``); while the helper plays it, the helper fills it in."""
    due = _own(user).filter(
        side_entered_at__isnull=True,
        battle__status__in=[Battle.Status.REPORTED, Battle.Status.DISPUTED],
    )
    return [
        Waiting(
            "side",
            f"Enter what the warriors of {p.warband.name} did in {p.battle}",
            p.battle.campaign_id,
            p.battle.campaign.name,
            reverse("battle_side", args=[p.battle_id, p.warband_id]),
            p.battle.created_at,
        )
        for p in due.order_by("battle__created_at", "pk")
    ]


def reports_to_confirm(user) -> list[Waiting]:
    """Nobody confirms before every side is in (``battles.report.services.respond``); a side
    entered later asks again, so the wait starts at the latest side."""
    sides = Participant.objects.filter(battle=OuterRef("battle_id"))
    pending = (
        _own(user)
        .filter(battle__status=Battle.Status.REPORTED, confirmation=PENDING)
        .exclude(Exists(sides.filter(side_entered_at__isnull=True)))
        .annotate(
            latest_side=Subquery(
                sides.order_by(F("side_entered_at").desc(nulls_last=True)).values(
                    "side_entered_at"
                )[:1]
            )
        )
    )
    return [
        Waiting(
            "confirm",
            f"Confirm or dispute the report of {p.battle}",
            p.battle.campaign_id,
            p.battle.campaign.name,
            reverse("battle_detail", args=[p.battle_id]),
            p.latest_side or p.battle.created_at,
        )
        for p in pending.order_by("battle__created_at", "pk")
    ]


def helper_turns(user) -> list[Waiting]:
    """The game holds whose turn it is as an index into its sides' order (``Game.player``,
    ``GameSide.position``); the turn waits since it began (its log's latest turn line)."""
    began = GameEvent.objects.filter(game=OuterRef("game_id"), kind=GameEvent.Kind.TURN).order_by(
        "-created_at", "-pk"
    )
    turns = (
        GameSide.objects.filter(
            participant__warband__owner=user,
            participant__battle__campaign__status=OPEN,
            participant__battle__status=Battle.Status.PLAYING,
            game__ended_at__isnull=True,
            position=F("game__player"),
        )
        .select_related("game", "participant__battle__campaign", "participant__warband")
        .annotate(began=Subquery(began.values("created_at")[:1]))
        .order_by("game__started_at", "pk")
    )
    return [
        Waiting(
            "turn",
            f"Your turn with {side.participant.warband.name} in {side.participant.battle}: "
            "open the battle helper",
            side.participant.battle.campaign_id,
            side.participant.battle.campaign.name,
            reverse("play_page", args=[side.participant.battle_id]),
            side.began or side.game.started_at,
        )
        for side in turns
    ]
