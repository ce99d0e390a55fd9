"""The secret treasury: storage containers, their contents and the append-only ledger.

Invariant: treasure only moves through the functions of this module. Each one locks the rows it
changes and reads them afresh (``select_for_update``), checks the capacity rules of
``warbands.rules.containers``, updates the container balances and writes the ``LedgerEntry``
rows that explain them, all in one transaction. The database refuses negative and
over-capacity balances as a last line.

Every service of the app takes its row locks in one order, so that two requests never wait on
each other in opposite orders (a deadlock): a battle, then a post-battle sequence, then
warbands (by primary key), then storage containers (by primary key), then stored items.

Readings where the rules are silent (the player would expect them):
- Common containers (backpack, large sack, pouch, treasure chest) may be bought while mustering,
  from the muster purse, and at any time from the treasury page; rare ones (saddle bags, pack
  animals, carts, the coach) need a rarity roll, so only the post-battle sequence buys them.
- Selling a container pays half its price, rounded down (trading: "half its listed price"); it
  must be empty first, so that nothing in it is lost by accident.
- A henchman group is equipped alike: storing a group's item stores one per model, and
  equipping a group takes one stored item per model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Case, Count, Prefetch, Q, Sum, When, prefetch_related_objects

from core.noting import Noting
from warbands import permissions
from warbands.models import (
    EquipmentListEntry,
    Item,
    LedgerEntry,
    StorageContainer,
    StoredItem,
    VesselItem,
    Warband,
    Warrior,
    WarriorItem,
)
from warbands.rules import RuleViolation
from warbands.rules import containers as rules

Reason = LedgerEntry.Reason
COMMON_CONTAINERS = tuple(kind for kind, spec in rules.CATALOGUE.items() if spec.rarity is None)
BUYABLE_CONTAINERS = tuple(
    kind for kind in COMMON_CONTAINERS if rules.CATALOGUE[kind].price is not None
)
SELLABLE_CONTAINERS = tuple(
    kind for kind, spec in rules.CATALOGUE.items() if spec.price is not None
)
NOT_STORABLE = (Item.Category.MUTATION, Item.Category.ANIMAL)


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


def _atomic(context: Context | None):
    """The transaction of a treasury change: its own (a savepoint when nested, so that a
    view can refuse and still draw its page), or the step's (``Context.in_step``)."""
    return transaction.atomic(savepoint=not (context is not None and context.in_step))


def _context(context: Context | None, actor, note: str) -> Context:
    """The caller's context (a post-battle step's battle and step) with this move's note."""
    if context is None:
        return Context(actor=actor, note=note)
    return replace(context, actor=actor, note=f"{context.note}: {note}" if context.note else note)


# --- Reads ---------------------------------------------------------------------------------


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
    pile, _ = StorageContainer.objects.get_or_create(warband=warband, kind=StorageContainer.LOOSE)
    pile.warband = warband  # the caller's: the treasury need not read it again
    return pile


# --- Ledger --------------------------------------------------------------------------------

_entries = Noting("ledger entries")
# with noting_entries(rows): every ledger entry written inside is appended to rows (a post-battle
# step's journal, so that undo reverses exactly those).
noting_entries = _entries.into


def _entry(
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
) -> LedgerEntry:
    """A ledger entry, not saved yet (``_record`` or ``_save_balances`` write it)."""
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
    )


def _record(container: StorageContainer, kind: str, amount: int, reason: str, context: Context,
            **extra) -> LedgerEntry:  # fmt: skip
    """Write one ledger entry and note it (``noting_entries``); a change of balances writes
    its entries with them instead (``_save_balances``)."""
    entry = _entry(container, kind, amount, reason, context, **extra)
    entry.save()
    _entries.note(entry.pk)
    return entry


