"""The treasury's ledger: every change of a container's balances, written with the
``LedgerEntry`` rows that explain it, and the locks that keep two changes apart.

Invariant: treasure only moves through the functions of ``warbands.treasury``. Each one locks
the rows it changes and reads them afresh (``select_for_update``), checks the capacity rules of
``warbands.rules.containers``, updates the container balances and writes the ``LedgerEntry``
rows that explain them, all in one transaction. The database refuses negative and
over-capacity balances as a last line.

Every service of the app takes its row locks in one order, so that two requests never wait on
each other in opposite orders (a deadlock): a battle, then a post-battle sequence, then
captives, then warbands (by primary key), then storage containers (by primary key), then
stored items, then warriors' items, then warriors.
Every lock of the app is ``FOR NO KEY UPDATE`` (``select_for_update(no_key=True)``): no
service changes a primary key, and a plain ``FOR UPDATE`` would also hold off every insert of
a row that refers to the locked one (a ledger entry naming its warband takes a key-share lock
on the warband), which deadlocked a sale against a move into the sack being sold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects

from campaign import cache
from core.errors import RuleViolation
from core.noting import Noting
from warbands import permissions
from warbands.models import Item, LedgerEntry, StorageContainer, StoredItem, Warband, Warrior
from warbands.rules import containers as rules
from warbands.treasury import room

Reason = LedgerEntry.Reason
# The balance fields of a container, saved together with the entries that explain them.
BALANCES = ["gold_crowns", "wyrdstone", "item_count"]


@dataclass(frozen=True)
class Context:
    """Who changes the treasury, and in which battle and post-battle step (for the ledger)."""

    actor: object = None
    step: int | None = None
    note: str = ""
    battle: object = None
    # Called by a post-battle step's service, inside its transaction: a refusal undoes the
    # whole action (no step carries on after one), so the treasury needs no savepoint.
    in_step: bool = False


NO_CONTEXT = Context()


def atomic_change(context: Context | None):
    """The transaction of a treasury change: its own (a savepoint when nested, so that a
    view can refuse and still draw its page), or the step's (``Context.in_step``)."""
    return transaction.atomic(savepoint=not (context is not None and context.in_step))


def with_note(context: Context | None, actor, note: str) -> Context:
    """The caller's context (a post-battle step's battle and step) with this move's note."""
    if context is None:
        return Context(actor=actor, note=note)
    return replace(context, actor=actor, note=f"{context.note}: {note}" if context.note else note)


_entries = Noting("ledger entries")
# with noting_entries(rows): every ledger entry written inside is appended to rows (a post-battle
# step's journal, so that undo reverses exactly those).
noting_entries = _entries.into


def new_entry(
    container: StorageContainer,
    kind: str,
    amount: int,
    reason: str,
    context: Context,
    *,
    item: Item | None = None,
    item_name: str = "",
    reverses: LedgerEntry | None = None,
    warband_id: int | None = None,
    sold: StorageContainer | None = None,
    correction_id: int | None = None,
) -> LedgerEntry:
    """A ledger entry, not saved yet (``write_entry`` or ``save_balances`` write it). It
    belongs to the container's warband unless ``warband_id`` names another (a capture
    writes the loser's and the captor's entries for one container). ``correction_id``: the
    item it moves was added by that correction (``StoredItem.correction``)."""
    return LedgerEntry(
        warband_id=warband_id or container.warband_id,
        container=container,
        kind=kind,
        amount=amount,
        item=item,
        item_name=item_name or (item.name if item else ""),
        reason=reason,
        note=context.note[:200],
        battle=context.battle,
        step=context.step,
        actor=context.actor if getattr(context.actor, "is_authenticated", False) else None,
        reverses=reverses,
        sold_container=sold,
        correction_id=correction_id,
    )


def write_entry(container: StorageContainer, kind: str, amount: int, reason: str,
                context: Context, **extra) -> LedgerEntry:  # fmt: skip
    """Write one ledger entry and note it (``noting_entries``); a change of balances writes
    its entries with them instead (``save_balances``)."""
    entry = new_entry(container, kind, amount, reason, context, **extra)
    entry.save()
    cache.changed(warband=entry.warband_id)  # its treasury: the league never shows one
    _entries.note(entry.pk)
    return entry


