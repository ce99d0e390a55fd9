"""What takes warbands out of play and so reaches into battles (the captives they held go
home): the organiser removing a player (their warbands are archived with them) or one warband,
and a player disbanding his own."""

from __future__ import annotations

from django.db import transaction

from battles.captives.holding import release_held_by
from campaign import cache
from campaign.co_organisers import withdraw_invitations_to
from campaign.models import Campaign, CampaignEvent, Membership
from campaign.services import record_event, require_organiser
from core.errors import RuleViolation
from warbands import services as warband_services
from warbands.models import Warband


@transaction.atomic
def remove_member(membership: Membership, *, actor) -> None:
    """Remove a player: the membership and their warbands are archived, not deleted, so the
    battles they fought stay in the campaign's history, and the invitations to co-organise
    sent to his name are withdrawn (one sent before would bring him back). An organiser is
    not removed by another: organisers are equals, and one who could remove the others could
    take the campaign and archive their warbands; each steps down himself
    (``co_organisers.step_down``), then may be removed as a player. The campaign's row is
    locked, so removals and stepping down apply one at a time."""
    campaign = membership.campaign
    require_organiser(actor, campaign)
    Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
    membership = (
        Membership.objects.select_for_update(of=("self",), no_key=True)
        .select_related("user")
        .get(pk=membership.pk)
    )
    name = membership.user.username
    if membership.user_id == actor.pk:
        raise RuleViolation("You cannot remove yourself.")
    if not membership.is_active:
        raise RuleViolation(f"{name} is no longer in the campaign.")
    if membership.is_organiser:
        raise RuleViolation(
            f"{name} organises the campaign: an organiser is not removed by another. He may "
            "step down himself, and then be removed as a player."
        )
    playing = Warband.objects.filter(campaign=campaign, owner=membership.user).playing()
    release_held_by(playing.values_list("pk", flat=True), why="left the campaign")
    membership.is_active = False
    membership.save(update_fields=["is_active"])
    withdraw_invitations_to(campaign, name, actor=actor)
    # A warband still mustering gives up its purse with it (the database allows a purse only
    # while mustering).
    playing.update(status=Warband.Status.ARCHIVED, gold_crowns=0)
    cache.changed(campaign=campaign, throughout=True)  # who may do what, on every page
    record_event(
        campaign, CampaignEvent.Kind.CAMPAIGN, f"{actor.username} removed {name} from the campaign."
    )


@transaction.atomic
def archive_warband(warband: Warband, *, actor) -> None:
    """Remove a warband from play; its battles stay in the history and the captives it held
    go home (``release_held_by``). The warband is read again under its row lock, so two
    organisers' tabs archive it (and tell the feed) once."""
    require_organiser(actor, warband.campaign)
    release_held_by([warband.pk], why="left the campaign")
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
    cache.changed(campaign=warband.campaign_id, warband=warband)
    record_event(
        warband.campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{warband.name} was removed from the campaign.",
        warband=warband,
    )


@transaction.atomic
def disband_warbands(warbands: list[Warband], *, actor, why: str = "was disbanded") -> None:
    """Their player disbands them (``warbands.services.disband_warband``: each read again
    under its lock, refused when it is not his or is disbanded already), and the captives
    they held go home first (``release_held_by``), as when an organiser takes a warband out of
    play: nobody could ransom, exchange or sell them any more. ``why``: how the feed tells
    it ("was retired" when the player closes his account)."""
    release_held_by([w.pk for w in warbands], why=why)
    for warband in warbands:
        warband_services.disband_warband(warband, actor=actor)
