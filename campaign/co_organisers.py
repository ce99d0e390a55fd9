"""Who organises a campaign: an organiser invites a co-organiser, who accepts or declines on
his dashboard; an organiser withdraws an invitation or steps down himself.

Organising gives powers over other players (``templates/league/guide_organiser.html``,
"What an organiser can and cannot do"), so nobody becomes an organiser without saying yes,
and nobody is made to stop by another organiser:

- An invitation names a username, not an account (``OrganiserInvitation``). Inviting reads
  no account, so the form answers the same, and the settings page lists the same, whether
  the name exists or not; only the holder of the name ever sees the invitation.
- Only the holder of the name accepts or declines it (anyone else gets the answer for an
  invitation that does not exist), once, while it is pending and the campaign is open. Every
  change locks the invitation's row first and reads it afresh: two tabs accept once, and an
  invitation withdrawn meanwhile is not accepted.
- Removing a player withdraws the invitations to his name, so an invitation sent before his
  removal does not bring him back. Organisers are not removed by each other: each steps down
  himself, while another organiser stays.
- Against spam: one pending invitation per name and campaign, ``MOST_PENDING`` at once per
  campaign, and a name that declined is not asked again by the campaign for
  ``ASK_AGAIN_AFTER``.

The campaign feed tells the members each invitation, its answer or withdrawal, and each
organiser who steps down.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from campaign import cache
from campaign.models import Campaign, CampaignEvent, Membership, OrganiserInvitation
from campaign.services import record_event, require_organiser
from core.errors import RuleViolation
from core.words import possessive

MOST_PENDING = 5
ASK_AGAIN_AFTER = datetime.timedelta(days=7)
Status = OrganiserInvitation.Status


def _lock_campaign(campaign: Campaign) -> Campaign:
    """The campaign's row, locked: who organises it, its invitations and its members change
    one at a time (a removal never overtakes an acceptance, nor two organisers stepping down
    each other's check)."""
    return Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)


@transaction.atomic
def invite_co_organiser(campaign: Campaign, *, actor, username: str) -> OrganiserInvitation:
    """Invite ``username`` to co-organise. No account is looked up: what is refused here is
    refused for what the organiser already knows (who organises the campaign, what he was
    answered), never for whether the name exists."""
    require_organiser(actor, campaign)
    campaign = _lock_campaign(campaign)
    name = get_user_model().normalize_username(username.strip())
    organisers = Membership.objects.organisers().filter(campaign=campaign)
    if organisers.filter(user__username__iexact=name).exists():
        raise RuleViolation(f"{name} organises the campaign already.")
    invitations = OrganiserInvitation.objects.filter(campaign=campaign)
    if invitations.pending().filter(username__iexact=name).exists():
        raise RuleViolation(f"{name} is invited already: the invitation waits for an answer.")
    declined = (
        invitations.filter(
            username__iexact=name,
            status=Status.DECLINED,
            answered_at__gt=timezone.now() - ASK_AGAIN_AFTER,
        )
        .order_by("-answered_at")
        .first()
    )
    if declined is not None:
        again = timezone.localdate(declined.answered_at + ASK_AGAIN_AFTER)
        raise RuleViolation(
            f"{name} declined on {timezone.localdate(declined.answered_at):%d %b %Y}: you may "
            f"invite him again from {again:%d %b %Y}."
        )
    if invitations.pending().count() >= MOST_PENDING:
        raise RuleViolation(
            f"{MOST_PENDING} invitations already wait for an answer: withdraw one first."
        )
    invitation = OrganiserInvitation.objects.create(
        campaign=campaign, username=name, invited_by=actor
    )
    record_event(
        campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} invited {name} to co-organise the campaign.",
    )
    return invitation


def _lock_invitation(invitation: OrganiserInvitation) -> OrganiserInvitation:
    """The invitation read afresh under its lock, after its campaign's (the order every
    change of who organises takes: campaign, invitation, membership)."""
    _lock_campaign(invitation.campaign)
    return (
        OrganiserInvitation.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign", "invited_by")
        .get(pk=invitation.pk)
    )


def _require_pending(invitation: OrganiserInvitation) -> None:
    if invitation.status == Status.PENDING:
        return
    by = invitation.answered_by.username if invitation.answered_by_id else "an organiser"
    raise RuleViolation(
        {
            Status.ACCEPTED: f"The invitation was accepted already: {invitation.username} "
            "co-organises the campaign.",
            Status.DECLINED: f"The invitation was declined already by {invitation.username}.",
            Status.WITHDRAWN: f"The invitation was withdrawn by {by}.",
        }[invitation.status]
    )


