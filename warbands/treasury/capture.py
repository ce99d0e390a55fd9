"""Treasure that leaves a warband against its will: a container captured by an enemy, one
lost for good, and the unstored treasure lost at the end of a post-battle sequence.

A container goes with whatever it carries (the chests on a pack animal, the containers in a
cart); the ledger of each warband records what it lost or gained, so that from then on the
contents are the new holder's secret.
"""

from __future__ import annotations

from django.db import transaction

from campaign import cache
from core.errors import RuleViolation
from warbands.models import LedgerEntry, StorageContainer, VesselItem, Warband
from warbands.treasury.containers import number_alike
from warbands.treasury.ledger import (
    Context,
    Reason,
    add_treasure,
    lock_containers,
    lock_warbands,
    remove_item,
    write_entry,
)


def _with_descendants(container: StorageContainer) -> list[StorageContainer]:
    """The container and everything it carries, at any depth (a chest on an animal in a
    cart), the container first."""
    found = [container]
    frontier = [container.pk]
    while frontier:
        children = list(StorageContainer.objects.filter(parent_id__in=frontier))
        found.extend(children)
        frontier = [c.pk for c in children]
    return found


@transaction.atomic
def capture_container(
    container: StorageContainer, captor: Warband, *, battle=None, actor=None, step=0
) -> StorageContainer:
    """An enemy secured the container: it moves to ``captor`` with its contents (and whatever
    it carries: the chests on a pack animal, the containers in a cart). Both ledgers record
    it; from now on its contents are the captor's secret and the former owner keeps only what
    its own ledger shows."""
    if container.kind == StorageContainer.LOOSE or container.kind == "pouch":
        raise RuleViolation("A pouch is lost only with its hero; it cannot be captured.")
    loser_id = container.warband_id
    if loser_id == captor.pk:
        raise RuleViolation("A warband cannot capture its own container.")
    lock_warbands(loser_id, captor.pk)
    locked = lock_containers(*_with_descendants(container))
    cache.changed(warband=[loser_id, captor.pk])
    names = StorageContainer.objects.held().filter(warband_id=captor.pk).exclude(label="")
    taken = {label.lower() for label in names.values_list("label", flat=True)}
    context = Context(
        actor=actor, step=step, battle=battle, note=f"{container.get_kind_display()} captured"
    )
    for box in locked:
        stored = list(box.stored_items.all())
        for warband_id, sign in ((loser_id, -1), (captor.pk, 1)):
            for kind, amount in (
                (LedgerEntry.Kind.GOLD, box.gold_crowns),
                (LedgerEntry.Kind.WYRDSTONE, box.wyrdstone),
            ):
                if amount:
                    write_entry(
                        box, kind, sign * amount, Reason.CAPTURE, context, warband_id=warband_id
                    )
            for item in stored:
                write_entry(
                    box,
                    LedgerEntry.Kind.ITEM,
                    sign,
                    Reason.CAPTURE,
                    context,
                    item=item.item,
                    item_name=item.name,
                    warband_id=warband_id,
                    correction_id=item.correction_id,
                )
        box.warband_id = captor.pk
        box.holder = None
        # Its number is the loser's: numbered anew below, among the captor's. So is a name
        # that one of the captor's own already has (two alike could not be told apart);
        # another name stays with it.
        box.number = None
        if box.label.lower() in taken:
            box.label = ""
        taken.add(box.label.lower())
        box.save(update_fields=["warband", "holder", "label", "number"])
    for kind in {box.kind for box in locked}:
        number_alike(captor.pk, kind, locked)
    # The captured container leaves whatever carried it; what it carries goes along.
    top = locked[0]
    if top.parent_id:
        top.parent = None
        top.save(update_fields=["parent"])
    VesselItem.objects.filter(coach__in=[c.pk for c in locked]).update(coach=None)
    return top


@transaction.atomic
def lose_container(container: StorageContainer, *, actor=None, battle=None, step=None) -> None:
    """The container (with whatever it carries) is gone for good: left behind on the table,
    or lost with its hero. Its contents leave the ledger as a loss."""
    context = Context(actor=actor, step=step, battle=battle, note=f"{container} lost")
    cache.changed(warband=container.warband_id)
    for box in lock_containers(*_with_descendants(container)):
        if box.gold_crowns or box.wyrdstone:
            add_treasure(
                box, gold=-box.gold_crowns, wyrdstone=-box.wyrdstone, reason=Reason.LOSS,
                context=context,
            )  # fmt: skip
        for stored in list(box.stored_items.all()):
            remove_item(stored, reason=Reason.LOSS, context=context)
        box.refresh_from_db()
        box.status = StorageContainer.Status.LOST
        box.holder = None
        box.save(update_fields=["status", "holder"])
    VesselItem.objects.filter(coach=container).update(coach=None)


@transaction.atomic
def settle_unstored_treasure(
    warband: Warband, *, actor=None, step: int | None = None
) -> dict[str, object]:
    """MiM: "Any gold crowns, wyrdstone, and/or stored items that do not have a storage
    container to be placed in are lost at the end of any post battle sequence." Empties the
    warband's pile of unstored treasure with "loss" entries and returns what was lost."""
    pile = StorageContainer.objects.filter(warband=warband, kind=StorageContainer.LOOSE).first()
    lost = {"gold": 0, "wyrdstone": 0, "items": []}
    if pile is None or pile.is_empty:
        return lost
    (pile,) = lock_containers(pile)
    context = Context(actor=actor, step=step, note="No container to hold it")
    lost["gold"], lost["wyrdstone"] = pile.gold_crowns, pile.wyrdstone
    if pile.gold_crowns or pile.wyrdstone:
        add_treasure(
            pile,
            gold=-pile.gold_crowns,
            wyrdstone=-pile.wyrdstone,
            reason=Reason.LOSS,
            context=context,
        )
    for stored in list(pile.stored_items.all()):
        lost["items"].append(stored.name)
        remove_item(stored, reason=Reason.LOSS, context=context)
    return lost
