"""Step 9 of the post-battle sequence, reallocation (the Mayhem in Mordheim storage
containers): move gold, shards and items between containers and warriors, buy, sell and load
containers. Every move goes through ``warbands.treasury``, which checks the containers'
capacity and who may carry what.
"""

from __future__ import annotations

from collections.abc import Mapping

from battles.aftermath.engine import Context
from battles.aftermath.treasury_steps import (
    TreasuryStep,
    destination,
    destinations,
    own_container,
    own_warrior,
    pay,
    treasury_page,
)
from core.errors import RuleViolation
from core.options import OptionList
from warbands import treasury
from warbands.models import StorageContainer, StoredItem, WarriorItem, amount_parts
from warbands.rules import containers as container_rules


def _stored_in(containers) -> list[StoredItem]:
    """The items stored in the warband's held containers (with their ``stored_list``), by
    name, each knowing its container."""
    stored = []
    for container in containers:
        for item in container.stored_list:
            item.container = container
            stored.append(item)
    return sorted(stored, key=lambda item: (item.name, item.pk))


class Reallocate(TreasuryStep):
    """Step 9: move gold, shards and items between containers and warriors (items only to
    warriors whose list allows them), buy, sell and load containers."""

    number = 9
    actions = ("move", "move_item", "equip", "unequip", "buy_container", "sell_container", "place")

    def page_context(self, sequence, user):
        context = treasury_page(sequence, user)
        real = context["real_containers"]
        context.update(
            carriers=OptionList(c for c in real if c.kind in container_rules.CARRIERS),
            boxes=OptionList(c for c in real if c.kind in container_rules.BOXES),
            buyable=[(kind, container_rules.spec(kind)) for kind in treasury.BUYABLE_CONTAINERS],
            heroes=[w for w in context["warriors"] if w.is_hero],
            stored=_stored_in(context.pop("loaded")),
        )
        return context

    def do_move(self, ctx, values, dice):
        source, target = destinations(ctx, values, "source", "target")
        gold = values["gold"]
        shards = values["wyrdstone"]
        treasury.move_treasure(
            source,
            target,
            actor=ctx.actor,
            gold=gold,
            wyrdstone=shards,
            context=ctx.treasury_context(),
        )
        moved = " and ".join(amount_parts(gold, shards))
        return f"Moved {moved} from {source.the} to {target.the}."

    def do_move_item(self, ctx, values, dice):
        stored = _stored(ctx, values)
        target = destination(ctx, values, "target")
        treasury.move_stored_item(stored, target, actor=ctx.actor, context=ctx.treasury_context())
        return f"Moved {stored.name} to {target.the}."

    def do_equip(self, ctx, values, dice):
        stored = _stored(ctx, values)
        warrior = own_warrior(ctx, values["warrior"])
        owned = treasury.equip_stored_item(
            stored, warrior, actor=ctx.actor, context=ctx.treasury_context()
        )
        ctx.journal.created(owned)
        return f"{warrior.name} takes {stored.name}."

    def do_unequip(self, ctx, values, dice):
        owned = (
            WarriorItem.objects.filter(warrior__warband=ctx.warband, pk=values["owned"] or 0)
            .select_related("item", "warrior")
            .first()
        )
        if owned is None:
            raise RuleViolation("Choose an item a warrior carries.")
        target = destination(ctx, values, "target")
        ctx.journal.will_delete(owned)
        treasury.store_warrior_item(owned, target, actor=ctx.actor, context=ctx.treasury_context())
        return f"{owned.item.name} of {owned.warrior.name} stored in {target.the}."

    def do_buy_container(self, ctx, values, dice):
        kind = values["kind"]
        if kind not in treasury.BUYABLE_CONTAINERS:
            raise RuleViolation("Choose a Common container (rare ones are bought in step 6).")
        holder = own_warrior(ctx, values["holder"]) if kind == "pouch" else None
        spec = container_rules.spec(kind)
        pay(ctx, spec.price, f"a {spec.name}", prefer=values["pay_from"])
        if holder is not None and not holder.is_hero:
            raise RuleViolation(f"Only heroes may use a {spec.name}; {holder.name} is not one.")
        if (
            holder is not None
            and StorageContainer.objects.held().filter(kind=kind, holder=holder).exists()
        ):
            raise RuleViolation(f"{holder.name} already has a {spec.name}.")
        bought = ctx.journal.create(StorageContainer, warband=ctx.warband, kind=kind, holder=holder)
        treasury.number_alike(ctx.warband.pk, kind, [bought])  # "Large Sack 2", as bought anywhere
        return f"Bought a {spec.name} for {spec.price} gc."

    def do_sell_container(self, ctx, values, dice):
        container = own_container(ctx, values["container"])
        if container.kind == StorageContainer.LOOSE:
            raise RuleViolation("Choose a container to sell.")
        proceeds = destination(ctx, values, "proceeds_to")
        with ctx.journal.watch(container, ["status", "parent"]):
            treasury.sell_container(
                container, actor=ctx.actor, proceeds_to=proceeds, context=ctx.treasury_context()
            )
        return f"Sold {container.the} for {container.spec.price // 2} gc."

    def do_place(self, ctx, values, dice):
        container = own_container(ctx, values["container"])
        parent = own_container(ctx, values["parent"]) if values["parent"] else None
        with ctx.journal.watch(container, ["parent"]):
            treasury.place_container(container, parent, actor=ctx.actor)
        where = f"on {parent.the}" if parent else "on its own"
        return f"The {container} now rides {where}."


def _stored(ctx: Context, values: Mapping) -> StoredItem:
    stored = (
        StoredItem.objects.filter(
            container__warband=ctx.warband,
            container__status="held",
            pk=values["stored_item"] or 0,
        )
        .select_related("container", "item")
        .first()
    )
    if stored is None:
        raise RuleViolation("Choose a stored item.")
    return stored
