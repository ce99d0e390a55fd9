"""Who may change a campaign's house rules, and when.

Organisers of an open campaign change them while no warband exists in it: once a player has
started mustering, a list he chose or the gold he was given could be taken from under him, so
the rules are fixed from then on (a warband removed by the organiser still counts: it was
mustered under them). Every member may read them.
"""

from __future__ import annotations

from campaign.models import Campaign
from campaign.permissions import can_run_campaign
from warbands.models import Warband


def first_warband(campaign: Campaign) -> Warband | None:
    """The campaign's first warband, whose mustering fixed its house rules, or ``None``."""
    return Warband.objects.filter(campaign=campaign).select_related("owner").order_by("pk").first()


def fixed_reason(campaign: Campaign, first: Warband | None) -> str | None:
    """Why the house rules can no longer change (``None`` while they can)."""
    if not campaign.is_open:
        return "The campaign is closed: its house rules can no longer change."
    if first is not None:
        return (
            f"The house rules are fixed: {first.owner.username} started mustering "
            f"{first.name} under them. They can change only while no warband exists."
        )
    return None


def can_change(user, campaign: Campaign) -> bool:
    """The user organises the open campaign (whether a warband fixed the rules is a refusal
    with its reason, not a matter of who asks)."""
    return can_run_campaign(user, campaign)
