"""What waits for a campaign's organisers: corrections to approve or refuse, and carried
items an organiser declared for a player, waiting for that player."""

from __future__ import annotations

from django.urls import reverse

from battles.models import Battle, Participant
from campaign.models import Campaign, Membership
from campaign.todo import Waiting
from league.todo.shared import shared
from warbands import corrections


@shared
def organised(user) -> list[int]:
    """The running campaigns the user organises: one query, and none more for a player."""
    return list(
        Membership.objects.organisers()
        .filter(user=user, campaign__status=Campaign.Status.OPEN)
        .values_list("campaign", flat=True)
    )


def corrections_to_approve(user) -> list[Waiting]:
    """The requests he may decide (``warbands.corrections.waiting_for``: three queries)."""
    campaigns = organised(user)
    if not campaigns:
        return []
    items = []
    for waiting in corrections.waiting_for(user, campaigns):
        asked = "a correction" if waiting.asked == 1 else f"{waiting.asked} corrections"
        items.append(
            Waiting(
                "correction",
                f"Approve or refuse {asked} asked for {waiting.warband_name}",
                waiting.campaign_id,
                waiting.campaign_name,
                reverse("warband_corrections", args=[waiting.warband_id]),
                waiting.since,
            )
        )
    return items


def declarations_proposed(user) -> list[Waiting]:
    """Step 0 of a battle waits on a player who has yet to confirm the carried items an
    organiser declared for him (``battles.aftermath.carried_items``): the organisers may wait,
    remind him, or override. Not the player's own: his list asks him to confirm."""
    campaigns = organised(user)
    if not campaigns:
        return []
    proposed = (
        Participant.objects.filter(
            battle__campaign__in=campaigns,
            battle__status=Battle.Status.CONFIRMED,
            battle__carried_items_done_at__isnull=True,
            battle__choosing_order=[],
            carried_items_declared=False,
            declaration_proposed_by__isnull=False,
        )
        .exclude(warband__owner=user)
        .select_related("battle__campaign", "warband__owner")
        .order_by("battle__confirmed_at", "pk")
    )
    return [
        Waiting(
            "proposal",
            f"The carried items declared for {p.warband.name} in {p.battle} wait for "
            f"{p.warband.owner.username}: wait for him or override",
            p.battle.campaign_id,
            p.battle.campaign.name,
            reverse("battle_detail", args=[p.battle_id]),
            p.battle.confirmed_at,
        )
        for p in proposed
    ]