def _lock(*containers: StorageContainer) -> list[StorageContainer]:
    """Lock the containers' rows and read them afresh, in the order given. The locks are taken
    in primary-key order, so two changes of the same containers never wait on each other in
    opposite orders (the lock order of every service: this module's docstring)."""
    pks = [c.pk for c in containers]
    locked = {
        c.pk: c
        for c in StorageContainer.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    }
    return [locked[pk] for pk in pks]


def _children_kinds(container: StorageContainer) -> list[str]:
    if container.kind not in rules.CARRIERS:
        return []  # only a carrier has anything placed on it (rules.check_placement)
    return list(container.children.values_list("kind", flat=True))


def _check(container: StorageContainer) -> None:
    if container.kind == StorageContainer.LOOSE:
        return
    rules.check_contents(container.kind, container.contents, _children_kinds(container))


def _save_balances(*containers: StorageContainer, entries: list[LedgerEntry] = ()) -> None:
    """Check the containers' new contents against the rules and save them with the ledger
    ``entries`` of the change (the caller's transaction holds both)."""
    for container in containers:
        _check(container)
    for container in containers:
        container.save(update_fields=BALANCES)
    if entries:
        LedgerEntry.objects.bulk_create(entries)
        for entry in entries:
            _entries.note(entry.pk)


BALANCES = ["gold_crowns", "wyrdstone", "item_count"]


def add_treasure(
    container: StorageContainer,
    *,
    gold: int = 0,
    wyrdstone: int = 0,
    reason: str,
    context: Context = NO_CONTEXT,
) -> None:
    """Put (or, with negative amounts, take) gold and wyrdstone into one container, with its
    ledger entries. The building block of income, purchases, sales and losses."""
    with _atomic(context):
        (container,) = _lock(container)
        container.gold_crowns += gold
        container.wyrdstone += wyrdstone
        entries = [
            _entry(container, kind, amount, reason, context)
            for kind, amount in (
                (LedgerEntry.Kind.GOLD, gold),
                (LedgerEntry.Kind.WYRDSTONE, wyrdstone),
            )
            if amount
        ]
        _save_balances(container, entries=entries)


def add_item(
    container: StorageContainer,
    *,
    item: Item | None,
    name: str = "",
    reason: str,
    context: Context = NO_CONTEXT,
) -> StoredItem:
    with _atomic(context):
        (container,) = _lock(container)
        container.item_count += 1
        _save_balances(container)
        stored = StoredItem.objects.create(
            container=container, item=item, name=name or (item.name if item else "")
        )
        _record(
            container, LedgerEntry.Kind.ITEM, 1, reason, context, item=item, item_name=stored.name
        )
        return stored


def remove_item(stored: StoredItem, *, reason: str, context: Context = NO_CONTEXT) -> None:
    with _atomic(context):
        (container,) = _lock(stored.container)
        stored = StoredItem.objects.select_for_update().get(pk=stored.pk, container=container)
        container.item_count -= 1
        _save_balances(container)
        _record(
            container,
            LedgerEntry.Kind.ITEM,
            -1,
            reason,
            context,
            item=stored.item,
            item_name=stored.name,
        )
        stored.delete()


@transaction.atomic
def reverse_entry(entry: LedgerEntry, *, actor=None) -> LedgerEntry:
    """Undo one ledger entry with a new, opposite entry (the ledger is append-only): gold and
    wyrdstone go back, an item that came in leaves its container again, one that left comes
    back."""
    (container,) = _lock(entry.container)
    context = Context(actor=actor, step=entry.step, battle=entry.battle, note=f"undo: {entry.note}")
    if entry.kind == LedgerEntry.Kind.GOLD:
        container.gold_crowns -= entry.amount
    elif entry.kind == LedgerEntry.Kind.WYRDSTONE:
        container.wyrdstone -= entry.amount
    elif entry.amount > 0:
        stored = (
            container.stored_items.filter(name=entry.item_name, item=entry.item)
            .order_by("-pk")
            .first()
        )
        if stored is None:
            raise RuleViolation(f"{entry.item_name} is no longer in the {container}.")
        stored.delete()
        container.item_count -= 1
    else:
        StoredItem.objects.create(container=container, item=entry.item, name=entry.item_name)
        container.item_count += 1
    # A captured or lost container may have left the warband since; the balance is checked
    # against the rules only while the container is held.
    if container.status == StorageContainer.Status.HELD:
        _check(container)
    container.save(update_fields=["gold_crowns", "wyrdstone", "item_count"])
    return _record(
        container,
        entry.kind,
        -entry.amount,
        Reason.REVERSAL,
        context,
        item=entry.item,
        item_name=entry.item_name,
        reverses=entry,
        warband_id=entry.warband_id,
    )


