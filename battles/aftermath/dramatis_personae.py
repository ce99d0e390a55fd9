"""Step 7 of the post-battle sequence, hired swords and dramatis personae: hire them and pay
the upkeep of those already with the warband, or let them go (core rules, Hired Swords; the
dramatis personae chapter).

A hired sword of the catalogue joins the roster as a ``Warrior`` (``warbands.hired_swords``),
and so does a dramatis persona of the catalogue found by a search in step 6
(``persona_search``), hired by paying his fee if ``persona_refusal`` allows it, under the
campaign's row lock (one warband of a campaign has him at a time). Anything the catalogues
lack is still typed by hand (a name, the fee paid, the upkeep: ``HiredSword``). Readings
where the rules are silent:

- Upkeep is due after each battle he was with the warband for (the rules: every battle he
  fights, the first included); one hired in this battle's own sequence pays from the next.
- Unpaid, he leaves (dismissed) and his experience goes with him.
- A persona who stays for one battle only (a wanderer) cannot be paid to stay: he leaves in
  the step after the battle he fought; his upkeep, if any, is not asked.

A warrior of the warband's own list whose type has the ``upkeep`` effect (the Orc Mob's and
the Black Orcs' Troll, Always Hungry: ``upkeep`` gold crowns after every battle) is asked the
same way and on the same days (one hired in a battle's sequence pays from the next battle),
and leaves unpaid. The lists'
other ways to keep him when the gold runs short (two Goblin Warriors or Cave Squigs fed to the
Orc Mob's Troll, the Black Orcs' Troll counting as two warriors for 5 gc) are not offered: the
player settles them at the table and pays or lets him go here.
"""

from __future__ import annotations

from functools import cached_property

from django.db.models import Q

from battles.aftermath import persona_search
from battles.aftermath.engine import action
from battles.aftermath.treasury_steps import TreasuryStep, pay, step_board
from battles.models import PostBattleSequence
from battles.rules.experience import effects_of
from core.errors import RuleViolation
from core.words import possessive
from warbands import dramatis_personae, hired_swords
from warbands.models import HiredSword, Warrior


class SwordCatalogue:
    """The catalogue of hired swords, each with why the warband may not hire him
    (``hired_swords.hireable_swords``), read when the page first draws its rows: the step
    draws them only when the player opens the catalogue."""

    def __init__(self, warband) -> None:
        self.warband = warband

    @cached_property
    def rows(self) -> list:
        return hired_swords.hireable_swords(self.warband)

    def __iter__(self):
        return iter(self.rows)


#: Warriors of the list who ask an upkeep like a hired sword's (the Troll's Always Hungry).
KEPT_FOR_UPKEEP = Q(hired_sword__isnull=False) | Q(
    warrior_type__special_rules__contains=[{"effect": "upkeep"}]
)


def upkeep_due(sequence: PostBattleSequence) -> list[HiredSword]:
    """The warband's hired swords typed by hand whose upkeep falls due in this sequence: every
    one hired before this battle (those hired in its own sequence pay from the next battle on)."""
    battle = sequence.participant.battle
    return list(
        HiredSword.objects.filter(
            warband=sequence.participant.warband, status=HiredSword.Status.ACTIVE
        )
        .exclude(hired_after=battle)
        .exclude(created_at__gt=battle.created_at)
        .order_by("pk")
    )


def swords_due(sequence: PostBattleSequence) -> list[Warrior]:
    """The catalogue's hired swords on the roster, and the warriors whose type asks an
    ``upkeep``, who were with the warband for this battle and are still with it (the dead and
    the captured ask no upkeep)."""
    battle = sequence.participant.battle
    return list(
        Warrior.objects.filter(
            KEPT_FOR_UPKEEP,
            warband=sequence.participant.warband,
            status=Warrior.Status.ACTIVE,
            created_at__lt=battle.created_at,
        )
        .select_related("hired_sword", "hired_sword__warrior_type__race", "warband", "warrior_type")
        .order_by("pk")
    )


def upkeep_of(warrior: Warrior) -> int:
    """What keeping ``warrior`` costs after a battle: a hired sword's upkeep, or the gold his
    type's ``upkeep`` effect asks."""
    if warrior.hired_sword_id:
        return hired_swords.upkeep_of(warrior)
    return int(effects_of(warrior.warrior_type.special_rules)["upkeep"]["upkeep"])


def _settled(sequence: PostBattleSequence) -> dict[str, str]:
    return dict(sequence.state.get("upkeep", {}))


