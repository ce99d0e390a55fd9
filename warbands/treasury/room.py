"""Where else treasure would fit. A capacity refusal ("Only 50 gc fit in the Large Sack") is
no dead end: it names the warband's other containers with room left and how much, or, when
none has any, what the player can do instead (MiM storage containers: each container holds
up to its maximum of each kind; what has no container when the post-battle sequence ends is
lost, so it may wait unstored until then).

The refusal is computed here alone (``ledger.check_contents`` calls ``explain``), from the
balances of the change being checked (``known``) and the warband's other held containers as
the database has them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from warbands.models import LedgerEntry, StorageContainer
from warbands.rules import containers as rules

# (balance field, unit after a number): the three kinds of contents, in the rules' order.
KINDS = {
    "gold_crowns": "gc",
    "wyrdstone": "wyrdstone",
    "item_count": "stored items",
}


def room_of(container: StorageContainer, children: Iterable[str] = ()) -> dict[str, int]:
    """How much more of each kind ``container`` can take: its maxima (a cart's less what is
    loaded on it) less what it holds. A pouch holding one kind has no room for the other."""
    capacity = rules.open_capacity(container.kind, children)
    room = {
        "gold_crowns": capacity.gold - container.gold_crowns,
        "wyrdstone": capacity.wyrdstone - container.wyrdstone,
        "item_count": capacity.items - container.item_count,
    }
    if container.spec.either_or:
        if container.wyrdstone:
            room["gold_crowns"] = 0
        if container.gold_crowns:
            room["wyrdstone"] = 0
    return {field: max(amount, 0) for field, amount in room.items()}


def overflowing(container: StorageContainer, children: Iterable[str] = ()) -> str | None:
    """The balance field over the container's maximum, if one is."""
    capacity = rules.open_capacity(container.kind, children)
    limits = (capacity.gold, capacity.wyrdstone, capacity.items)
    for field, limit in zip(KINDS, limits, strict=True):
        if getattr(container, field) > limit:
            return field
    if container.spec.either_or and container.gold_crowns and container.wyrdstone:
        return "gold_crowns"
    return None


def rooms_elsewhere(
    container: StorageContainer, field: str, known: Iterable[StorageContainer] = ()
) -> list[tuple[StorageContainer, int]]:
    """The warband's other containers with room for ``field``, and how much, in the order of
    the treasury page. ``known``: containers of the same change, with their new balances."""
    changed = {c.pk: c for c in known}
    held = [
        changed.get(c.pk, c)
        for c in StorageContainer.objects.real().filter(warband_id=container.warband_id)
    ]
    children = defaultdict(list)
    for other in held:
        if other.parent_id:
            children[other.parent_id].append(other.kind)
    rooms = []
    for other in sorted(held, key=lambda c: c.pk):
        if other.pk == container.pk:
            continue
        room = room_of(other, children[other.pk])[field]
        if room:
            rooms.append((other, room))
    return rooms


def way_out(field: str, step: int | None, reason: str | None) -> str:
    """What works when no container has room: in the post-battle sequence the treasure may
    wait unstored (lost if still unstored when it ends); outside it, it stays where it is."""
    if step is None:
        return (
            "No other container has room for it: leave it where it is, or buy another container "
            "(treasure chests, large sacks and backpacks here; rarer ones in step 9 of the "
            "post-battle sequence), then store the rest in it."
        )
    if reason == LedgerEntry.Reason.SALE and step == 4:
        start = "sell into “not stored yet” instead"
    else:
        start = "keep it not stored yet"
    uses = {
        "gold_crowns": "spend it in steps 6 to 8",
        "wyrdstone": "sell it in step 4" if step <= 4 else "",
        "item_count": "give it to a warrior who can use it",
    }[field]
    spend = f", {uses}" if uses else ""
    return (
        f"No other container has room for it: {start}{spend}, or buy a container in step 9, "
        "then store the rest. Whatever is still not stored when the sequence ends is lost."
    )


def explain(
    refusal: str,
    container: StorageContainer,
    children: Iterable[str] = (),
    *,
    known: Iterable[StorageContainer] = (),
    step: int | None = None,
    reason: str | None = None,
) -> str:
    """The capacity ``refusal`` for ``container``, followed by where the treasure would fit
    ("Room left: Treasure Chest 34 gc, Large Sack 2 50 gc.") or the way out when nowhere."""
    field = overflowing(container, children)
    if field is None:  # not a capacity refusal (a negative balance): nothing to add
        return refusal
    # The rules name the kind alone; the owner tells "Large Sack 2" from the other sacks.
    refusal = refusal.replace(f"the {container.spec.name} ", f"the {container} ", 1)
    rooms = rooms_elsewhere(container, field, known)
    if not rooms:
        return f"{refusal} {way_out(field, step, reason)}"
    unit = KINDS[field]
    listed = ", ".join(f"{other} {room} {unit}" for other, room in rooms)
    return f"{refusal} Room left: {listed}."