# --- The owner's moves ---------------------------------------------------------------------


def _sentence(words: str) -> str:
    """ "the unstored treasure" → "The unstored treasure" (the rest as it is)."""
    return words[:1].upper() + words[1:]


def _owned(actor, *containers: StorageContainer) -> None:
    """The actor may change these containers: the owner of their one warband, while it plays.
    The warband the caller loaded with them (and its campaign) is used when there is one."""
    warband_ids = {c.warband_id for c in containers}
    if len(warband_ids) != 1:
        raise RuleViolation("Both containers must belong to the same warband.")
    known = next((c.warband for c in containers if StorageContainer.warband.is_cached(c)), None)
    if known is not None and Warband.campaign.is_cached(known):
        warband = known
    else:
        warband = Warband.objects.select_related("campaign").get(pk=warband_ids.pop())
    if not permissions.can_edit_warband(actor, warband):
        raise PermissionDenied("Only the warband's owner may move its treasure.")


def move_treasure(
    source: StorageContainer,
    target: StorageContainer,
    *,
    actor,
    gold: int = 0,
    wyrdstone: int = 0,
    context: Context | None = None,
) -> tuple[StorageContainer, StorageContainer]:
    """Move gold and wyrdstone from one of the owner's containers to another; returns both as
    they are now (read under the lock)."""
    with _atomic(context):
        return _move_treasure(source, target, actor, gold, wyrdstone, context)


def _move_treasure(source, target, actor, gold, wyrdstone, context):
    _owned(actor, source, target)
    if source.pk == target.pk:
        raise RuleViolation("Choose two different containers.")
    if gold < 0 or wyrdstone < 0 or not (gold or wyrdstone):
        raise RuleViolation("Say how many gold crowns or wyrdstone shards to move.")
    source, target = _lock(source, target)
    if gold > source.gold_crowns:
        raise RuleViolation(f"{_sentence(source.the)} holds only {source.gold_crowns} gc.")
    if wyrdstone > source.wyrdstone:
        raise RuleViolation(f"{_sentence(source.the)} holds only {source.wyrdstone} wyrdstone.")
    source.gold_crowns -= gold
    source.wyrdstone -= wyrdstone
    target.gold_crowns += gold
    target.wyrdstone += wyrdstone
    context = _context(context, actor, f"{source} → {target}")
    entries = []
    for container, sign in ((source, -1), (target, 1)):
        if gold:
            entries.append(_entry(container, LedgerEntry.Kind.GOLD, sign * gold, Reason.TRANSFER,
                                  context))  # fmt: skip
        if wyrdstone:
            entries.append(_entry(container, LedgerEntry.Kind.WYRDSTONE, sign * wyrdstone,
                                  Reason.TRANSFER, context))  # fmt: skip
    _save_balances(source, target, entries=entries)
    return source, target


