"""A player's part in battles: his side to enter, a report to confirm or dispute, carried
items to declare (step 0, on the battle page), his turn in the battle helper. The first three
read the user's participations once (``participations``), the turn one query."""

from __future__ import annotations

from django.db.models import Exists, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.urls import reverse

from battles.models import Battle, Game, GameEvent, GameSide, Participant
from campaign.models import Campaign
from campaign.todo import Waiting
from league.todo.shared import shared

OPEN = Campaign.Status.OPEN
PENDING = Participant.Confirmation.PENDING
Status = Battle.Status


@shared
def participations(user) -> list[Participant]:
    """The user's participations that wait for him, in his running campaigns, oldest battle
    first: a side due (the battle reported or disputed, until confirmed: while the helper plays
    it, the helper fills it in), a report to confirm (``sides_missing``: nobody confirms before
    every side is in; ``latest_side``: a side entered later asks again), carried items to
    declare (until recovery starts). One query."""
    sides = Participant.objects.filter(battle=OuterRef("battle_id"))
    return list(
        Participant.objects.filter(warband__owner=user, battle__campaign__status=OPEN)
        .filter(
            Q(side_entered_at__isnull=True, battle__status__in=[Status.REPORTED, Status.DISPUTED])
            | Q(battle__status=Status.REPORTED, confirmation=PENDING)
            | Q(
                battle__status=Status.CONFIRMED,
                battle__carried_items_done_at__isnull=True,
                battle__choosing_order=[],
                carried_items_declared=False,
            )
        )
        .annotate(
            sides_missing=Exists(sides.filter(side_entered_at__isnull=True)),
            latest_side=Subquery(
                sides.order_by(F("side_entered_at").desc(nulls_last=True)).values(
                    "side_entered_at"
                )[:1]
            ),
        )
        .select_related("battle__campaign", "warband", "declaration_proposed_by")
        .order_by("battle__created_at", "pk")
    )


def _waiting(kind: str, text: str, p: Participant, url: str, since) -> Waiting:
    return Waiting(kind, text, p.battle.campaign_id, p.battle.campaign.name, url, since)


def sides_to_enter(user) -> list[Waiting]:
    return [
        _waiting(
            "side",
            f"Enter what the warriors of {p.warband.name} did in {p.battle}",
            p,
            reverse("battle_side", args=[p.battle_id, p.warband_id]),
            p.battle.created_at,
        )
        for p in participations(user)
        if p.side_entered_at is None and p.battle.status in (Status.REPORTED, Status.DISPUTED)
    ]


def reports_to_confirm(user) -> list[Waiting]:
    return [
        _waiting(
            "confirm",
            f"Confirm or dispute the report of {p.battle}",
            p,
            reverse("battle_detail", args=[p.battle_id]),
            p.latest_side or p.battle.created_at,
        )
        for p in participations(user)
        if p.battle.status == Status.REPORTED and p.confirmation == PENDING and not p.sides_missing
    ]


def carried_items_to_declare(user) -> list[Waiting]:
    """An organiser's proposal for the player waits for him to send it as it is or change
    it (``battles.aftermath.carried_items``)."""
    items = []
    for p in participations(user):
        if p.battle.status != Status.CONFIRMED:
            continue
        if p.declaration_proposed_by:
            text = (
                f"Confirm or change where {p.declaration_proposed_by.username} declared the "
                f"carried items of {p.warband.name} ended {p.battle}"
            )
        else:
            text = f"Declare where the carried items of {p.warband.name} ended {p.battle}"
        url = reverse("battle_detail", args=[p.battle_id])
        items.append(_waiting("carried_items", text, p, url, p.battle.confirmed_at))
    return items


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
            participant__battle__status=Status.PLAYING,
            game__ended_at__isnull=True,
            position=F("game__player"),
        )
        .select_related("game", "participant__battle__campaign", "participant__warband")
        .annotate(began=Subquery(began.values("created_at")[:1]))
        .order_by("game__started_at", "pk")
    )
    return [
        _waiting(
            "turn",
            f"Your turn with {side.participant.warband.name} in {side.participant.battle}: "
            "open the battle helper",
            side.participant,
            reverse("play_page", args=[side.participant.battle_id]),
            side.began or side.game.started_at,
        )
        for side in turns
    ]


def games_version():
    """For a membership (``Membership`` rows): the sum of the versions of the user's games
    under way in its campaign. A turn passing changes no campaign's version (the helper's
    rows follow the game's own, ``campaign.cache``), so the dashboard keys its list on this
    too, read in the same query as the memberships."""
    games = (
        Game.objects.filter(
            battle__campaign=OuterRef("campaign_id"),
            ended_at__isnull=True,
            sides__participant__warband__owner=OuterRef("user_id"),
        )
        .order_by()
        .values("battle__campaign")
        .annotate(total=Sum("version"))
        .values("total")
    )
    return Coalesce(Subquery(games), 0)
