"""Use cases of running a league: create a campaign, let players join, close it (who
organises it is ``campaign.co_organisers``).

Each takes the acting user, checks the permission through ``campaign.permissions`` and writes
in one transaction. The campaign feed gets a line for what other members should know.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from campaign import cache, invitations, permissions
from campaign.models import (
    Campaign,
    CampaignEvent,
    Membership,
    RandomFortuneEntry,
    new_join_code,
)
from core.errors import RuleViolation

CAMPAIGN_FIELDS = (
    "name",
    "description",
    "start_date",
    "mim_carried_items",
    "quartermaster_skill",
    "organiser_sees_secrets",
    "max_warbands_per_player",
    "challenge_policy",
    "carrying_allowed",
    "imports_allowed",
    "carried_treasury",
)


def record_event(campaign: Campaign, kind: str, message: str, *, warband=None, battle=None):
    """Append a line to the campaign feed. ``message`` must hold public facts only."""
    cache.changed(campaign=campaign)
    return CampaignEvent.objects.create(
        campaign=campaign, kind=kind, message=message[:300], warband=warband, battle=battle
    )


def require_organiser(actor, campaign: Campaign) -> None:
    if not permissions.is_organiser(actor, campaign):
        raise PermissionDenied("Only the campaign's organisers may do this.")
    if not campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")


@transaction.atomic
def create_campaign(*, actor, **fields) -> Campaign:
    """A new campaign; its creator is its organiser."""
    unknown = set(fields) - set(CAMPAIGN_FIELDS)
    if unknown:
        raise ValueError(f"not campaign settings: {sorted(unknown)}")
    campaign = Campaign.objects.create(**fields)
    Membership.objects.create(campaign=campaign, user=actor, is_organiser=True)
    record_event(
        campaign, CampaignEvent.Kind.CAMPAIGN, f"{actor.username} started {campaign.name}."
    )
    return campaign


@transaction.atomic
def update_campaign(campaign: Campaign, *, actor, **fields) -> Campaign:
    """Change the campaign's settings. Whether organisers see inside every warband's storage
    containers is compared with the row as stored (locked), not with ``campaign``, which a
    bound form may have changed already: turning it on or off is written in the campaign feed
    under the organiser's name, so no organiser reads the treasuries unnoticed."""
    require_organiser(actor, campaign)
    unknown = set(fields) - set(CAMPAIGN_FIELDS)
    if unknown:
        raise ValueError(f"not campaign settings: {sorted(unknown)}")
    stored = Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
    saw = stored.organiser_sees_secrets
    for name, value in fields.items():
        setattr(stored, name, value)
        setattr(campaign, name, value)
    stored.save(update_fields=list(fields))
    record_secrets_switch(stored, actor=actor, was=saw)
    cache.changed(campaign=campaign, throughout=True)  # its house rules show everywhere
    return campaign


def record_secrets_switch(campaign: Campaign, *, actor, was: bool) -> None:
    """Write in the feed, under ``actor``'s name, that organisers now see inside every
    warband's storage containers, or no longer do (``was``: the setting before the change).
    The settings page and the admin both call it."""
    if campaign.organiser_sees_secrets == was:
        return
    record_event(
        campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} let the organisers see inside every warband's storage containers."
        if campaign.organiser_sees_secrets
        else f"{actor.username} stopped the organisers seeing inside the warbands' storage "
        "containers.",
    )


@transaction.atomic
def join_campaign(*, actor, code: str) -> Membership:
    """Join with the code an organiser shared. Joining twice changes nothing."""
    campaign = (
        Campaign.objects.select_for_update(no_key=True)
        .filter(join_code=code.strip().upper())
        .first()
    )
    existing = (
        Membership.objects.filter(campaign=campaign, user=actor).first() if campaign else None
    )
    if existing is not None and existing.is_active:
        return existing
    refused = invitations.refusal(campaign, removed=existing is not None)
    if refused:
        raise RuleViolation(refused)
    membership = Membership.objects.create(campaign=campaign, user=actor)
    record_event(campaign, CampaignEvent.Kind.JOINED, f"{actor.username} joined the campaign.")
    return membership


@transaction.atomic
def regenerate_join_code(campaign: Campaign, *, actor) -> str:
    """A new code; the old one stops working at once."""
    require_organiser(actor, campaign)
    campaign.join_code = new_join_code()
    campaign.save(update_fields=["join_code"])
    cache.changed(campaign=campaign)
    return campaign.join_code


@transaction.atomic
def set_joining_open(campaign: Campaign, *, actor, is_open: bool) -> None:
    require_organiser(actor, campaign)
    campaign.joining_open = is_open
    campaign.save(update_fields=["joining_open"])
    cache.changed(campaign=campaign)


@transaction.atomic
def set_campaign_status(campaign: Campaign, *, actor, status: str) -> Campaign:
    """Close (read-only), archive (read-only and off the dashboards) or reopen a campaign."""
    if not permissions.is_organiser(actor, campaign):
        raise PermissionDenied("Only the campaign's organisers may do this.")
    if status not in Campaign.Status.values:
        raise ValueError(status)
    if status == campaign.status:
        return campaign
    campaign.status = status
    campaign.save(update_fields=["status"])
    cache.changed(campaign=campaign, throughout=True)  # every page's forms come or go
    label = {"open": "reopened", "closed": "closed", "archived": "archived"}[status]
    record_event(
        campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"The campaign was {label} ({timezone.localdate():%d %b %Y}).",
    )
    return campaign


@transaction.atomic
def set_fortune_table(campaign: Campaign, *, actor, table: str, rows) -> None:
    """Replace one of the campaign's random fortune tables (rows: low, high, result, kind)."""
    require_organiser(actor, campaign)
    cache.changed(campaign=campaign, throughout=True)  # the battles' boards read the tables
    RandomFortuneEntry.objects.filter(campaign=campaign, table=table).delete()
    RandomFortuneEntry.objects.bulk_create(
        RandomFortuneEntry(campaign=campaign, table=table, low=low, high=high, result=r, kind=k)
        for low, high, r, k in rows
    )
