"""Step 9 of the post-battle sequence, reallocation (the Mayhem in Mordheim storage
containers): move gold, shards and items between containers and warriors, buy, sell and load
containers. Each action is the treasury page's own form (``warbands.treasury.forms``: the
board draws them, ``treasury_steps.step_board``), applied with the step's context, so each
ledger entry names the battle and the step; what it changes of the roster and the containers
is noted in the step's journal, so that undo restores it. The treasury's services check the
containers' capacity and who may carry what.
"""

from __future__ import annotations

from battles.aftermath.engine import action
from battles.aftermath.treasury_steps import TreasuryStep
from core.words import a
from warbands.models import amount_parts


class Reallocate(TreasuryStep):
    """Step 9: move gold, shards and items between containers and warriors (items only to
    warriors whose list allows them), buy, sell and load containers. Each action gets its
    form, read and checked (``battles.aftermath.forms.clean_action``)."""

    number = 9

    @action
    def move(self, ctx, form, dice):
        source, target = form.apply(actor=ctx.actor, context=ctx.treasury_context())
        moved = " and ".join(
            amount_parts(form.cleaned_data["gold"], form.cleaned_data["wyrdstone"])
        )
        return f"Moved {moved} from {source.the} to {target.the}."

    @action
    def move_item(self, ctx, form, dice):
        stored = form.apply(actor=ctx.actor, context=ctx.treasury_context())
        return f"Moved {stored.name} to {form.cleaned_data['target'].the}."

    @action
    def equip(self, ctx, form, dice):
        owned = form.apply(actor=ctx.actor, context=ctx.treasury_context())
        ctx.journal.created(owned)
        return f"{form.cleaned_data['warrior'].name} takes {form.cleaned_data['stored_item'].name}."

    @action
    def unequip(self, ctx, form, dice):
        owned = form.cleaned_data["owned"]
        ctx.journal.will_delete(owned)
        form.apply(actor=ctx.actor, context=ctx.treasury_context())
        target = form.cleaned_data["target"]
        return f"{owned.item.name} of {owned.warrior.name} stored in {target.the}."

    @action
    def buy_container(self, ctx, form, dice):
        bought = ctx.journal.created(form.apply(actor=ctx.actor, context=ctx.treasury_context()))
        return f"Bought {a(bought.spec.name)} for {bought.spec.price} gc."

    @action
    def sell_container(self, ctx, form, dice):
        container = form.cleaned_data["container"]
        with ctx.journal.watch(container, ["status", "parent"]):
            form.apply(actor=ctx.actor, context=ctx.treasury_context())
        return f"Sold {container.the} for {container.spec.price // 2} gc."

    @action
    def place(self, ctx, form, dice):
        container, parent = form.cleaned_data["container"], form.cleaned_data["parent"]
        with ctx.journal.watch(container, ["parent"]):
            form.apply(actor=ctx.actor, context=ctx.treasury_context())
        where = f"on {parent.the}" if parent else "on its own"
        return f"The {container} now rides {where}."
