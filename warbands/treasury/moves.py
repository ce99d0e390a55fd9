"""The owner's moves: gold, wyrdstone and stored items from one container to another, and
equipment from the treasury to a warrior and back.

A reading where the rules are silent (the player would expect it): a henchman group is
equipped alike, so storing a group's item stores one per model, and equipping a group takes one
stored item per model.

An item a correction added keeps its ``correction`` through every move, and every ledger entry
that moves it names it: stored from a warrior, each stored item is that correction's. A group
is equipped from items that came through the rules before those a correction added; one
equipped with any of the latter carries it as that correction's (it may not be sold as paid
for: no value appears by mixing).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Case, F, When

from campaign import cache
from core.errors import RuleViolation
from core.words import possessive
from warbands.models import (
    EquipmentListEntry,
    Item,
    LedgerEntry,
    StorageContainer,
    StoredItem,
    Warrior,
    WarriorItem,
)
from warbands.treasury.ledger import (
    Context,
    Reason,
    add_item,
    atomic_change,
    check_owner,
    lock_held,
    new_entry,
    remove_item,
    save_balances,
    sentence,
    with_note,
    write_entry,
)
from warbands.treasury.queries import loose_pile

# Neither stored nor handed from warrior to warrior: a mutation is part of its warrior, an
# animal is no item to put in a container.
NOT_STORABLE = (Item.Category.MUTATION, Item.Category.ANIMAL)


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
    with atomic_change(context):
        return _move_treasure(source, target, actor, gold, wyrdstone, context)


def _move_treasure(source, target, actor, gold, wyrdstone, context):
    check_owner(actor, source, target)
    if source.pk == target.pk:
        raise RuleViolation("Choose two different containers.")
    if gold < 0 or wyrdstone < 0 or not (gold or wyrdstone):
        raise RuleViolation("Say how many gold crowns or wyrdstone shards to move.")
    source, target = lock_held(source, target)
    if gold > source.gold_crowns:
        raise RuleViolation(f"{sentence(source.the)} holds only {source.gold_crowns} gc.")
    if wyrdstone > source.wyrdstone:
        raise RuleViolation(f"{sentence(source.the)} holds only {source.wyrdstone} wyrdstone.")
    source.gold_crowns -= gold
    source.wyrdstone -= wyrdstone
    target.gold_crowns += gold
    target.wyrdstone += wyrdstone
    context = with_note(context, actor, f"{source} → {target}")
    entries = []
    for container, sign in ((source, -1), (target, 1)):
        if gold:
            entries.append(new_entry(container, LedgerEntry.Kind.GOLD, sign * gold,
                                     Reason.TRANSFER, context))  # fmt: skip
        if wyrdstone:
            entries.append(new_entry(container, LedgerEntry.Kind.WYRDSTONE, sign * wyrdstone,
                                     Reason.TRANSFER, context))  # fmt: skip
    save_balances(source, target, entries=entries)
    return source, target


def store_pile(
    pile: StorageContainer,
    target: StorageContainer,
    *,
    actor,
    gold: int = 0,
    wyrdstone: int = 0,
    items=(),
    context: Context | None = None,
) -> None:
    """Put unstored treasure (MiM: found or received, it waits for a container) into one of
    the owner's containers: gold and shards in one move, then each chosen item
    (``move_treasure``, ``move_stored_item``, which lock and check both)."""
    if target.kind == StorageContainer.LOOSE:
        raise RuleViolation("Choose a container to store it in.")
    if not (gold or wyrdstone or items):
        raise RuleViolation("Say what to store: gold crowns, shards or items.")
    with atomic_change(context):
        if gold or wyrdstone:
            move_treasure(pile, target, actor=actor, gold=gold, wyrdstone=wyrdstone,
                          context=context)  # fmt: skip
        for stored in items:
            move_stored_item(stored, target, actor=actor, context=context)


@transaction.atomic
def move_stored_item(
    stored: StoredItem, target: StorageContainer, *, actor, context: Context | None = None
) -> StoredItem:
    """Move one stored item to another of the owner's containers."""
    found = StoredItem.objects.filter(pk=stored.pk).select_related("container").first()
    if found is None:  # equipped or sold meanwhile, by another tab
        raise RuleViolation(f"{stored.name} is no longer stored: reload the page.")
    source, target = lock_held(found.container, target)
    stored = (
        StoredItem.objects.select_for_update(no_key=True)
        .filter(pk=stored.pk, container=source)
        .first()
    )
    if stored is None:  # moved meanwhile, by another tab
        raise RuleViolation("That item has moved meanwhile: reload the page.")
    check_owner(actor, source, target)
    if source.pk == target.pk:
        raise RuleViolation(f"{stored.name} is already in the {target}.")
    context = with_note(context, actor, f"{source} → {target}")
    target.item_count += 1
    source.item_count -= 1
    entries = [new_entry(box, LedgerEntry.Kind.ITEM, sign, Reason.TRANSFER, context,
                         item=stored.item, item_name=stored.name,
                         correction_id=stored.correction_id)
               for box, sign in ((source, -1), (target, 1))]  # fmt: skip
    save_balances(target, source, entries=entries)
    stored.container = target
    stored.save(update_fields=["container"])
    return stored  # its warband's treasury changed with the balances (``save_balances``)


