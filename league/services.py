"""The organiser's powers that reach into warbands: removing a player (their warbands are
archived with them) and removing one warband from play."""

from __future__ import annotations

from django.db import transaction

from campaign.models import CampaignEvent, Membership
from campaign.services import record_event, require_organiser
from core.errors import RuleViolation
from warbands.models import Warband


@transaction.atomic
def remove_member(membership: Membership, *, actor) -> None:
    """Remove a player: the membership and their warbands are archived, not deleted, so the
    battles they fought stay in the campaign's history."""
    campaign = membership.campaign
    require_organiser(actor, campaign)
    if membership.user_id == actor.pk:
        raise RuleViolation("You cannot remove yourself.")
    if membership.is_organiser and campaign.memberships.organisers().count() == 1:
        raise RuleViolation("A campaign keeps at least one organiser.")
    membership.is_active = False
    membership.is_organiser = False
    membership.save(update_fields=["is_active", "is_organiser"])
    Warband.objects.filter(campaign=campaign, owner=membership.user).playing().update(
        status=Warband.Status.ARCHIVED
    )
    record_event(
        campaign, CampaignEvent.Kind.CAMPAIGN, f"{membership.user.username} left the campaign."
    )


@transaction.atomic
def archive_warband(warband: Warband, *, actor) -> None:
    """Remove a warband from play; its battles stay in the history. The warband is read again
    under its row lock, so two organisers' tabs archive it (and tell the feed) once."""
    require_organiser(actor, warband.campaign)
    warband = (
        Warband.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=warband.pk)
    )
    if warband.status not in (Warband.Status.DRAFT, Warband.Status.ACTIVE):
        raise RuleViolation(f"{warband.name} no longer plays.")
    warband.status = Warband.Status.ARCHIVED
    warband.gold_crowns = 0
    warband.save(update_fields=["status", "gold_crowns"])
    record_event(
        warband.campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{warband.name} was removed from the campaign.",
        warband=warband,
    )