@transaction.atomic
def move_stored_item(
    stored: StoredItem, target: StorageContainer, *, actor, context: Context | None = None
) -> StoredItem:
    source, target = _lock(StoredItem.objects.get(pk=stored.pk).container, target)
    stored = StoredItem.objects.select_for_update().filter(pk=stored.pk, container=source).first()
    if stored is None:  # moved meanwhile, by another tab
        raise RuleViolation("That item has moved meanwhile: reload the page.")
    _owned(actor, source, target)
    if source.pk == target.pk:
        raise RuleViolation(f"{stored.name} is already in the {target}.")
    context = _context(context, actor, f"{source} → {target}")
    target.item_count += 1
    source.item_count -= 1
    entries = [_entry(box, LedgerEntry.Kind.ITEM, sign, Reason.TRANSFER, context,
                      item=stored.item, item_name=stored.name)
               for box, sign in ((source, -1), (target, 1))]  # fmt: skip
    _save_balances(target, source, entries=entries)
    stored.container = target
    stored.save(update_fields=["container"])
    return stored


def check_may_use(warrior: Warrior, item: Item) -> None:
    """Campaigns text: equipment "taken from storage for your warband must be of an
    appropriate type for the warrior, as indicated by the warband lists". Miscellaneous
    equipment off the list may be carried by heroes."""
    if item.category in NOT_STORABLE:
        raise RuleViolation(f"{item.name} cannot be handed from warrior to warrior.")
    entry = (
        EquipmentListEntry.objects.filter(
            equipment_list__warriortype=warrior.warrior_type, item=item
        )
        .order_by("heroes_only")
        .first()
    )
    if entry is not None and (warrior.is_hero or not entry.heroes_only):
        return
    if item.category == Item.Category.MISC and warrior.is_hero:
        return
    raise RuleViolation(f"{item.name} is not on {warrior.name}'s equipment list.")


@transaction.atomic
def store_warrior_item(
    owned: WarriorItem, container: StorageContainer, *, actor, context: Context | None = None
) -> None:
    """Take an item off a warrior (off every model of a henchman group) into a container."""
    owned = WarriorItem.objects.select_related("warrior__warband", "item").get(pk=owned.pk)
    warrior = owned.warrior
    _owned(actor, container)
    if warrior.warband_id != container.warband_id:
        raise RuleViolation("Both must belong to the same warband.")
    if warrior.warband.is_draft:
        raise RuleViolation("While mustering, give the item back instead.")
    if owned.item.category in NOT_STORABLE:
        raise RuleViolation(f"{owned.item.name} cannot be stored.")
    (container,) = _lock(container)
    context = _context(context, actor, f"from {warrior.name}")
    for _ in range(warrior.group_size):
        container.item_count += 1
        StoredItem.objects.create(container=container, item=owned.item, name=owned.item.name)
        _record(container, LedgerEntry.Kind.ITEM, 1, Reason.UNEQUIP, context, item=owned.item)
    _save_balances(container)
    owned.delete()


@transaction.atomic
def equip_stored_item(
    stored: StoredItem, warrior: Warrior, *, actor, context: Context | None = None
) -> WarriorItem:
    """Give a stored item to a warrior who may use it; a henchman group takes one per model,
    from the chosen container first, then from the warband's other containers."""
    stored = StoredItem.objects.select_related("container", "item").get(pk=stored.pk)
    _owned(actor, stored.container)
    warrior = Warrior.objects.select_related("warrior_type", "warband").get(pk=warrior.pk)
    if warrior.warband_id != stored.container.warband_id:
        raise RuleViolation("Both must belong to the same warband.")
    if warrior.status not in Warrior.ON_ROSTER:
        raise RuleViolation(f"{warrior.name} is no longer on the roster.")
    if stored.item is None:
        raise RuleViolation(f"{stored.name} is not equipment: sell it or keep it stored.")
    check_may_use(warrior, stored.item)
    preference = Case(
        When(pk=stored.pk, then=0), When(container=stored.container_id, then=1), default=2
    )
    alike = StoredItem.objects.filter(container__warband=warrior.warband, item=stored.item)
    # The containers before the items, as every service locks them.
    holding = StorageContainer.objects.filter(pk__in=alike.values("container_id"))
    locked = list(holding.select_for_update().order_by("pk").values_list("pk", flat=True))
    same = list(
        alike.filter(container__in=locked)
        .select_for_update(of=("self",))
        .order_by(preference, "pk")[: warrior.group_size]
    )
    if len(same) < warrior.group_size:
        raise RuleViolation(
            f"Henchmen in a group are equipped alike: {warrior.name} need {warrior.group_size} "
            f"{stored.item.name} and the treasury holds {len(same)}."
        )
    context = _context(context, actor, f"to {warrior.name}")
    for taken in same:
        remove_item(taken, reason=Reason.EQUIP, context=context)
    return WarriorItem.objects.create(warrior=warrior, item=stored.item, price_paid=0)


