"""The warband's containers themselves: buying, selling, naming and numbering them, placing
them on carriers, and the purse that fills them at the end of mustering.

Readings where the rules are silent (the player would expect them):
- Common containers (backpack, large sack, pouch, treasure chest) may be bought while mustering,
  from the muster purse, and at any time from the treasury page; rare ones (saddle bags, pack
  animals, carts, the coach) need a rarity roll, so only the post-battle sequence buys them.
- Selling a container pays half its price, rounded down (trading: "half its listed price"); it
  must be empty first, so that nothing in it is lost by accident.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from campaign import cache
from core.errors import RuleViolation
from core.words import A, a
from warbands import permissions
from warbands.models import StorageContainer, VesselItem, Warband, Warrior
from warbands.rules import containers as rules
from warbands.treasury.ledger import (
    Context,
    Reason,
    add_treasure,
    check_owner,
    children_kinds,
    lock_containers,
    lock_held,
    lock_warbands,
    with_note,
)

COMMON_CONTAINERS = tuple(kind for kind, spec in rules.CATALOGUE.items() if spec.rarity is None)
BUYABLE_CONTAINERS = tuple(
    kind for kind in COMMON_CONTAINERS if rules.CATALOGUE[kind].price is not None
)
SELLABLE_CONTAINERS = tuple(
    kind for kind, spec in rules.CATALOGUE.items() if spec.price is not None
)


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

    While mustering it is paid from the purse; afterwards from ``pay_from``, or, when none is
    named, from the container with the most gold that can pay it alone. Rare ones need
    ``rarity_passed`` (the post-battle sequence's rarity roll). A pouch is hero equipment and
    names its hero.
    """
    warband = Warband.objects.select_for_update(no_key=True).get(pk=warband.pk)
    if not permissions.can_edit_warband(actor, warband):
        raise PermissionDenied("Only the warband's owner may buy for it.")
    spec = rules.spec(kind)
    if spec.price is None:
        raise RuleViolation(f"{A(spec.name)} is not bought as a container.")
    if spec.rarity is not None and not rarity_passed:
        raise RuleViolation(
            f"{A(spec.name)} is Rare {spec.rarity}: buy it after a successful rarity roll in the "
            "post-battle sequence."
        )
    if spec.hero_only:
        if holder is None or holder.warband_id != warband.pk:
            raise RuleViolation(f"Choose the hero who carries the {spec.name}.")
        if not holder.is_hero:
            raise RuleViolation(f"Only heroes may use {a(spec.name)}; {holder.name} is not one.")
        if StorageContainer.objects.filter(kind=kind, holder=holder).exists():
            raise RuleViolation(f"{holder.name} already has {a(spec.name)}.")
    context = with_note(context or Context(step=step), actor, f"bought {a(spec.name)}")
    if warband.is_draft:
        if spec.price > warband.gold_crowns:
            raise RuleViolation(
                f"{A(spec.name)} costs {spec.price} gc but only {warband.gold_crowns} gc are left."
            )
        warband.gold_crowns -= spec.price
        warband.save(update_fields=["gold_crowns"])
    else:
        if pay_from is None:
            pay_from = _able_to_pay(warband, spec.price, spec.name)
        if pay_from.warband_id != warband.pk:
            raise RuleViolation("Choose the container to pay from.")
        (pay_from,) = lock_held(pay_from)
        if pay_from.gold_crowns < spec.price:
            raise RuleViolation(
                f"{A(spec.name)} costs {spec.price} gc; the {pay_from} holds "
                f"{pay_from.gold_crowns} gc."
            )
        add_treasure(pay_from, gold=-spec.price, reason=Reason.PURCHASE, context=context)
    bought = StorageContainer.objects.create(
        warband=warband, kind=kind, holder=holder if spec.hero_only else None
    )
    cache.changed(warband=warband)
    number_alike(warband.pk, kind, [bought])
    return bought


def _able_to_pay(warband: Warband, price: int, name: str) -> StorageContainer:
    """The warband's container holding the most gold, when it holds ``price`` or more: "any
    container with enough", so the player need not choose one. Locked and read again by the
    caller."""
    able = (
        StorageContainer.objects.real()
        .filter(warband=warband, gold_crowns__gte=price)
        .order_by("-gold_crowns", "pk")
        .first()
    )
    if able is None:
        raise RuleViolation(
            f"{A(name)} costs {price} gc and no container holds that much: move gold into one "
            "container first."
        )
    return able