def list_refusal(warrior: Warrior, item: Item) -> str | None:
    """Why the warband lists do not let ``warrior`` carry ``item`` (None: they do): an item
    his warband may not have (``Item.refusal``), or one his type's equipment list lacks (or
    keeps for heroes). Miscellaneous equipment off the list may be carried by heroes."""
    if refusal := item.refusal(warrior.warband.warband_type.key):
        return refusal
    entry = (
        EquipmentListEntry.objects.filter(
            equipment_list__warriortype=warrior.warrior_type, item=item
        )
        .order_by("heroes_only")
        .first()
    )
    if entry is not None and (warrior.is_hero or not entry.heroes_only):
        return None
    if item.category == Item.Category.MISC and warrior.is_hero:
        return None
    if entry is not None:
        return f"{item.name} is for heroes only on {possessive(warrior.name)} equipment list."
    return f"{item.name} is not on {possessive(warrior.name)} equipment list."


def check_may_use(warrior: Warrior, item: Item) -> None:
    """Campaigns text: equipment "taken from storage for your warband must be of an
    appropriate type for the warrior, as indicated by the warband lists" (``list_refusal``).
    A dramatis persona uses only his own equipment: nothing is handed to him."""
    if warrior.hired_sword_id is not None and warrior.hired_sword.is_persona:
        raise RuleViolation(
            f"{warrior.name} is a dramatis persona: he uses only his own equipment."
        )
    if item.category in NOT_STORABLE:
        raise RuleViolation(f"{item.name} cannot be handed from warrior to warrior.")
    if refusal := list_refusal(warrior, item):
        raise RuleViolation(refusal)


@transaction.atomic
def store_warrior_item(
    owned: WarriorItem, container: StorageContainer, *, actor, context: Context | None = None
) -> None:
    """Take an item off a warrior (off every model of a henchman group) into a container.
    The container is locked first, then the warrior's item: a second tab storing the same item
    finds it gone and stores nothing."""
    check_owner(actor, container)
    (container,) = lock_held(container)
    owned = (
        WarriorItem.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior__warband", "item")
        .filter(pk=owned.pk)
        .first()
    )
    if owned is None:
        raise RuleViolation("That item is no longer carried: reload the page.")
    warrior = owned.warrior
    if warrior.warband_id != container.warband_id:
        raise RuleViolation("Both must belong to the same warband.")
    if warrior.status == Warrior.Status.CAPTURED:  # campaigns text, 61: he keeps his kit
        raise RuleViolation(f"{warrior.name} is held captive: his equipment stays with him.")
    if warrior.warband.is_draft:
        raise RuleViolation("While mustering, give the item back instead.")
    if owned.item.category in NOT_STORABLE:
        raise RuleViolation(f"{owned.item.name} cannot be stored.")
    context = with_note(context, actor, f"from {warrior.name}")
    for _ in range(warrior.group_size):
        container.item_count += 1
        StoredItem.objects.create(
            container=container,
            item=owned.item,
            name=owned.item.name,
            correction_id=owned.correction_id,
        )
        write_entry(container, LedgerEntry.Kind.ITEM, 1, Reason.UNEQUIP, context, item=owned.item,
                    correction_id=owned.correction_id)  # fmt: skip
    save_balances(container)
    owned.delete()


