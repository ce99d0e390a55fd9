"""Step 2 of the post-battle sequence, experience (campaigns text, Experience): every award
of the rules and the scenario, itemised (``battles.rules.scenarios.experience_lines``); each
thick box reached on the roster is an advance, rolled at once (``battles.rules.experience``).

``roll_hero_advance`` is the Heroes' advance roll, which exploration (step 3) uses too.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from battles.aftermath.engine import Context, Step, action
from battles.aftermath.injuries import kill_warrior
from battles.models import SequenceTask, WarriorOutcome
from battles.rules import experience as xp_rules
from battles.rules import scenarios
from battles.rules.scenarios import ExperienceLine
from battles.rules.tasks import ask
from campaign.models import CampaignEvent
from campaign.services import record_event
from core.errors import RuleViolation
from core.words import possessive
from warbands import rules as roster_rules
from warbands.models import (
    Skill,
    SkillList,
    Spell,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)


@dataclass(frozen=True)
class Gain:
    """What one warrior earns after the battle, line by line."""

    warrior: Warrior
    lines: tuple[ExperienceLine, ...]

    @property
    def total(self) -> int:
        return sum(line.experience for line in self.lines)

    @property
    def why(self) -> str:
        return ", ".join(str(line) for line in self.lines)


class Experience(Step):
    """Step 2 (campaigns text, Experience; the scenario's experience list): each hero and
    henchman group that took part and survived earns +1, heroes +1 per enemy they put out of
    action, the side's leader +1 if it won, plus the scenario's own awards, the underdog bonus
    and what the injuries gave. Each thick box reached is an advance roll, made at once.

    Who took part is what the side entered (``battles.report.sides``): warriors who missed the
    battle, were captured in it or died of their injuries earn nothing. A battle reported
    before sides were entered, with no warrior listed, counts every warrior still fighting
    for the warband as having taken part."""

    number = 2
    rolls = True  # the advances due

    def blockers(self, sequence, tasks=None):
        if not sequence.state.get("experience_awarded"):
            return ["Award the experience first."]
        return super().blockers(sequence, tasks)

    def page_context(self, sequence, user, posts=None):
        if sequence.state.get("experience_awarded"):
            return {"awarded": sequence.state.get("experience_lines", [])}
        return {"gains": self.gains(sequence)}

    def gains(self, sequence, *, lock: bool = False) -> list[Gain]:
        """Each warrior who took part and survived, with his experience lines. ``lock``: the
        warriors are read under a row lock, so an award made meanwhile elsewhere (a captive
        sacrificed) is added to, not written over."""
        participant = sequence.participant
        battle = participant.battle
        played = scenarios.scenario(battle.scenario_key)
        fighting = Warrior.objects.fighting()
        if lock:
            fighting = fighting.select_for_update(of=("self",), no_key=True)
        warriors = list(
            fighting.filter(warband=participant.warband)
            .select_related("warrior_type")
            .order_by("-is_leader", "-is_hero", "pk")
        )
        outcomes = {o.warrior_id: o for o in WarriorOutcome.objects.filter(participant=participant)}
        everybody_fought = not outcomes and participant.side_entered_at is None
        leader_id = participant.leader_id
        if leader_id is None and everybody_fought:
            leader_id = next((w.pk for w in warriors if w.is_leader), None)
        won = participant.result == participant.Result.WON
        enemy_ratings = list(
            battle.participants.exclude(pk=participant.pk).values_list("rating_before", flat=True)
        )
        bonus = xp_rules.underdog_bonus(participant.rating_before, enemy_ratings)
        owed = sequence.state.get("injury_experience", {})
        gains = []
        for warrior in warriors:
            outcome = outcomes.get(warrior.pk)
            if not warrior.warrior_type.gains_experience or (
                outcome is None and not everybody_fought
            ):
                continue
            lines = scenarios.experience_lines(
                # A hired sword earns as a henchman does (hired swords text): no kills.
                is_hero=warrior.is_hero and warrior.hired_sword_id is None,
                survived=True,
                enemies_out_of_action=outcome.enemies_out_of_action if outcome else 0,
                led_the_winners=won and warrior.pk == leader_id,
                underdog=bonus,
                awards=outcome.awards if outcome else {},
                typed=outcome.scenario_experience if outcome else 0,
                played=played,
                extra={"serious injury": owed.get(str(warrior.pk), 0)},
                role=participant.role,
            )
            gains.append(Gain(warrior, tuple(lines)))
        return gains

    @action
    def award(self, ctx, values, dice):
        if ctx.sequence.state.get("experience_awarded"):
            raise RuleViolation("The experience has been awarded already: nothing changed.")
        lines, shown = [], []
        order = total = 0
        gains = self.gains(ctx.sequence, lock=True)
        ctx.journal.update_many(
            [(gain.warrior, gain.warrior.experience + gain.total) for gain in gains], "experience"
        )
        for gain in gains:
            warrior = gain.warrior
            total += gain.total
            old = warrior.experience - gain.total
            lines.append(f"{warrior.name} {gain.why} = {warrior.experience}")
            effects = xp_rules.effects_of(warrior.warrior_type.special_rules)
            # A hired sword advances on the henchmen's track but rolls the heroes' table.
            advances = xp_rules.advances_due(
                old, old + gain.total, is_hero=warrior.is_hero and warrior.hired_sword_id is None,
                half_rate="half_rate_advances" in effects,
            )  # fmt: skip
            shown.append(
                {
                    "name": warrior.name,
                    "lines": [str(line) for line in gain.lines],
                    "before": old,
                    "after": warrior.experience,
                    "advances": len(advances),
                }
            )
            for threshold in advances:
                order += 1
                ctx.journal.create(
                    SequenceTask, sequence=ctx.sequence, step=2, order=order,
                    kind="hero_advance" if warrior.is_hero else "henchman_advance",
                    warrior=warrior, data={"threshold": threshold},
                    label=f"{possessive(warrior.name)} advance ({threshold} experience)",
                )  # fmt: skip
        state = dict(ctx.sequence.state, experience_awarded=True, experience_lines=shown)
        ctx.journal.update(ctx.sequence, state=state)
        participant = ctx.sequence.participant
        participant.refresh_from_db(fields=["experience_gained"])  # under the sequence's lock
        ctx.journal.update(participant, experience_gained=participant.experience_gained + total)
        return "; ".join(lines) or "Nobody earned experience."

    def run_task(self, ctx, task, dice):
        warrior = Warrior.objects.select_related("warrior_type", "warrior_type__race").get(
            pk=task.warrior_id
        )
        if task.kind == "hero_advance":
            return roll_hero_advance(ctx, task, warrior, dice)
        return _henchman_advance(ctx, task, warrior, dice)


def _hero_skills(warrior: Warrior, campaign) -> dict[str, list[tuple[str, str]]]:
    lists = list(warrior.warrior_type.skill_lists.all()) + list(warrior.extra_skill_lists.all())
    skills = {}
    for skill_list in lists:
        entries = Skill.objects.filter(skill_list=skill_list)
        if not campaign.quartermaster_skill:
            entries = entries.filter(optional_rule="")
        skills[skill_list.name] = [(s.key, s.name) for s in entries.order_by("name")]
    return skills


def roll_hero_advance(ctx: Context, task: SequenceTask, warrior: Warrior, dice) -> str:
    """Campaigns text, Heroes' advance table: 2D6 for a characteristic or a new skill (or
    spell), as ``xp_rules.hero_advance`` reads them; a new leader who learns magic
    (``learns_magic_next``) may roll a spell instead. Used by step 2 and by exploration
    (step 3), whose locations may bring experience.

    A caster is a hero whose type casts (its spell list) or who knows a spell: Death of a
    leader, a Sisters, Possessed or Carnival successor who learned his first prayer or spell
    "is considered" a caster after it, and may then take a spell of his list instead of a
    new skill like any wizard."""
    known_spells = frozenset(warrior.spells.values_list("spell__d6", flat=True))
    context = xp_rules.HeroContext(
        name=warrior.name,
        current=warrior.profile,
        maximum=warrior.maximum,
        skills=_hero_skills(warrior, ctx.battle.campaign),
        known_skills=frozenset(warrior.skills.values_list("skill__key", flat=True)),
        is_wizard=warrior.warrior_type.spell_list_id is not None or bool(known_spells),
        known_spell_rolls=known_spells,
        learns_magic_first=warrior.learns_magic_next,
    )
    advance = xp_rules.hero_advance(dice, context=context, answers=task.answers)
    if warrior.learns_magic_next:
        ctx.journal.update(warrior, learns_magic_next=False)
    return _apply_advance(ctx, warrior, advance)


def _apply_advance(ctx: Context, warrior: Warrior, advance: xp_rules.Advance) -> str:
    if advance.kind == "characteristic" and advance.characteristic:
        maximum = warrior.maximum or warrior.profile.with_value(advance.characteristic, 99)
        raised = roster_rules.raise_characteristic(warrior.profile, advance.characteristic, maximum)
        ctx.journal.update(warrior, **{advance.characteristic: raised.get(advance.characteristic)})
        text = f"+1 {roster_rules.CHARACTERISTIC_NAMES[advance.characteristic]}"
    elif advance.kind == "skill" and advance.skill:
        # A key may be on two lists (Ferocious Charge: the Dwarfs' Troll Slayers and the
        # hired Troll Slayer's own): the one of the warrior's lists.
        own = Q(skill_list__warriortype=warrior.warrior_type) | Q(
            skill_list__in=warrior.extra_skill_lists.all()
        )
        skill = (
            Skill.objects.filter(own, key=advance.skill).distinct().first()
            or Skill.objects.filter(key=advance.skill).first()
        )
        ctx.journal.create(WarriorSkill, warrior=warrior, skill=skill)
        text = f"new skill: {skill.name}"
    elif advance.kind == "spell":
        spell_list = warrior.warrior_type.spell_list or _successor_spell_list(ctx)
        spell = Spell.objects.filter(spell_list=spell_list, d6=advance.spell_roll).first()
        if spell is None or warrior.spells.filter(spell=spell).exists():
            return f"{advance.detail}: no new spell"
        ctx.journal.create(WarriorSpell, warrior=warrior, spell=spell, roll=advance.spell_roll)
        text = f"new spell: {spell.name}"
    else:
        text = advance.detail or "no advance possible"
    record_event(
        ctx.battle.campaign, CampaignEvent.Kind.ADVANCE,
        f"{warrior.name} of {ctx.warband.name} advanced: {text}.", warband=ctx.warband,
        battle=ctx.battle,
    )  # fmt: skip
    return f"{advance.detail}: {text}" if advance.detail else text


def _successor_spell_list(ctx: Context):
    """The spell list of the warband's original spellcaster (a successor learns it)."""
    caster = ctx.warband.warband_type.warrior_types.filter(spell_list__isnull=False).first()
    return caster.spell_list if caster else None