def lock_containers(*containers: StorageContainer) -> list[StorageContainer]:
    """Lock the containers' rows and read them afresh, in the order given. The locks are taken
    in primary-key order, so two changes of the same containers never wait on each other in
    opposite orders (the lock order of every service: this module's docstring). A container
    gone meanwhile (a step that bought it undone by another tab, while this request waited for
    its lock) is refused with a message, as one sold or captured is."""
    pks = [c.pk for c in containers]
    locked = {
        c.pk: c
        for c in StorageContainer.objects.select_for_update(no_key=True)
        .filter(pk__in=pks)
        .order_by("pk")
    }
    gone = [c for c in containers if c.pk not in locked]
    if gone:
        raise RuleViolation(f"{sentence(gone[0].the)} is no longer there: reload the page.")
    return [locked[pk] for pk in pks]


def lock_held(*containers: StorageContainer) -> list[StorageContainer]:
    """``lock_containers`` for a change that needs the containers in the warband's hands: one
    sold, lost or captured meanwhile (by another tab, while this request waited for its lock)
    is refused with a message instead of breaking a constraint of the database."""
    locked = lock_containers(*containers)
    for container in locked:
        if container.status != StorageContainer.Status.HELD:
            raise RuleViolation(
                f"{sentence(container.the)} is no longer the warband's: reload the page."
            )
    return locked


def sentence(words: str) -> str:
    """ "the unstored treasure" → "The unstored treasure" (the rest as it is)."""
    return words[:1].upper() + words[1:]


def lock_warbands(*pks: int) -> None:
    """Lock the warbands' rows, in primary-key order (before any of their containers)."""
    list(
        Warband.objects.select_for_update(no_key=True)
        .filter(pk__in=sorted(set(pks)))
        .order_by("pk")
    )


def check_owner(actor, *containers: StorageContainer) -> None:
    """The actor may change these containers: the owner of their one warband, while it plays.
    The warband the caller loaded with them (and its campaign) is used when there is one;
    else it is read with its campaign, in one query (``prefetch_related_objects`` reads only
    what is not loaded yet)."""
    if len({c.warband_id for c in containers}) != 1:
        raise RuleViolation("Both containers must belong to the same warband.")
    warbands = Warband.objects.select_related("campaign")
    prefetch_related_objects(containers[:1], Prefetch("warband", queryset=warbands))
    warband = containers[0].warband
    if not permissions.can_edit_warband(actor, warband):
        raise PermissionDenied("Only the warband's owner may move its treasure.")
    holders = [c.holder_id for c in containers if c.holder_id]
    captive = (
        Warrior.objects.filter(pk__in=holders, status=Warrior.Status.CAPTURED).first()
        if holders
        else None
    )
    if captive is not None:  # campaigns text, 61 Captured: he keeps what he carries
        raise RuleViolation(
            f"{captive.name} is held captive: what he carries stays with him until he is back."
        )


def children_kinds(container: StorageContainer) -> list[str]:
    """The kinds of the containers placed on ``container``: they take up a carrier's room."""
    if container.kind not in rules.CARRIERS:
        return []  # only a carrier has anything placed on it (rules.check_placement)
    return list(container.children.values_list("kind", flat=True))


def check_contents(
    container: StorageContainer,
    *,
    known: Sequence[StorageContainer] = (),
    entries: Sequence[LedgerEntry] = (),
) -> None:
    """Refuse contents the container's kind cannot hold (``rules.check_contents``), saying
    where else they would fit (``room.explain``: ``known``, the change's containers with their
    new balances; ``entries``, its ledger entries, which name its step); the pile of unstored
    treasure holds anything."""
    if container.kind == StorageContainer.LOOSE:
        return
    children = children_kinds(container)
    try:
        rules.check_contents(container.kind, container.contents, children)
    except RuleViolation as refusal:
        step = next((e.step for e in entries if e.step is not None), None)
        reason = next((e.reason for e in entries if e.container_id == container.pk), None)
        told = room.explain(
            str(refusal), container, children, known=known, step=step, reason=reason
        )
        raise RuleViolation(told) from refusal


def save_balances(*containers: StorageContainer, entries: list[LedgerEntry] = ()) -> None:
    """Check the containers' new contents against the rules and save them with the ledger
    ``entries`` of the change (the caller's transaction holds both)."""
    for container in containers:
        check_contents(container, known=containers, entries=entries)
    for container in containers:
        container.save(update_fields=BALANCES)
    # Their treasuries (the league never shows one).
    cache.changed(warband={c.warband_id for c in containers} | {e.warband_id for e in entries})
    if entries:
        LedgerEntry.objects.bulk_create(entries)
        for entry in entries:
            _entries.note(entry.pk)


