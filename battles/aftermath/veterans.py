"""Step 5 of the post-battle sequence, veterans (FACTS.md section 6): 2D6 is the experience
the new men may bring. Readings where the rules are silent:

- Models added to an experienced henchman group are veterans (this step); models added to a
  group without experience are plain recruits (step 8).
- Veterans join a group free to fight (``WarriorQuerySet.fighting``), whether or not it took
  part in the battle; the warband's limits count its captives (``check_group_grows``).
"""

from __future__ import annotations

from battles.aftermath.engine import action
from battles.aftermath.treasury_steps import (
    TreasuryStep,
    check_group_grows,
    equipment_per_model,
    own_warrior,
    pay,
    step_board,
)
from battles.models import SequenceTask
from core.errors import RuleViolation
from warbands.models import Warrior


def _experienced_groups(warband) -> list[Warrior]:
    return list(
        warband.warriors.fighting()
        .filter(is_hero=False, experience__gt=0)
        .select_related("warrior_type")
    )


class Veterans(TreasuryStep):
    """Step 5: 2D6 is the experience the new men may bring; each costs his price, his share of
    the group's equipment and 2 gc per experience point."""

    after_tasks = True  # its forms come after its rolls
    number = 5
    rolls = True
    asks = False

    def planned(self, sequence):
        if not _experienced_groups(sequence.participant.warband):
            return []
        label = "Veterans: 2D6 for the experience available"
        return [SequenceTask(sequence=sequence, step=5, order=0, kind="veterans", label=label)]

    def page_context(self, sequence, user, posts=None):
        context = {"board": step_board(sequence, user, posts)}
        task = sequence.tasks.filter(step=5, void=False, kind="veterans", done=True).first()
        available = (task.result or {}).get("available", 0) if task else None
        used = sequence.state.get("veterans_used", 0)
        groups = _experienced_groups(sequence.participant.warband)
        context.update(
            available=available,
            experience_left=None if available is None else available - used,
            groups=[
                (g, g.warrior_type.cost + equipment_per_model(g) + 2 * g.experience) for g in groups
            ],
        )
        return context

    def run_task(self, ctx, task, dice):
        roll = dice.roll(2, 6, "Veterans: experience available (2D6)")
        task.result = {"available": roll.total}
        return f"2D6 {roll.faces[0]}+{roll.faces[1]} = {roll.total} experience available."

    @action
    def add_veterans(self, ctx, values, dice):
        task = ctx.sequence.tasks.filter(step=5, void=False, kind="veterans", done=True).first()
        if task is None:
            raise RuleViolation("Roll for the experience available first.")
        group = own_warrior(ctx, values["group"], field="group")
        if group.is_hero or group.experience == 0:
            raise RuleViolation("Veterans join an experienced henchman group.", field="group")
        models = values["models"]
        used = ctx.sequence.state.get("veterans_used", 0)
        left = task.result["available"] - used
        brought = models * group.experience
        if brought > left:
            raise RuleViolation(
                f"{models} veteran{'s' if models > 1 else ''} of {group.name} bring {brought} "
                f"experience; {left} is left of the roll."
            )
        check_group_grows(ctx, group, models)
        per_model = group.warrior_type.cost + equipment_per_model(group) + 2 * group.experience
        pay(
            ctx,
            per_model * models,
            f"{models} veteran(s) for {group.name}",
            prefer=values["pay_from"],
        )
        ctx.journal.update(group, group_size=group.group_size + models)
        ctx.journal.update(
            ctx.sequence, state={**ctx.sequence.state, "veterans_used": used + brought}
        )
        return f"{models} veteran(s) join {group.name} for {per_model * models} gc."