# --- Buying, selling and arranging containers ----------------------------------------------


@transaction.atomic
def buy_container(
    warband: Warband,
    kind: str,
    *,
    actor,
    pay_from: StorageContainer | None = None,
    holder: Warrior | None = None,
    rarity_passed: bool = False,
    step: int | None = None,
    context: Context | None = None,
) -> StorageContainer:
    """Buy a storage container at its catalogue price.

    While mustering it is paid from the purse; afterwards from ``pay_from``. Rare ones need
    ``rarity_passed`` (the post-battle sequence's rarity roll). A pouch is hero equipment and
    names its hero.
    """
    warband = Warband.objects.select_for_update().get(pk=warband.pk)
    if not permissions.can_edit_warband(actor, warband):
        raise PermissionDenied("Only the warband's owner may buy for it.")
    spec = rules.spec(kind)
    if spec.price is None:
        raise RuleViolation(f"A {spec.name} is not bought as a container.")
    if spec.rarity is not None and not rarity_passed:
        raise RuleViolation(
            f"A {spec.name} is Rare {spec.rarity}: buy it after a successful rarity roll in the "
            "post-battle sequence."
        )
    if spec.hero_only:
        if holder is None or holder.warband_id != warband.pk:
            raise RuleViolation(f"Choose the hero who carries the {spec.name}.")
        if not holder.is_hero:
            raise RuleViolation(f"Only heroes may use a {spec.name}; {holder.name} is not one.")
        if StorageContainer.objects.filter(kind=kind, holder=holder).exists():
            raise RuleViolation(f"{holder.name} already has a {spec.name}.")
    context = _context(context or Context(step=step), actor, f"bought a {spec.name}")
    if warband.is_draft:
        if spec.price > warband.gold_crowns:
            raise RuleViolation(
                f"A {spec.name} costs {spec.price} gc but only {warband.gold_crowns} gc are left."
            )
        warband.gold_crowns -= spec.price
        warband.save(update_fields=["gold_crowns"])
    else:
        if pay_from is None or pay_from.warband_id != warband.pk:
            raise RuleViolation("Choose the container to pay from.")
        (pay_from,) = _lock(pay_from)
        if pay_from.gold_crowns < spec.price:
            raise RuleViolation(
                f"A {spec.name} costs {spec.price} gc; the {pay_from} holds "
                f"{pay_from.gold_crowns} gc."
            )
        add_treasure(pay_from, gold=-spec.price, reason=Reason.PURCHASE, context=context)
    bought = StorageContainer.objects.create(
        warband=warband, kind=kind, holder=holder if spec.hero_only else None
    )
    number_alike(warband.pk, kind, [bought])
    return bought


@transaction.atomic
def sell_container(
    container: StorageContainer,
    *,
    actor,
    proceeds_to: StorageContainer | None,
    context: Context | None = None,
):
    """Sell an empty container for half its price, rounded down."""
    warband = Warband.objects.select_for_update().get(pk=container.warband_id)
    (container,) = _lock(container)
    _owned(actor, container)
    spec = container.spec
    if spec is None or spec.price is None:
        raise RuleViolation("That cannot be sold.")
    if not container.is_empty or container.children.exists() or container.vessel_items.exists():
        raise RuleViolation(f"Empty the {container} before selling it.")
    price = spec.price // 2
    container.status = StorageContainer.Status.SOLD
    container.parent = None
    container.save(update_fields=["status", "parent"])
    if warband.is_draft:
        # While mustering a container goes back for what it cost, like any purchase.
        warband.gold_crowns += spec.price
        warband.save(update_fields=["gold_crowns"])
        return
    if price:
        if (
            proceeds_to is None
            or proceeds_to.warband_id != warband.pk
            or proceeds_to.pk == container.pk
        ):
            raise RuleViolation("Choose the container that receives the money.")
        add_treasure(
            proceeds_to,
            gold=price,
            reason=Reason.SALE,
            context=_context(context, actor, f"sold a {spec.name}"),
        )


