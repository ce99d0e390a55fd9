"""Step 7 of the post-battle sequence, hired swords and dramatis personae: hire them (a name,
the fee paid, the upkeep) and pay the upkeep of those already with the warband, or let them
go. Readings where the rules are silent:

- A hired sword's upkeep falls due after each battle after the one in whose sequence he was
  hired; the player pays it or lets him go.
"""

from __future__ import annotations

from battles.models import PostBattleSequence
from battles.sequence.treasury_steps import TreasuryStep, pay, treasury_page
from warbands.models import HiredSword
from warbands.rules import RuleViolation


def upkeep_due(sequence: PostBattleSequence) -> list[HiredSword]:
    """The warband's hired swords whose upkeep falls due in this sequence: every one hired
    before this battle (those hired in its own sequence pay from the next battle on)."""
    battle = sequence.participant.battle
    return list(
        HiredSword.objects.filter(
            warband=sequence.participant.warband, status=HiredSword.Status.ACTIVE
        )
        .exclude(hired_after=battle)
        .exclude(created_at__gt=battle.created_at)
        .order_by("pk")
    )


class DramatisPersonae(TreasuryStep):
    """Step 7: hire hired swords and dramatis personae (a name, the fee paid, the upkeep);
    pay the upkeep of those already with the warband, or let them go."""

    number = 7
    actions = ("hire_sword", "upkeep")

    def page_context(self, sequence, user):
        context = treasury_page(sequence, user)
        decided = sequence.state.get("upkeep", {})
        context["upkeep"] = [(h, decided.get(str(h.pk))) for h in upkeep_due(sequence)]
        context["hired_swords"] = list(
            HiredSword.objects.filter(
                warband=sequence.participant.warband, status=HiredSword.Status.ACTIVE
            )
        )
        context["sword_kinds"] = HiredSword.Kind.choices
        return context

    def blockers(self, sequence, tasks=None):
        decided = sequence.state.get("upkeep", {})
        return [
            f"Pay {h.name}'s upkeep or let him go."
            for h in upkeep_due(sequence)
            if str(h.pk) not in decided
        ]

    def do_hire_sword(self, ctx, values, dice):
        name = values["name"].strip()
        if not name:
            raise RuleViolation("Give the hired sword's name.")
        kind = values["kind"] or HiredSword.Kind.HIRED_SWORD
        if kind not in HiredSword.Kind.values:
            raise RuleViolation("Choose a hired sword or a dramatis persona.")
        fee = values["hire_fee"]
        upkeep = values["upkeep"]
        pay(ctx, fee, f"hiring {name}", prefer=values["pay_from"])
        ctx.journal.create(
            HiredSword,
            warband=ctx.warband,
            name=name,
            kind=kind,
            hire_fee=fee,
            upkeep=upkeep,
            hired_after=ctx.battle,
        )
        return f"Hired {name} for {fee} gc (upkeep {upkeep} gc)."

    def do_upkeep(self, ctx, values, dice):
        sword = next((h for h in upkeep_due(ctx.sequence) if h.pk == values["hired_sword"]), None)
        if sword is None:
            raise RuleViolation("Choose a hired sword whose upkeep is due.")
        decided = dict(ctx.sequence.state.get("upkeep", {}))
        if str(sword.pk) in decided:
            raise RuleViolation(f"{sword.name}'s upkeep is settled already: nothing changed.")
        if values["decision"] == "pay":
            pay(ctx, sword.upkeep, f"{sword.name}'s upkeep", prefer=values["pay_from"])
            decided[str(sword.pk)] = "paid"
            text = f"Paid {sword.upkeep} gc upkeep to {sword.name}."
        elif values["decision"] == "leave":
            ctx.journal.update(sword, status=HiredSword.Status.LEFT)
            decided[str(sword.pk)] = "left"
            text = f"{sword.name} leaves the warband."
        else:
            raise RuleViolation("Pay the upkeep or let him go.")
        ctx.journal.update(ctx.sequence, state={**ctx.sequence.state, "upkeep": decided})
        return text