def add_treasure(
    container: StorageContainer,
    *,
    gold: int = 0,
    wyrdstone: int = 0,
    reason: str,
    context: Context = NO_CONTEXT,
    sold: StorageContainer | None = None,
    correction_id: int | None = None,
) -> None:
    """Put (or, with negative amounts, take) gold and wyrdstone into one container, with its
    ledger entries. The building block of income, purchases, sales (``sold``: the container
    whose price this is; ``correction_id``: the item sold was that correction's, so the
    audit finds any gold it brought) and losses."""
    with atomic_change(context):
        (container,) = lock_held(container)
        container.gold_crowns += gold
        container.wyrdstone += wyrdstone
        entries = [
            new_entry(container, kind, amount, reason, context)
            for kind, amount in (
                (LedgerEntry.Kind.GOLD, gold),
                (LedgerEntry.Kind.WYRDSTONE, wyrdstone),
            )
            if amount
        ]
        for entry in entries:
            entry.sold_container = sold
            entry.correction_id = correction_id
        save_balances(container, entries=entries)


def add_item(
    container: StorageContainer,
    *,
    item: Item | None,
    name: str = "",
    reason: str,
    context: Context = NO_CONTEXT,
    correction_id: int | None = None,
) -> StoredItem:
    """Put one item into a container, with its ledger entry: equipment (``item``) or a
    discovery the chart does not list (``name`` alone). ``correction_id``: where an item a
    correction added came from, which it keeps (``StoredItem.correction``)."""
    with atomic_change(context):
        (container,) = lock_held(container)
        container.item_count += 1
        save_balances(container)
        stored = StoredItem.objects.create(
            container=container,
            item=item,
            name=name or (item.name if item else ""),
            correction_id=correction_id,
        )
        write_entry(
            container, LedgerEntry.Kind.ITEM, 1, reason, context, item=item,
            item_name=stored.name, correction_id=correction_id,
        )  # fmt: skip
        return stored


def remove_item(stored: StoredItem, *, reason: str, context: Context = NO_CONTEXT) -> None:
    """Take one stored item out of its container, with its ledger entry."""
    with atomic_change(context):
        (container,) = lock_containers(stored.container)
        name = stored.name
        stored = (
            StoredItem.objects.select_for_update(no_key=True)
            .filter(pk=stored.pk, container=container)
            .first()
        )
        if stored is None:  # moved, equipped or sold meanwhile (another tab)
            raise RuleViolation(f"{name} is no longer where it was: reload the page.")
        container.item_count -= 1
        save_balances(container)
        write_entry(
            container,
            LedgerEntry.Kind.ITEM,
            -1,
            reason,
            context,
            item=stored.item,
            item_name=stored.name,
            correction_id=stored.correction_id,
        )
        stored.delete()


@transaction.atomic
def reverse_entry(entry: LedgerEntry, *, actor=None) -> LedgerEntry:
    """Undo one ledger entry with a new, opposite entry (the ledger is append-only): gold and
    wyrdstone go back, an item that came in leaves its container again, one that left comes
    back, each with where it came from (an item a correction added is that one again). Only into
    and out of a container the entry's warband still holds."""
    (container,) = lock_containers(entry.container)
    # Sold, lost or captured since: what went in or out cannot come back through it (a sold
    # container holds nothing, and a captured one is the captor's).
    if container.status != StorageContainer.Status.HELD or container.warband_id != entry.warband_id:
        raise RuleViolation(
            f"{sentence(container.the)} is no longer the warband's (sold, lost or captured since)."
        )
    context = Context(actor=actor, step=entry.step, battle=entry.battle, note=f"undo: {entry.note}")
    if entry.kind == LedgerEntry.Kind.GOLD:
        container.gold_crowns -= entry.amount
    elif entry.kind == LedgerEntry.Kind.WYRDSTONE:
        container.wyrdstone -= entry.amount
    elif entry.amount > 0:
        stored = (
            container.stored_items.filter(
                name=entry.item_name, item=entry.item, correction=entry.correction_id
            )
            .order_by("-pk")
            .first()
        )
        if stored is None:
            raise RuleViolation(f"{entry.item_name} is no longer in the {container}.")
        stored.delete()
        container.item_count -= 1
    else:
        StoredItem.objects.create(
            container=container,
            item=entry.item,
            name=entry.item_name,
            correction_id=entry.correction_id,
        )
        container.item_count += 1
    check_contents(container)
    if min(container.gold_crowns, container.wyrdstone) < 0:  # spent since (the pile, too)
        raise RuleViolation(f"{sentence(container.the)} no longer holds what is to go back.")
    container.save(update_fields=BALANCES)
    return write_entry(
        container,
        entry.kind,
        -entry.amount,
        Reason.REVERSAL,
        context,
        item=entry.item,
        item_name=entry.item_name,
        reverses=entry,
        warband_id=entry.warband_id,
        sold=entry.sold_container,
        correction_id=entry.correction_id,
    )
