"""What becomes of a request: an organiser approves it (it applies, or lapses when the roster
moved on since it was asked) or refuses it with a reason; whoever asked may withdraw it while
it waits.

Approving locks the warband's row, then the warrior's (``applying``), then the request's own
row, and reads the request's state under that last lock: two organisers approving at once,
an approval against a withdrawal, or an approval against the owner's post-battle step (which
locks the warriors it changes) apply one after the other, and a request applies at most once.
Refusing and withdrawing lock only the request's row: they change nothing else, so they can
never wait on an approval in the opposite order.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from campaign import cache
from core.errors import RuleViolation
from core.queries import one
from warbands import permissions
from warbands.corrections import applying
from warbands.models import Correction, Warband

Status = Correction.Status


def _locked(correction: Correction, warband: Warband) -> Correction:
    """The request's row, locked and read afresh (its warband the caller's), while it waits."""
    found = one(
        Correction.objects.select_for_update(of=("self",), no_key=True)
        .select_related("actor")
        .filter(pk=correction.pk, warband=warband)
    )
    if found is None:
        raise RuleViolation("No such request: reload the page.")
    found.warband = warband
    if not found.is_pending:
        by = f" by {found.decided_by.username}" if found.decided_by_id else ""
        raise RuleViolation(
            f"That request is {found.get_status_display().lower()}{by} already: nothing changed."
        )
    return found


def _decided(correction: Correction, status: str, actor, decision: str = "") -> Correction:
    cache.changed(campaign=correction.warband.campaign_id, warband=correction.warband_id)
    correction.status, correction.decision = status, decision[:300]
    correction.decided_at = timezone.now()
    correction.decided_by = actor if status != Status.WITHDRAWN else None
    correction.save(update_fields=["status", "decision", "decided_at", "decided_by", "announced"])
    return correction


@transaction.atomic
def approve(correction: Correction, *, actor) -> Correction:
    """Apply a waiting request as it was asked, or close it as lapsed (``Status.LAPSED``,
    with why) when the warrior has left the roster or what it changes moved since."""
    warband = applying.locked_warband(correction.warband_id)
    if not warband.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    if not permissions.approves_corrections(actor, warband):
        raise PermissionDenied(
            "Only an organiser approves corrections, and another one those of his own warband "
            "or while he plays himself."
        )
    warrior = applying.locked_warrior(warband, correction.warrior_id)
    correction = _locked(correction, warband)
    try:
        if warband.status != Warband.Status.ACTIVE:
            raise applying.Lapsed(f"{warband.name} no longer plays.")
        if warrior is None:
            raise applying.Lapsed(f"{correction.warrior_name} is no longer on the roster.")
        with transaction.atomic():  # a lapse undoes nothing it had not written
            applying.apply(correction, warrior)
    except applying.Lapsed as lapse:
        return _decided(correction, Status.LAPSED, actor, str(lapse))
    correction.announced = warband.owner_id == actor.pk
    _decided(correction, Status.APPLIED, actor)
    applying.tell_feed(correction, warband, actor=actor)
    return correction


@transaction.atomic
def refuse(correction: Correction, *, actor, reason: str) -> Correction:
    """Close a waiting request unapplied, saying why (the asker reads it on his page)."""
    warband = Warband.objects.select_related("campaign").get(pk=correction.warband_id)
    if not warband.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    if not permissions.approves_corrections(actor, warband):
        raise PermissionDenied(
            "Only an organiser refuses corrections, and another one those of his own warband "
            "or while he plays himself."
        )
    reason = " ".join(reason.split())
    if not reason:
        raise RuleViolation("Say why it is refused: the player reads it.")
    return _decided(_locked(correction, warband), Status.REFUSED, actor, reason)


@transaction.atomic
def withdraw(correction: Correction, *, actor) -> Correction:
    """Take back one's own request while it waits."""
    warband = Warband.objects.select_related("campaign").get(pk=correction.warband_id)
    if not warband.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    correction = _locked(correction, warband)
    if correction.actor_id != actor.pk:
        raise PermissionDenied("Only whoever asked withdraws a request.")
    return _decided(correction, Status.WITHDRAWN, actor)