class DramatisPersonae(TreasuryStep):
    """Step 7: hire hired swords (from the catalogue) and dramatis personae (typed by hand);
    pay the upkeep of those already with the warband, or let them go."""

    number = 7

    def page_context(self, sequence, user, posts=None):
        context = {"board": step_board(sequence, user, posts)}
        decided = _settled(sequence)
        context["upkeep"] = [(h, decided.get(str(h.pk))) for h in upkeep_due(sequence)]
        context["sword_upkeep"] = [
            (w, upkeep_of(w), decided.get(f"w{w.pk}")) for w in swords_due(sequence)
        ]
        context["hired_swords"] = list(
            HiredSword.objects.filter(
                warband=sequence.participant.warband, status=HiredSword.Status.ACTIVE
            )
        )
        context["sword_catalogue"] = SwordCatalogue(sequence.participant.warband)
        found = persona_search.found_keys(sequence)
        context["persona_catalogue"] = [
            (persona, reason)
            for persona, reason in dramatis_personae.personae_for(
                sequence.participant.warband,
                found=found,
                fought_last_battle=persona_search.fought_last_battle(sequence),
            )
            if persona.key in found
        ]
        return context

    def blockers(self, sequence, tasks=None):
        decided = _settled(sequence)
        typed = [h.name for h in upkeep_due(sequence) if str(h.pk) not in decided]
        listed = [w.name for w in swords_due(sequence) if f"w{w.pk}" not in decided]
        return [f"Pay {possessive(name)} upkeep or let him go." for name in typed + listed]

    @action
    def hire_sword(self, ctx, values, dice):
        if values.get("sword"):
            return self.hire_from_catalogue(ctx, values, dice)
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

    def hire_from_catalogue(self, ctx, values, dice=None):
        """Hired Swords: hired after a battle, his fee paid from the treasury (the engine
        holds the sequence row, ``pay`` locks the containers it draws on)."""
        sword = hired_swords.catalogue().filter(key=values["sword"]).first()
        if sword is None:
            return self.hire_persona(ctx, values, dice)
        reason = hired_swords.sword_refusal(
            ctx.warband, sword, hired_swords.held_sword_keys(ctx.warband)
        )
        if reason:
            raise RuleViolation(reason)
        name = values["name"].strip() or sword.name
        pay(ctx, sword.hire_fee, f"hiring {name}", prefer=values["pay_from"])
        hired_swords.new_hired_sword(
            ctx.warband, sword, name=name, at_creation=False, create=ctx.journal.create, dice=dice
        )
        return f"Hired {name} ({sword.name}) for {sword.hire_fee} gc."

    def hire_persona(self, ctx, values, dice=None):
        """A dramatis persona found in step 6, hired by paying his fee. The campaign's row is
        locked before ``persona_refusal`` reads who has him (``warbands.dramatis_personae``)."""
        persona = dramatis_personae.personae().filter(key=values["sword"]).first()
        if persona is None:
            raise RuleViolation("Choose a hired sword or dramatis persona of the catalogue.")
        dramatis_personae.lock_campaign(ctx.warband)
        reason = dramatis_personae.persona_refusal(
            ctx.warband,
            persona,
            found=persona_search.found_keys(ctx.sequence),
            fought_last_battle=persona_search.fought_last_battle(ctx.sequence),
        )
        if reason:
            raise RuleViolation(reason)
        name = values["name"].strip() or persona.name
        pay(ctx, persona.hire_fee, f"hiring {name}", prefer=values["pay_from"])
        hired_swords.new_hired_sword(
            ctx.warband, persona, name=name, at_creation=False, create=ctx.journal.create,
            dice=dice,
        )  # fmt: skip
        return f"Hired {name} ({persona.name}, dramatis persona) for {persona.hire_fee} gc."

    @action
    def upkeep(self, ctx, values, dice):
        if values.get("warrior"):
            return self.sword_upkeep(ctx, values)
        sword = next((h for h in upkeep_due(ctx.sequence) if h.pk == values["hired_sword"]), None)
        if sword is None:
            raise RuleViolation("Choose a hired sword whose upkeep is due.")
        decided = _settled(ctx.sequence)
        if str(sword.pk) in decided:
            raise RuleViolation(
                f"{possessive(sword.name)} upkeep is settled already: nothing changed."
            )
        if values["decision"] == "pay":
            pay(ctx, sword.upkeep, f"{possessive(sword.name)} upkeep", prefer=values["pay_from"])
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

    def sword_upkeep(self, ctx, values):
        """Hired Swords (and Always Hungry): after each battle his upkeep is paid or he leaves
        the warband."""
        warrior = next((w for w in swords_due(ctx.sequence) if w.pk == values["warrior"]), None)
        if warrior is None:
            raise RuleViolation("Choose a hired sword whose upkeep is due.")
        decided = _settled(ctx.sequence)
        if f"w{warrior.pk}" in decided:
            raise RuleViolation(
                f"{possessive(warrior.name)} upkeep is settled already: nothing changed."
            )
        wanderer = warrior.hired_sword_id and warrior.hired_sword.one_battle
        if values["decision"] == "pay" and wanderer:
            raise RuleViolation(f"{warrior.name} stays for one battle only: let him go.")
        if values["decision"] == "pay":
            upkeep = upkeep_of(warrior)
            pay(ctx, upkeep, f"{possessive(warrior.name)} upkeep", prefer=values["pay_from"])
            decided[f"w{warrior.pk}"] = "paid"
            text = f"Paid {upkeep} gc upkeep to {warrior.name}."
        elif values["decision"] == "leave":
            ctx.journal.update(warrior, status=Warrior.Status.DISMISSED)
            decided[f"w{warrior.pk}"] = "left"
            text = f"{warrior.name} leaves the warband."
        else:
            raise RuleViolation("Pay the upkeep or let him go.")
        ctx.journal.update(ctx.sequence, state={**ctx.sequence.state, "upkeep": decided})
        return text