def _require_addressed(invitation: OrganiserInvitation, actor) -> None:
    if not OrganiserInvitation.objects.filter(pk=invitation.pk).addressed_to(actor).exists():
        raise PermissionDenied("This invitation is not addressed to you.")


@transaction.atomic
def accept_invitation(invitation: OrganiserInvitation, *, actor) -> Membership:
    """The holder of the invited name becomes an organiser of the campaign (joining it if he
    is not in it; back in it if an organiser removed him after this invitation was sent, which
    would have withdrawn it)."""
    invitation = _lock_invitation(invitation)
    _require_addressed(invitation, actor)
    _require_pending(invitation)
    campaign = invitation.campaign
    if not campaign.is_open:
        raise RuleViolation(f"{campaign.name} is closed: it takes no new organisers.")
    membership = (
        Membership.objects.select_for_update(no_key=True)
        .filter(campaign=campaign, user=actor)
        .first()
    )
    joined = membership is None or not membership.is_active
    if membership is None:
        membership = Membership(campaign=campaign, user=actor)
    membership.is_active = membership.is_organiser = True
    membership.save()
    cache.changed(campaign=campaign, throughout=True)  # who may do what, on every page
    invitation.status, invitation.answered_at = Status.ACCEPTED, timezone.now()
    invitation.answered_by = actor
    invitation.save(update_fields=["status", "answered_at", "answered_by"])
    inviter = invitation.invited_by.username
    record_event(
        campaign,
        CampaignEvent.Kind.JOINED if joined else CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} joined the campaign as a co-organiser, invited by {inviter}."
        if joined
        else f"{actor.username} accepted {possessive(inviter)} invitation and now co-organises "
        "the campaign.",
    )
    return membership


@transaction.atomic
def decline_invitation(invitation: OrganiserInvitation, *, actor) -> OrganiserInvitation:
    """The holder of the invited name says no; the campaign may ask him again after
    ``ASK_AGAIN_AFTER``."""
    invitation = _lock_invitation(invitation)
    _require_addressed(invitation, actor)
    _require_pending(invitation)
    invitation.status, invitation.answered_at = Status.DECLINED, timezone.now()
    invitation.answered_by = actor
    invitation.save(update_fields=["status", "answered_at", "answered_by"])
    record_event(
        invitation.campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} declined to co-organise the campaign.",
    )
    return invitation


@transaction.atomic
def withdraw_invitation(invitation: OrganiserInvitation, *, actor) -> OrganiserInvitation:
    """An organiser of the campaign takes back an invitation still waiting for its answer."""
    require_organiser(actor, invitation.campaign)
    invitation = _lock_invitation(invitation)
    _require_pending(invitation)
    invitation.status, invitation.answered_at = Status.WITHDRAWN, timezone.now()
    invitation.answered_by = actor
    invitation.save(update_fields=["status", "answered_at", "answered_by"])
    record_event(
        invitation.campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} withdrew the invitation of {invitation.username} to co-organise.",
    )
    return invitation


def withdraw_invitations_to(campaign: Campaign, username: str, *, actor) -> None:
    """Every pending invitation of the campaign to ``username``, withdrawn (inside the
    caller's transaction: a player removed is not brought back by an earlier invitation)."""
    OrganiserInvitation.objects.pending().filter(
        campaign=campaign, username__iexact=username
    ).update(status=Status.WITHDRAWN, answered_at=timezone.now(), answered_by=actor)
    cache.changed(campaign=campaign)


@transaction.atomic
def step_down(campaign: Campaign, *, actor) -> Membership:
    """The actor stops organising and stays in the campaign as a player. The campaign keeps
    at least one organiser: its row is locked, so two organisers stepping down at once do not
    leave it with none."""
    require_organiser(actor, campaign)
    campaign = _lock_campaign(campaign)
    organisers = list(Membership.objects.organisers().filter(campaign=campaign))
    mine = next((m for m in organisers if m.user_id == actor.pk), None)
    if mine is None:
        raise PermissionDenied("Only the campaign's organisers may do this.")
    if len(organisers) == 1:
        raise RuleViolation(
            "You are the campaign's only organiser: invite a co-organiser, and once he has "
            "accepted, step down."
        )
    mine.is_organiser = False
    mine.save(update_fields=["is_organiser"])
    cache.changed(campaign=campaign, throughout=True)  # who may do what, on every page
    record_event(
        campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} stepped down as organiser and stays in the campaign as a player.",
    )
    return mine
