"""Step 4 of the post-battle sequence, selling wyrdstone (FACTS.md section 5): once per
sequence, any number of shards at the table's price for the batch
(``battles.rules.exploration.wyrdstone_price``). Readings where the rules are silent:

- Wyrdstone sold is taken from the unstored pile first, then from the containers in turn. The
  warband's size for the price is the number of its models free to fight
  (``WarriorQuerySet.fighting``): a captive held by an enemy is not with the warband (he
  still counts against its limits), and hired swords are not counted.
"""

from __future__ import annotations

from battles.aftermath.engine import action
from battles.aftermath.treasury_steps import (
    TreasuryStep,
    locked_containers,
    receive,
    step_board,
)
from battles.rules import exploration as rules
from core.errors import RuleViolation
from warbands import treasury
from warbands.models import LedgerEntry

Reason = LedgerEntry.Reason


def warband_size(warband) -> int:
    """The warband's size for the price table: its models free to fight, captives aside, and
    hired swords aside (Hired Swords: they do not change the wyrdstone income)."""
    fighting = warband.warriors.fighting().filter(hired_sword__isnull=True)
    return sum(w.group_size for w in fighting)


class SellWyrdstone(TreasuryStep):
    """Step 4: once per sequence, any number of shards at the table's price for the batch."""

    number = 4

    def page_context(self, sequence, user, posts=None):
        context = {"board": step_board(sequence, user, posts)}
        warband = sequence.participant.warband
        shards = treasury.totals(warband)["wyrdstone"]
        size = warband_size(warband)
        context.update(
            shards_held=shards,
            warband_size=size,
            sold=sequence.state.get("wyrdstone_sold"),
            prices=[(n, rules.wyrdstone_price(n, size)) for n in range(1, min(shards, 8) + 1)],
        )
        return context

    @action
    def sell(self, ctx, values, dice):
        if ctx.sequence.state.get("wyrdstone_sold"):
            raise RuleViolation("Wyrdstone is sold only once per post-battle sequence.")
        shards = values["shards"]
        locked = locked_containers(ctx)
        containers = [c for c in locked if c.wyrdstone]
        held = sum(c.wyrdstone for c in containers)
        if shards > held:
            raise RuleViolation(f"The warband holds {held} wyrdstone shards.")
        target = treasury.made(values["into"])  # the unstored pile, made now if chosen
        # the locked copy of the same container, if it is one: it knows what the sale took
        target = next((c for c in locked if c.pk == target.pk), target)
        size = warband_size(ctx.warband)
        price = rules.wyrdstone_price(shards, size)
        note = f"{shards} wyrdstone sold"
        remaining = shards
        for container in containers:
            take = min(container.wyrdstone, remaining)
            if take:
                treasury.add_treasure(
                    container,
                    wyrdstone=-take,
                    reason=Reason.SALE,
                    context=ctx.treasury_context(note),
                )
                remaining -= take
            if not remaining:
                break
        receive(ctx, target, reason=Reason.SALE, note=note, gold=price)
        ctx.journal.update(ctx.sequence, state={**ctx.sequence.state, "wyrdstone_sold": shards})
        return f"Sold {shards} wyrdstone for {price} gc ({size} warriors) into {target.the}."
