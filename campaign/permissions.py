"""Who may see or do what in a campaign.

Views start with an accessor from their app's ``permissions`` module (here
``get_campaign_for_user(request, pk, organiser=True)``) that returns the object or raises: 404
when the user is not in the object's campaign (so a stranger cannot even learn that it
exists), 403 when they may see it but not change it. Each accessor reads its object through
``members_only``: a stranger's request reads exactly what a request for an id that does not
exist reads, and is answered the same, before anything else is read. Members (players and
organisers) read everything in their campaign that is not a warband's secret; organisers run
it.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from campaign.models import Campaign, Membership, OrganiserInvitation
from core.queries import one


def members_only(queryset: QuerySet, user) -> QuerySet:
    """``queryset`` narrowed, in the same statement, to the rows of the campaigns ``user`` is
    an active member of (by the model's ``CAMPAIGN_PATH``); nothing at all for a visitor who
    is not logged in, without a query. A row of another campaign is then not found, exactly
    as a row that does not exist: no answer, status, body or number of queries tells them
    apart."""
    if not user.is_authenticated:
        return queryset.none()
    path = queryset.model.CAMPAIGN_PATH
    prefix = "" if path == "pk" else f"{path}__"
    return queryset.filter(
        **{f"{prefix}memberships__user": user, f"{prefix}memberships__is_active": True}
    )


def membership(user, campaign: Campaign) -> Membership | None:
    """The user's active membership of the campaign (a removed player has none), read once
    per loaded campaign."""
    if not user.is_authenticated:
        return None
    known = getattr(campaign, "_memberships", None)
    if known is None:
        known = campaign._memberships = {}
    if user.pk not in known:
        known[user.pk] = one(
            Membership.objects.filter(campaign=campaign, user=user, is_active=True)
        )
    return known[user.pk]


def is_member(user, campaign: Campaign) -> bool:
    return membership(user, campaign) is not None


def is_organiser(user, campaign: Campaign) -> bool:
    found = membership(user, campaign)
    return found is not None and found.is_organiser


def can_run_campaign(user, campaign: Campaign) -> bool:
    """Organisers (the creator and co-organisers) run an open campaign."""
    return campaign.is_open and is_organiser(user, campaign)


def get_campaign_for_user(
    request: HttpRequest, pk: int, *, organiser: bool = False, write: bool = False
) -> Campaign:
    """The campaign, for its members (404 for anyone else). ``organiser``: only organisers
    (403); ``write``: the campaign must be open (403 once closed or archived)."""
    campaign = one(members_only(Campaign.objects.filter(pk=pk), request.user))
    found = membership(request.user, campaign) if campaign else None
    if found is None:
        raise Http404("No such campaign.")
    if organiser and not found.is_organiser:
        raise PermissionDenied("Only the campaign's organisers may do this.")
    if (organiser or write) and not campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    return campaign


def get_invitation_for_user(request: HttpRequest, pk: int) -> OrganiserInvitation:
    """An invitation to co-organise, for the holder of the username it names, whatever became
    of it (it says so); for anyone else, the organisers who sent it included, the answer for
    an invitation that does not exist (404): only its addressee answers it."""
    invitation = one(
        OrganiserInvitation.objects.addressed_to(request.user)
        .select_related("campaign", "invited_by")
        .filter(pk=pk)
    )
    if invitation is None:
        raise Http404("No such invitation.")
    return invitation
