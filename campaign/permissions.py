"""The one place that answers "may this user see or do this?".

Views start with an accessor from here (``get_warband_for_user(request, pk, write=True)``) that
returns the object or raises: 404 when the user is not in the object's campaign (so a stranger
cannot even learn that it exists), 403 when they may see it but not change it.

Roles in a campaign: its members (players and organisers) may read every roster of it; only a
warband's owner changes it. Organisers run the campaign but do not edit other players'
warbands: a roster page under edit shows the muster purse, which becomes the secret treasury.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from campaign.models import Campaign, Membership
from warbands.models import Warband, Warrior


def membership(user, campaign: Campaign) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(campaign=campaign, user=user).first()


def is_member(user, campaign: Campaign) -> bool:
    return membership(user, campaign) is not None


def is_organiser(user, campaign: Campaign) -> bool:
    found = membership(user, campaign)
    return found is not None and found.is_organiser


def can_edit_warband(user, warband: Warband) -> bool:
    return user.is_authenticated and warband.owner_id == user.pk


def can_see_treasury(user, warband: Warband) -> bool:
    """The warband's gold and wyrdstone are the owner's secret (Mayhem in Mordheim: contents
    need not be revealed); an organiser sees them only when the campaign says so."""
    if can_edit_warband(user, warband):
        return True
    return warband.campaign.organiser_sees_secrets and is_organiser(user, warband.campaign)


def get_campaign_for_user(request: HttpRequest, pk: int) -> Campaign:
    campaign = Campaign.objects.filter(pk=pk).first()
    if campaign is None or not is_member(request.user, campaign):
        raise Http404("No such campaign.")
    return campaign


def get_warband_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> Warband:
    warband = (
        Warband.objects.select_related("campaign", "owner", "warband_type").filter(pk=pk).first()
    )
    if warband is None or not is_member(request.user, warband.campaign):
        raise Http404("No such warband.")
    if write and not can_edit_warband(request.user, warband):
        raise PermissionDenied("Only the warband's owner may change it.")
    return warband


def get_warrior_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> Warrior:
    warrior = (
        Warrior.objects.select_related(
            "warband", "warband__campaign", "warband__owner", "warband__warband_type"
        )
        .filter(pk=pk)
        .first()
    )
    if warrior is None:
        raise Http404("No such warrior.")
    get_warband_for_user(request, warrior.warband_id, write=write)
    return warrior
