"""What follows a confirmed battle: the post-battle sequence to play, and a captive's ransom
or exchange to answer. One query each."""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse

from battles.models import Battle, Captive, PostBattleSequence
from campaign.models import Campaign
from campaign.todo import Waiting

OPEN = Campaign.Status.OPEN


def sequences_to_play(user) -> list[Waiting]:
    """The user's warbands' sequences of confirmed battles, not complete."""
    sequences = (
        PostBattleSequence.objects.filter(
            participant__warband__owner=user,
            participant__battle__campaign__status=OPEN,
            participant__battle__status=Battle.Status.CONFIRMED,
            completed_at__isnull=True,
        )
        .select_related("participant__battle__campaign", "participant__warband")
        .order_by("participant__battle__fought_on", "pk")
    )
    return [
        Waiting(
            "sequence",
            f"Post-battle sequence waiting: {s.participant.warband.name} after "
            f"{s.participant.battle.scenario} (step {min(s.current_step, 10)})",
            s.participant.battle.campaign_id,
            s.participant.battle.campaign.name,
            reverse("sequence_detail", args=[s.pk]),
            s.created_at,
        )
        for s in sequences
    ]


def captive_offers(user) -> list[Waiting]:
    """A ransom asked or an exchange offered for one of the user's heroes, held by an enemy:
    his to answer on his warband's captives page. The amount is not said: the page shows it
    to the two players."""
    held = (
        Captive.objects.filter(
            status=Captive.Status.HELD,
            warrior__warband__owner=user,
            battle__campaign__status=OPEN,
        )
        .filter(Q(ransom__isnull=False) | Q(exchange_for__isnull=False))
        .select_related("warrior", "captor", "battle__campaign")
        .order_by("created_at", "pk")
    )
    items = []
    for captive in held:
        place = (
            captive.battle.campaign_id,
            captive.battle.campaign.name,
            reverse("warband_captives", args=[captive.warrior.warband_id]),
            captive.created_at,
        )
        name, captor = captive.warrior.name, captive.captor.name
        if captive.ransom is not None:
            items.append(Waiting("ransom", f"Answer the ransom {captor} ask for {name}", *place))
        if captive.exchange_for_id is not None:
            items.append(
                Waiting("exchange", f"Answer the exchange {captor} offer for {name}", *place)
            )
    return items