@transaction.atomic
def place_container(container: StorageContainer, parent: StorageContainer | None, *, actor):
    """Put a container on a pack animal, a warmount, into a cart or on a coach roof (or take
    it off: ``parent=None``)."""
    containers = [container] + ([parent] if parent else [])
    _owned(actor, *containers)
    locked = _lock(*containers)
    container = locked[0]
    if parent is None:
        container.parent = None
        container.save(update_fields=["parent"])
        return container
    parent = locked[1]
    if parent.pk == container.pk or container.children.exists():
        raise RuleViolation(f"A {container} cannot be put there.")
    siblings = list(parent.children.exclude(pk=container.pk).values_list("kind", flat=True))
    rules.check_placement(container.kind, parent.kind, siblings, parent.contents)
    container.parent = parent
    container.save(update_fields=["parent"])
    return container


@transaction.atomic
def name_container(container: StorageContainer, label: str, *, actor) -> StorageContainer:
    """The owner names a container ("Large Sack “Tithes”"), or clears its name (``""``).

    The rules are silent (MiM's containers have no names); our choices: the name is as secret
    as the contents (``permissions.ContainerView.name``: others see only the kind); two held
    containers of a warband cannot share a name, nor can a name be digits alone, which would
    read as a number (``number_alike``); a named container keeps its number, shown again
    when the name is cleared (or given then, when its kind needs numbers). The ledger's rows
    name the container as it is called now."""
    lock_warbands(container.warband_id)  # two names given at once: one after the other
    (container,) = _lock(container)
    _owned(actor, container)
    if container.kind == StorageContainer.LOOSE or container.status != StorageContainer.Status.HELD:
        raise RuleViolation("Only a container the warband holds can be named.")
    label = " ".join(label.split())
    if label.isdigit():
        raise RuleViolation(f"Give the {container} a name with letters: numbers are given by kind.")
    if label:
        clash = (
            StorageContainer.objects.held()
            .filter(warband_id=container.warband_id, label__iexact=label)
            .exclude(pk=container.pk)
            .first()
        )
        if clash is not None:
            raise RuleViolation(f"The {clash} already has that name.")
    container.label = label
    container.save(update_fields=["label"])
    if not label:
        number_alike(container.warband_id, container.kind, [container])
    return container


@transaction.atomic
def place_vessel_item(vessel: VesselItem, container: StorageContainer | None, *, actor):
    """Dark Artefacts and Loyalty Symbols "cannot be placed in storage containers"; only an
    opulent coach carries them (inside, whatever is on its roof)."""
    vessel = VesselItem.objects.select_for_update().get(pk=vessel.pk)
    warband = Warband.objects.get(pk=vessel.warband_id)
    if not permissions.can_edit_warband(actor, warband):
        raise PermissionDenied("Only the warband's owner may move its treasure.")
    if container is not None:
        if container.kind != "opulent_coach":
            raise RuleViolation(
                f"{vessel.get_kind_display()}s cannot be placed in storage containers: they "
                "have vessels of their own (only an opulent coach may carry them)."
            )
        if container.warband_id != vessel.warband_id:
            raise RuleViolation("The coach must belong to the same warband.")
    vessel.coach = container
    vessel.save(update_fields=["coach"])
    return vessel


# --- Mustering, capture and loss -----------------------------------------------------------