def _henchman_advance(ctx: Context, task: SequenceTask, warrior: Warrior, dice) -> str:
    warband_type = ctx.warband.warband_type
    heroes = Warrior.objects.filter(
        warband=ctx.warband, is_hero=True, status__in=Warrior.ON_ROSTER
    ).count()
    context = xp_rules.HenchmanContext(
        name=warrior.name,
        starting=warrior.warrior_type.profile,
        current=warrior.profile,
        maximum=warrior.maximum,
        heroes=heroes,
        max_heroes=warband_type.max_heroes,
        talent_allowed=not task.data.get("after_talent"),
        talent=_talent(warrior),
    )
    advance = xp_rules.henchman_advance(dice, context=context, answers=task.answers)
    if advance.kind == xp_rules.TALENT_KILLED:
        return _talent_killed(ctx, task, warrior, advance, dice)
    if advance.kind != "lads_talent":
        return _apply_advance(ctx, warrior, advance)
    return _lads_talent(ctx, task, warrior, advance)


def _talent(warrior: Warrior) -> str:
    """What the lad's got talent does for this type (its list's special rules)."""
    effects = xp_rules.effects_of(warrior.warrior_type.special_rules)
    if "talent_kills" in effects:
        return "kills"
    return "reroll" if "talent_reroll" in effects else "promotes"


