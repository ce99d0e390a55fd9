"""Who may see or do what in a campaign.

Views start with an accessor from their app's ``permissions`` module (here
``get_campaign_for_user(request, pk, organiser=True)``) that returns the object or raises: 404
when the user is not in the object's campaign (so a stranger cannot even learn that it
exists), 403 when they may see it but not change it. Members (players and organisers) read
everything in their campaign that is not a warband's secret; organisers run it.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from campaign.models import Campaign, Membership
from core.queries import one


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
    campaign = None
    if request.user.is_authenticated:  # else no membership, and so a 404 below
        campaign = one(Campaign.objects.filter(pk=pk))
    found = membership(request.user, campaign) if campaign else None
    if found is None:
        raise Http404("No such campaign.")
    if organiser and not found.is_organiser:
        raise PermissionDenied("Only the campaign's organisers may do this.")
    if (organiser or write) and not campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    return campaign