def number_alike(warband_id: int, kind: str, changed: list[StorageContainer] = ()) -> None:
    """Containers of one kind that the player has not named get numbers once the warband holds
    two or more: "Large Sack 1", "Large Sack 2", in the order they came. Otherwise the forms,
    the ledger and the step summaries could only say "from the Large Sack to the Large Sack".

    The rules are silent (MiM's containers have no names); our choice: a number is never
    given twice in a warband, so a sold sack's number is not reused and the ledger's old
    lines keep meaning the same sack; a container keeps its number when the player names it
    (the name is shown instead) and shows it again when the name is cleared; a single
    container of its kind keeps its plain name. The warband's row is locked first, so two
    purchases at once number one after the other. ``changed``: containers that came just now
    (bought, captured), numbered after the warband's own; the caller's instances get their
    new number too (the database has it already)."""
    if kind == StorageContainer.LOOSE:
        return
    lock_warbands(warband_id)
    alike = list(StorageContainer.objects.filter(warband_id=warband_id, kind=kind).order_by("pk"))
    held = [c for c in alike if c.status == StorageContainer.Status.HELD]
    arrived = {c.pk for c in changed}  # bought or captured just now: numbered last
    unnumbered = sorted(
        (c for c in held if not c.label and c.number is None),
        key=lambda c: (c.pk in arrived, c.pk),
    )
    if len(held) < 2 or not unnumbered:
        return
    number = max((c.number or 0 for c in alike), default=0)
    for container in unnumbered:
        number += 1
        container.number = number
    StorageContainer.objects.bulk_update(unnumbered, ["number"])
    numbers = {c.pk: c.number for c in unnumbered}
    for container in changed:
        if container.pk in numbers:
            container.number = numbers[container.pk]


def create_starting_chest(warband: Warband) -> StorageContainer:
    """MiM: "Each warband starts the campaign with a treasure chest for free"."""
    return StorageContainer.objects.create(warband=warband, kind="treasure_chest")


def storage_problems(warband: Warband) -> list[str]:
    """Why the purse cannot yet go into the warband's containers at the end of mustering."""
    capacity = sum(
        rules.open_capacity(c.kind, _children_kinds(c)).gold - c.gold_crowns
        for c in StorageContainer.objects.filter(warband=warband).real()
    )
    if warband.gold_crowns > capacity:
        return [
            f"{warband.gold_crowns} gc are left but the containers hold only {capacity} gc: buy "
            "a large sack or backpack, or spend more."
        ]
    return []


def store_purse(warband: Warband, *, actor) -> None:
    """At the end of mustering the purse goes into the containers: the treasure chest first,
    then the others by size (MiM: the free chest holds "any remaining gold crowns after warband
    creation"). The caller has locked the warband and checked ``storage_problems``."""
    remaining = warband.gold_crowns
    containers = sorted(
        StorageContainer.objects.filter(warband=warband).real(),
        key=lambda c: (c.kind != "treasure_chest", -rules.spec(c.kind).capacity.gold, c.pk),
    )
    context = Context(actor=actor, note="Gold left after mustering")
    for container in containers:
        room = rules.open_capacity(container.kind, _children_kinds(container)).gold
        amount = min(remaining, room - container.gold_crowns)
        if amount > 0:
            add_treasure(container, gold=amount, reason=Reason.STARTING_TREASURY, context=context)
            remaining -= amount
    if remaining:
        raise RuleViolation(storage_problems(warband)[0])
    warband.gold_crowns = 0
    warband.save(update_fields=["gold_crowns"])


@transaction.atomic
def release_warrior(warrior: Warrior, *, actor) -> None:
    """A warrior leaves alive (dismissed): his equipment and the contents of his pouch stay
    with the warband as unstored treasure; the pouch itself goes with him."""
    pile = loose_pile(warrior.warband)
    context = Context(actor=actor, note=f"left by {warrior.name}")
    for owned in list(warrior.items.select_related("item")):
        if owned.item.category in NOT_STORABLE:
            continue
        for _ in range(warrior.group_size):
            add_item(pile, item=owned.item, reason=Reason.UNEQUIP, context=context)
        owned.delete()
    for pouch in StorageContainer.objects.held().filter(holder=warrior):
        if pouch.gold_crowns or pouch.wyrdstone:
            move_treasure(
                pouch, pile, actor=actor, gold=pouch.gold_crowns, wyrdstone=pouch.wyrdstone
            )
        pouch.refresh_from_db()
        pouch.status = StorageContainer.Status.LOST
        pouch.save(update_fields=["status"])


