"""Who may do what with a captive (campaigns text, Captured): the captor's player decides his
fate, the captive's own player pays or accepts for him, and the two players and the
campaign's organisers see the captives page (ransoms are the two players' business)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from battles.models import Captive
from campaign.permissions import is_organiser
from warbands.models import Warband
from warbands.permissions import can_edit_warband


def may_see_captives(user, warband: Warband) -> bool:
    """The warband's player and the campaign's organisers open its captives page: ransoms
    are the two players' business."""
    return warband.owner_id == user.pk or is_organiser(user, warband.campaign)


def check_sees_captives(user, warband: Warband) -> None:
    if not may_see_captives(user, warband):
        raise PermissionDenied("A warband's captives are its player's business.")


def check_captor(actor, captive: Captive) -> None:
    if not can_edit_warband(actor, captive.captor):
        raise PermissionDenied("Only the captor's player decides what becomes of a captive.")


def check_owner(actor, captive: Captive) -> None:
    if not can_edit_warband(actor, captive.warrior.warband):
        raise PermissionDenied("Only the captive's own player pays or accepts for him.")