def _talent_killed(ctx: Context, task: SequenceTask, warrior: Warrior, advance, dice) -> str:
    """Runts (Orc Mob Goblins): the mouthy lad is killed by his bosses and leaves the roster;
    the rest of the group rolls again, as after any lad's got talent."""
    if warrior.group_size == 1:
        kill_warrior(ctx, warrior, dice)
        return f"{advance.detail}: the lad's got talent, and his bosses killed him"
    ctx.journal.update(warrior, group_size=warrior.group_size - 1)
    ctx.journal.create(
        SequenceTask, sequence=ctx.sequence, step=2, order=task.order, kind="henchman_advance",
        warrior=warrior, data={"threshold": task.data.get("threshold"), "after_talent": True},
        label=f"{warrior.name} roll their advance again",
    )  # fmt: skip
    record_event(
        ctx.battle.campaign, CampaignEvent.Kind.DEATH,
        f"One of {warrior.name} of {ctx.warband.name} got mouthy and was killed by his bosses.",
        warband=ctx.warband, battle=ctx.battle,
    )  # fmt: skip
    return f"{advance.detail}: the lad's got talent, and his bosses killed him; the rest roll again"


def _lads_talent(ctx: Context, task: SequenceTask, warrior: Warrior, advance) -> str:
    """One model leaves the group and becomes a hero of the same type, with the group's
    experience, profile and equipment; he picks two skill lists open to the warband's heroes,
    rolls a hero advance at once, and the rest of the group rolls again."""
    rule = xp_rules.effects_of(warrior.warrior_type.special_rules).get("talent_skill_lists")
    open_lists = SkillList.objects.filter(
        Q(warriortype__warband_type=ctx.warband.warband_type, warriortype__kind="hero")
        | Q(key__in=(rule or {}).get("lists", ()))
    ).distinct()
    by_key = {s.key: s for s in open_lists.order_by("order", "name")}
    allowed = xp_rules.talent_lists([(key, s.name) for key, s in by_key.items()], rule)
    options = tuple((str(by_key[key].pk), name) for key, name in allowed)
    first = ask(
        task.answers, "list_1", f"{warrior.name}: the lad's got talent! First skill list?", options
    )
    second = ask(
        task.answers, "list_2", "Second skill list?", tuple(o for o in options if o[0] != first)
    )
    if warrior.group_size == 1:
        hero = ctx.journal.update(warrior, is_hero=True)
        rest = None
    else:
        hero = ctx.journal.create(
            Warrior, warband=warrior.warband, warrior_type=warrior.warrior_type,
            name=f"{warrior.name} (the lad)", is_hero=True, group_size=1,
            experience=warrior.experience, hired_at_creation=False,
            **warrior.profile.as_dict(),
        )  # fmt: skip
        for owned in warrior.items.all():
            ctx.journal.create(WarriorItem, warrior=hero, item=owned.item, price_paid=0,
                               correction_id=owned.correction_id)  # fmt: skip
        ctx.journal.update(warrior, group_size=warrior.group_size - 1)
        rest = warrior
    ctx.journal.add_m2m(hero, "extra_skill_lists", [int(first), int(second)])
    order = task.order
    ctx.journal.create(
        SequenceTask, sequence=ctx.sequence, step=2, order=order, kind="hero_advance",
        warrior=hero, data={"threshold": task.data.get("threshold"), "talent": True},
        label=f"{possessive(hero.name)} first advance as a hero",
    )  # fmt: skip
    if rest is not None:
        ctx.journal.create(
            SequenceTask, sequence=ctx.sequence, step=2, order=order, kind="henchman_advance",
            warrior=rest, data={"threshold": task.data.get("threshold"), "after_talent": True},
            label=f"{rest.name} roll their advance again",
        )  # fmt: skip
    record_event(
        ctx.battle.campaign, CampaignEvent.Kind.ADVANCE,
        f"The lad's got talent: {hero.name} of {ctx.warband.name} became a hero.",
        warband=ctx.warband, battle=ctx.battle,
    )  # fmt: skip
    return f"{advance.detail}: the lad's got talent, {hero.name} becomes a hero"