def lock_warbands(*pks: int) -> None:
    """Lock the warbands' rows, in primary-key order (before any of their containers)."""
    list(Warband.objects.select_for_update().filter(pk__in=sorted(set(pks))).order_by("pk"))


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
    locked = _lock(*_with_descendants(container))
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
                    _record(
                        box, kind, sign * amount, Reason.CAPTURE, context, warband_id=warband_id
                    )
            for item in stored:
                _record(
                    box,
                    LedgerEntry.Kind.ITEM,
                    sign,
                    Reason.CAPTURE,
                    context,
                    item=item.item,
                    item_name=item.name,
                    warband_id=warband_id,
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
    for box in _lock(*_with_descendants(container)):
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


def _with_descendants(container: StorageContainer) -> list[StorageContainer]:
    found = [container]
    frontier = [container.pk]
    while frontier:
        children = list(StorageContainer.objects.filter(parent_id__in=frontier))
        found.extend(children)
        frontier = [c.pk for c in children]
    return found


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
    (pile,) = _lock(pile)
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


# --- Checks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerMismatch:
    container_id: int
    kind: str
    balance: int
    ledger: int

    def __str__(self) -> str:
        return (
            f"container {self.container_id}: {self.kind} balance {self.balance}, "
            f"ledger says {self.ledger}"
        )


def ledger_mismatches(containers: Iterable[StorageContainer] | None = None) -> list[LedgerMismatch]:
    """Every container whose balances differ from the sum of its ledger entries, and every
    container whose item count differs from its stored items."""
    queryset = StorageContainer.objects.all() if containers is None else containers
    sums = {
        (row["container"], row["kind"]): row["total"]
        for row in LedgerEntry.objects.values("container", "kind").annotate(total=Sum("amount"))
    }
    stored = dict(
        StoredItem.objects.values("container").annotate(n=Count("pk")).values_list("container", "n")
    )
    mismatches = []
    for container in queryset:
        for kind, balance in (
            (LedgerEntry.Kind.GOLD, container.gold_crowns),
            (LedgerEntry.Kind.WYRDSTONE, container.wyrdstone),
            (LedgerEntry.Kind.ITEM, container.item_count),
        ):
            ledger = sums.get((container.pk, kind), 0)
            if ledger != balance:
                mismatches.append(LedgerMismatch(container.pk, kind, balance, ledger))
        if stored.get(container.pk, 0) != container.item_count:
            mismatches.append(
                LedgerMismatch(
                    container.pk,
                    "stored item rows",
                    container.item_count,
                    stored.get(container.pk, 0),
                )
            )
    # Each warband's own entries for a container add up to the balance while it holds it and
    # to nothing once it has lost it (sold, lost or captured by an enemy).
    balances = {
        c.pk: (
            c.warband_id,
            {"gold": c.gold_crowns, "wyrdstone": c.wyrdstone, "item": c.item_count},
        )
        for c in queryset
    }
    per_warband = LedgerEntry.objects.values("warband", "container", "kind").annotate(
        total=Sum("amount")
    )
    for row in per_warband:
        if row["container"] not in balances:
            continue
        holder, balance = balances[row["container"]]
        expected = balance[row["kind"]] if row["warband"] == holder else 0
        if row["total"] != expected:
            mismatches.append(
                LedgerMismatch(row["container"], f"{row['kind']} (warband {row['warband']})",
                               expected, row["total"])
            )  # fmt: skip
    return mismatches
