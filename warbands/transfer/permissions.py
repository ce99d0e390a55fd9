"""Who may carry a warband out of its campaign, and who may import a warband file into one.

Only the owner carries his warband, and only into a running campaign he is a member of whose
organisers allow it; a member imports a file only where the organisers allow imports. The
services check again under their locks (``services.carry_warband``, ``importing``).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from campaign.models import Campaign
from campaign.permissions import get_campaign_for_user
from warbands.models import Warband
from warbands.permissions import get_warband_for_user


def may_offer_carry(user, warband: Warband) -> bool:
    """The roster offers "Carry into another campaign": to its owner, once it is mustered,
    from a running or closed campaign (an archived one is put away for good)."""
    return (
        user.is_authenticated
        and warband.owner_id == user.pk
        and warband.status != Warband.Status.DRAFT
        and warband.campaign.status != Campaign.Status.ARCHIVED
    )


def get_carried_warband(request: HttpRequest, pk: int) -> Warband:
    """The warband, for its owner (404 for strangers, 403 for the other members)."""
    warband = get_warband_for_user(request, pk)
    if warband.owner_id != request.user.pk:
        raise PermissionDenied("Only the warband's owner may carry it into another campaign.")
    return warband


def carry_targets(user, warband: Warband):
    """The running campaigns the user is a member of that take warbands from elsewhere, its
    own aside."""
    return (
        Campaign.objects.for_user(user)
        .filter(carrying_allowed=True, status=Campaign.Status.OPEN)
        .exclude(pk=warband.campaign_id)
        .order_by("name", "pk")
    )


def get_import_campaign(request: HttpRequest, pk: int) -> Campaign:
    """The campaign, for its members (404 for anyone else); a closed one refuses (403)."""
    return get_campaign_for_user(request, pk, write=True)