@transaction.atomic
def sell_container(
    container: StorageContainer,
    *,
    actor,
    proceeds_to: StorageContainer | None,
    context: Context | None = None,
):
    """Sell an empty container for half its price, rounded down. The container is read again
    under its lock: one sold meanwhile (a second tab, a double click with its own token) is
    refused, so its price is paid once."""
    warband = Warband.objects.select_for_update(no_key=True).get(pk=container.warband_id)
    check_owner(actor, container)
    # Both containers at once, in the lock order (a move between them waits, never deadlocks).
    receiving = [proceeds_to] if proceeds_to is not None and proceeds_to.pk != container.pk else []
    (container, *_) = lock_held(container, *receiving)
    spec = container.spec
    if spec is None or spec.price is None:
        raise RuleViolation("That cannot be sold.")
    if not container.is_empty:
        raise RuleViolation(
            f"Empty the {container} before selling it: move its {container.contents_label} "
            "into another container (or to “not stored yet”) first."
        )
    if container.children.exists():
        raise RuleViolation(f"Take what the {container} carries off it before selling it.")
    if container.vessel_items.exists():
        raise RuleViolation(f"Take the vessels out of the {container} before selling it.")
    price = spec.price // 2
    container.status = StorageContainer.Status.SOLD
    container.parent = None
    container.save(update_fields=["status", "parent"])
    cache.changed(warband=warband)
    if warband.is_draft:
        # While mustering a container goes back for what it cost, like any purchase; the
        # free treasure chest cost nothing and is not given back.
        if container.pk == free_chest_pk(warband.pk):
            raise RuleViolation("The free treasure chest cannot be given back.")
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
            context=with_note(context, actor, f"sold {a(spec.name)}"),
            sold=container,
        )


@transaction.atomic
def place_container(container: StorageContainer, parent: StorageContainer | None, *, actor):
    """Put a container on a pack animal, a warmount, into a cart or on a coach roof (or take
    it off: ``parent=None``)."""
    containers = [container] + ([parent] if parent else [])
    check_owner(actor, *containers)
    locked = lock_held(*containers)
    container = locked[0]
    cache.changed(warband=container.warband_id)
    if parent is None:
        container.parent = None
        container.save(update_fields=["parent"])
        return container
    parent = locked[1]
    if parent.pk == container.pk or container.children.exists():
        raise RuleViolation(f"{A(str(container))} cannot be put there.")
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
    (container,) = lock_containers(container)
    check_owner(actor, container)
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
    cache.changed(warband=container.warband_id)
    if not label:
        number_alike(container.warband_id, container.kind, [container])
    return container


@transaction.atomic
def place_vessel_item(vessel: VesselItem, container: StorageContainer | None, *, actor):
    """Dark Artefacts and Loyalty Symbols "cannot be placed in storage containers"; only an
    opulent coach carries them (inside, whatever is on its roof)."""
    vessel = VesselItem.objects.select_for_update(no_key=True).get(pk=vessel.pk)
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
    cache.changed(warband=vessel.warband_id)
    return vessel


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


# --- Mustering -----------------------------------------------------------------------------


def create_starting_chest(warband: Warband) -> StorageContainer:
    """MiM: "Each warband starts the campaign with a treasure chest for free"."""
    cache.changed(warband=warband)
    return StorageContainer.objects.create(warband=warband, kind="treasure_chest")


def free_chest_pk(warband_id: int) -> int | None:
    """The treasure chest every warband starts with for free (MiM): its first one."""
    chests = StorageContainer.objects.filter(warband_id=warband_id, kind="treasure_chest")
    return chests.order_by("pk").values_list("pk", flat=True).first()


def storage_problems(warband: Warband) -> list[str]:
    """Why the purse cannot yet go into the warband's containers at the end of mustering."""
    capacity = sum(
        rules.open_capacity(c.kind, children_kinds(c)).gold - c.gold_crowns
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
        room = rules.open_capacity(container.kind, children_kinds(container)).gold
        amount = min(remaining, room - container.gold_crowns)
        if amount > 0:
            add_treasure(container, gold=amount, reason=Reason.STARTING_TREASURY, context=context)
            remaining -= amount
    if remaining:
        raise RuleViolation(storage_problems(warband)[0])
    warband.gold_crowns = 0
    warband.save(update_fields=["gold_crowns"])
    cache.changed(warband=warband)
