"""Reads of the treasury: a warband's containers, their contents and its totals.

What these return is secret (``permissions.ContainerView``): the pages show it to the owner
only, and to others no more than the kind of each container.
"""

from __future__ import annotations

from django.db.models import Prefetch, Q, Sum, prefetch_related_objects

from warbands.models import StorageContainer, Warband


def containers_of(warband: Warband):
    """The warband's containers, with the pile of unstored treasure only when it holds any."""
    return (
        StorageContainer.objects.held()
        .filter(warband=warband)
        .exclude(Q(kind=StorageContainer.LOOSE, gold_crowns=0, wyrdstone=0, item_count=0))
        .for_treasury()
    )


def totals(warband: Warband) -> dict[str, int]:
    """The warband's gold, wyrdstone and stored items across all containers (secret)."""
    sums = (
        StorageContainer.objects.held()
        .filter(warband=warband)
        .aggregate(
            gold=Sum("gold_crowns", default=0),
            wyrdstone=Sum("wyrdstone", default=0),
            items=Sum("item_count", default=0),
        )
    )
    return sums


def totals_by_warband(campaign) -> dict[int, tuple[int, int]]:
    """Each warband's gold crowns and wyrdstone shards across the containers it holds in
    ``campaign``, by warband id: one grouped query. Secret: read only where
    ``warbands.permissions.treasury_totals_public`` allows it."""
    rows = (
        StorageContainer.objects.held()
        .filter(warband__campaign=campaign)
        .values("warband")
        .annotate(gold=Sum("gold_crowns", default=0), wyrdstone=Sum("wyrdstone", default=0))
        .values_list("warband", "gold", "wyrdstone")
    )
    return {warband: (gold, wyrdstone) for warband, gold, wyrdstone in rows}


def totals_of(held: list[StorageContainer]) -> dict[str, int]:
    """``totals`` from the warband's held containers already loaded (the pile included)."""
    return {
        "gold": sum(c.gold_crowns for c in held),
        "wyrdstone": sum(c.wyrdstone for c in held),
        "items": sum(c.item_count for c in held),
    }


CONTAINER_FIELDS = tuple(f.name for f in StorageContainer._meta.concrete_fields)
# A container's stored items as a list (``stored_list``, in the model's order): Django builds
# no queryset per container for a list, as it does for a related manager.
STORED_LIST = Prefetch("stored_items", to_attr="stored_list")


def held_containers(warband: Warband, *, items: bool = True) -> list[StorageContainer]:
    """The warband's held containers (the pile included) for a page: holder, parent and (with
    ``items``) stored items loaded, and ``warband`` set to the caller's (its campaign, owner and
    the viewer's membership loaded with it, so they are not read again)."""
    held = (
        StorageContainer.objects.held()
        .filter(warband=warband)
        .select_related("holder", "parent")
        # Of the carrier and the hero, only what names them: a hero has some forty fields.
        .only(*CONTAINER_FIELDS, "holder__name", "parent__kind", "parent__label", "parent__number")
        .order_by("kind", "pk")
    )
    if items:
        held = held.prefetch_related(STORED_LIST)
    containers = list(held)
    for container in containers:
        container.warband = warband
    return containers


def with_stored_items(containers: list[StorageContainer]) -> None:
    """Read the stored items of ``containers`` in one query, as ``container.stored_list``."""
    prefetch_related_objects(containers, STORED_LIST)


def loose_pile(warband: Warband) -> StorageContainer:
    """The warband's pile of unstored treasure (MiM: what has no container yet), made the
    first time something lands there."""
    pile, _ = StorageContainer.objects.get_or_create(warband=warband, kind=StorageContainer.LOOSE)
    pile.warband = warband  # the caller's: the treasury need not read it again
    return pile


def made(container: StorageContainer) -> StorageContainer:
    """A container a form chose (``forms.ContainerField``): the unstored pile, made now when it
    was chosen before the warband had one. Called inside the change's transaction, so that a
    refusal leaves no pile behind."""
    return loose_pile(container.warband) if container.pk is None else container
