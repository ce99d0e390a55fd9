"""An exchange of captives (campaigns text, Captured): a captor offers to give a captive back
for one of his own warriors whom the captive's warband holds, and the other player accepts;
each hero comes back with all his equipment."""

from __future__ import annotations

from django.db import transaction

from battles.captives.holding import announce, lock_captives, resolve, tell_owner
from battles.captives.permissions import check_captor, check_owner
from battles.models import Captive
from campaign.models import CampaignEvent
from core.errors import RuleViolation
from warbands import treasury
from warbands.models import Warrior


@transaction.atomic
def offer_exchange(captive: Captive, *, actor, for_captive: Captive | None) -> Captive:
    """The captor offers to give this captive back for ``for_captive``, one of his own
    warriors whom the captive's warband holds (None withdraws the offer). The other player
    accepts it (``accept_exchange``)."""
    pks = [captive.pk] + ([for_captive.pk] if for_captive else [])
    locked = lock_captives(*pks)
    captive = locked[captive.pk]
    check_captor(actor, captive)
    if for_captive is None:
        if captive.exchange_for_id is None:
            raise RuleViolation("No exchange is offered for him: nothing changed.")
        captive.exchange_for = None
        captive.save(update_fields=["exchange_for"])
        return captive
    theirs = locked[for_captive.pk]
    if (
        theirs.captor_id != captive.warrior.warband_id
        or theirs.warrior.warband_id != captive.captor_id
    ):
        raise RuleViolation(
            f"{theirs.warrior.name} is not one of yours held by {captive.warrior.warband.name}."
        )
    captive.exchange_for = theirs
    captive.save(update_fields=["exchange_for"])
    announce(
        captive, CampaignEvent.Kind.CAPTURED,
        f"{captive.captor.name} offer {captive.warrior.warband.name} an exchange of captives: "
        f"{captive.warrior.name} for {theirs.warrior.name}.",
    )  # fmt: skip
    tell_owner(captive, kind="exchange")
    return captive


@transaction.atomic
def accept_exchange(captive: Captive, *, actor, offered: int) -> tuple[Captive, Captive]:
    """The captive's player accepts the captor's exchange: each warband gives back the other's
    hero, who returns with all his equipment. ``offered``: the captive of his own he was
    asked to give up, as his page showed it (an offer changed meanwhile is refused)."""
    seen = Captive.objects.filter(pk=captive.pk).values_list("exchange_for", flat=True).first()
    if seen is None or seen != offered:
        raise RuleViolation("The exchange offered has changed: reload the page.")
    locked = lock_captives(captive.pk, offered)
    captive, theirs = locked[captive.pk], locked[offered]
    check_owner(actor, captive)
    if captive.exchange_for_id != offered or theirs.captor_id != captive.warrior.warband_id:
        raise RuleViolation("The exchange offered has changed: reload the page.")
    treasury.lock_warbands(captive.captor_id, theirs.captor_id)
    for each in (captive, theirs):
        resolve(each, Captive.Status.EXCHANGED, Warrior.Status.ACTIVE)
    announce(
        captive, CampaignEvent.Kind.CAPTURED,
        f"{captive.warrior.warband.name} and {captive.captor.name} exchanged captives: "
        f"{captive.warrior.name} and {theirs.warrior.name} are back with their warbands.",
        captive.warrior.warband,
    )  # fmt: skip
    return captive, theirs