@transaction.atomic
def equip_stored_item(
    stored: StoredItem, warrior: Warrior, *, actor, context: Context | None = None
) -> WarriorItem:
    """Give a stored item to a warrior who may use it; a henchman group takes one per model,
    from the chosen container first, then from the warband's other containers."""
    chosen = stored
    stored = StoredItem.objects.select_related("container", "item").filter(pk=stored.pk).first()
    if stored is None:  # equipped, moved or sold meanwhile, by another tab
        raise RuleViolation(f"{chosen.name} is no longer stored: reload the page.")
    check_owner(actor, stored.container)
    warrior = Warrior.objects.select_related("warrior_type", "warband").get(pk=warrior.pk)
    if warrior.warband_id != stored.container.warband_id:
        raise RuleViolation("Both must belong to the same warband.")
    if warrior.status not in Warrior.ON_ROSTER:
        raise RuleViolation(f"{warrior.name} is no longer on the roster.")
    if warrior.status == Warrior.Status.CAPTURED:
        raise RuleViolation(f"{warrior.name} is held captive: nothing reaches him there.")
    if stored.item is None:
        raise RuleViolation(f"{stored.name} is not equipment: sell it or keep it stored.")
    check_may_use(warrior, stored.item)
    preference = Case(
        When(pk=stored.pk, then=0), When(container=stored.container_id, then=1), default=2
    )
    alike = StoredItem.objects.filter(container__warband=warrior.warband, item=stored.item)
    # The containers before the items, as every service locks them.
    holding = StorageContainer.objects.filter(pk__in=alike.values("container_id"))
    locked = list(
        holding.select_for_update(no_key=True).order_by("pk").values_list("pk", flat=True)
    )
    same = list(
        alike.filter(container__in=locked)
        .select_for_update(of=("self",), no_key=True)
        .order_by(preference, F("correction").asc(nulls_first=True), "pk")[: warrior.group_size]
    )
    if stored.pk not in {taken.pk for taken in same}:
        raise RuleViolation(f"{stored.name} is no longer stored: reload the page.")
    if len(same) < warrior.group_size:
        raise RuleViolation(
            f"Henchmen in a group are equipped alike: {warrior.name} need {warrior.group_size} "
            f"{stored.item.name} and the treasury holds {len(same)}."
        )
    # The warrior last, as every service locks him (``ledger``): one taken captive, dismissed
    # or hired by a step that was undone meanwhile gets nothing.
    locked = Warrior.objects.select_for_update(no_key=True).filter(pk=warrior.pk)
    if list(locked.values_list("status", flat=True)) != [Warrior.Status.ACTIVE]:
        raise RuleViolation(f"{warrior.name} is no longer on the roster: reload the page.")
    context = with_note(context, actor, f"to {warrior.name}")
    for taken in same:
        remove_item(taken, reason=Reason.EQUIP, context=context)
    corrected = next((taken.correction_id for taken in same if taken.correction_id), None)
    cache.changed(warband=warrior.warband_id)  # his roster too: the league shows no equipment
    return WarriorItem.objects.create(
        warrior=warrior, item=stored.item, price_paid=0, correction_id=corrected
    )


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
            add_item(pile, item=owned.item, reason=Reason.UNEQUIP, context=context,
                     correction_id=owned.correction_id)  # fmt: skip
        owned.delete()
    for pouch in StorageContainer.objects.held().filter(holder=warrior):
        if pouch.gold_crowns or pouch.wyrdstone:
            move_treasure(
                pouch, pile, actor=actor, gold=pouch.gold_crowns, wyrdstone=pouch.wyrdstone
            )
        pouch.refresh_from_db()
        pouch.status = StorageContainer.Status.LOST
        pouch.save(update_fields=["status"])
    cache.changed(warband=warrior.warband_id)
