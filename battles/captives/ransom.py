"""A ransom (campaigns text, Captured: "a price set by the captor"): the captor asks it, names
the container it goes into, changes or withdraws it; the captive's player pays it from one of
his containers, whole, and the hero comes back with all his equipment. The amount is known
to both players, never to the campaign feed; the captor's container stays his secret."""

from __future__ import annotations

from django.db import transaction

from battles.captives.holding import (
    Reason,
    announce,
    ledger_context,
    lock_captives,
    lock_containers,
    own_container,
    resolve,
    tell_owner,
)
from battles.captives.permissions import check_captor, check_owner
from battles.models import Captive
from campaign.models import CampaignEvent
from core.errors import RuleViolation
from warbands import treasury
from warbands.models import StorageContainer, Warband, Warrior
from warbands.permissions import secret_refusals


@transaction.atomic
def set_ransom(
    captive: Captive, *, actor, ransom: int | None, into: StorageContainer | None
) -> Captive:
    """The captor asks a ransom (campaigns text: "a price set by the captor"), or changes or
    withdraws it (``ransom`` None); ``into``: his container that will receive it."""
    captive = lock_captives(captive.pk)[captive.pk]
    check_captor(actor, captive)
    if ransom is not None and ransom < 1:
        raise RuleViolation("Ask at least 1 gc, or leave the ransom empty to withdraw it.")
    if ransom is not None:
        into = own_container(into, captive.captor, "the ransom")
        if into.kind == StorageContainer.LOOSE:
            raise RuleViolation("Choose one of your containers for the ransom.")
    elif captive.ransom is None:
        raise RuleViolation("No ransom is asked for him: nothing changed.")
    asked = captive.ransom is not None
    captive.ransom = ransom
    captive.ransom_into = into if ransom is not None else None
    captive.save(update_fields=["ransom", "ransom_into"])
    name, owner = captive.warrior.name, captive.warrior.warband.name
    if ransom is None:
        said = f"withdraws the ransom asked for {name} of {owner}"
    else:
        said = f"{'changes the' if asked else 'asks a'} ransom for {name} of {owner}"
    announce(captive, CampaignEvent.Kind.CAPTURED, f"{captive.captor.name} {said}.")
    if ransom is not None:
        tell_owner(captive, kind="ransom")
    return captive


@transaction.atomic
def pay_ransom(captive: Captive, *, actor, pay_from: StorageContainer, amount: int) -> Captive:
    """The captive's player pays the ransom from one of his containers into the one the captor
    named; the hero returns with all his equipment. ``amount``: the ransom as his page showed
    it (one changed meanwhile is refused)."""
    captive = lock_captives(captive.pk)[captive.pk]
    check_owner(actor, captive)
    owner, captor, name = captive.warrior.warband, captive.captor, captive.warrior.name
    if captive.ransom is None or captive.ransom_into_id is None:
        raise RuleViolation(f"{captor.name} asks no ransom for {name}.")
    if captive.ransom != amount:
        raise RuleViolation(f"The ransom is now {captive.ransom} gc: check it and pay again.")
    treasury.lock_warbands(owner.pk, captor.pk)
    pay_from, into = lock_containers(pay_from, captive.ransom_into)
    pay_from = own_container(pay_from, owner, "the ransom")
    if into.warband_id != captor.pk or into.status != StorageContainer.Status.HELD:
        raise RuleViolation(
            f"{captor.name} can no longer receive the ransom there: ask them to set it again."
        )
    if pay_from.gold_crowns < amount:
        raise RuleViolation(f"The {pay_from} holds only {pay_from.gold_crowns} gc.")
    note = f"ransom for {name}"
    paid = ledger_context(actor, captive, note)
    treasury.add_treasure(pay_from, gold=-amount, reason=Reason.PURCHASE, context=paid)
    # The captor's container is his secret: what its refusal would say is not told.
    received = ledger_context(actor, captive, f"{note} of {owner.name}")
    with treasury_refusals(actor, captor):
        treasury.add_treasure(into, gold=amount, reason=Reason.INCOME, context=received)
    resolve(captive, Captive.Status.RANSOMED, Warrior.Status.ACTIVE)
    announce(
        captive, CampaignEvent.Kind.CAPTURED,
        f"{owner.name} ransomed {name} back from {captor.name}.", owner,
    )  # fmt: skip
    return captive


def treasury_refusals(actor, warband: Warband):
    """Around a change of ``warband``'s container made for another player: a refusal names
    that container or what it holds, so he hears only that it cannot be done."""
    return secret_refusals(
        actor, warband,
        neutral=f"{warband.name} cannot receive the ransom there now: ask them to set it again.",
    )  # fmt: skip
