"""The post-battle sequence: each warband's walk through steps 0 to 10, in the rulebook's order.

Every function that changes anything locks the sequence row (``select_for_update``), checks
that the posted step is still the current one (a repeated or concurrent post of a finished step
changes nothing and says so) and applies its roster and ledger changes in one transaction,
through the step's ``Journal`` so that undo can restore them exactly.

A step may hold tasks (``SequenceTask``): rolls that may stop to ask the player something.
Their dice are kept, so a task answered later replays the same faces (``ReplayDice``).

Steps live in ``STEP_HANDLERS``; steps 3 to 9 are in ``battles.steps_exploration`` and
``battles.steps_trading`` (their shared parts in ``battles.steps_treasury``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.postgres.aggregates import StringAgg
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Case, OuterRef, Q, Subquery, TextField, When
from django.utils import timezone

from battles.dice import holding_rolls
from battles.journal import Journal, revert
from battles.models import (
    Battle,
    Captive,
    DiceRoll,
    Participant,
    PostBattleSequence,
    SequenceTask,
    StepAction,
    StepRecord,
    WarriorOutcome,
)
from battles.rules import experience as xp_rules
from battles.rules import injuries as injury_rules
from battles.rules.tasks import NeedsAnswer, ask
from campaign import permissions
from campaign.models import CampaignEvent
from campaign.services import record_event
from core.dice import ReplayDice
from core.queries import one
from warbands import rules as roster_rules
from warbands import services as warband_services
from warbands import treasury
from warbands.models import (
    Injury,
    Item,
    RatingSnapshot,
    Skill,
    SkillList,
    Spell,
    StorageContainer,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
    amount_parts,
)
from warbands.rules import RuleViolation

STEP_NAMES = dict(PostBattleSequence.STEPS)
MAGIC_SUCCESSION = ("Sisters of Sigmar", "Cult of the Possessed", "Carnival of Chaos")


# --- Access, records and tasks -------------------------------------------------------------


def sequences_for(battle: Battle) -> list[PostBattleSequence]:
    """One sequence per participant, created when the battle is confirmed."""
    return [
        PostBattleSequence.objects.get_or_create(participant=participant)[0]
        for participant in battle.participants.all()
    ]


TREASURY_STEPS = range(3, 11)


def may_act(user, sequence: PostBattleSequence, step: int | None = None) -> bool:
    """The warband's owner plays its sequence. An organiser may act for him in the steps that
    reveal nothing secret (carried items, injuries, experience); the treasury steps (3 to 10)
    are the owner's alone, since only he moves his treasure (``can_edit_warband``).
    """
    warband = sequence.participant.warband
    campaign = sequence.participant.battle.campaign
    if not campaign.is_open:
        return False
    if warband.owner_id == user.pk:
        return True
    if not permissions.is_organiser(user, campaign):
        return False
    step = sequence.current_step if step is None else step
    return step not in TREASURY_STEPS


def _locked(sequence: PostBattleSequence, actor, *, step: int | None = None) -> PostBattleSequence:
    """The sequence row, locked (``select_for_update``) and read afresh: where it is (step,
    state, completion) is what two tabs must not take from an old copy. Its participant,
    battle, campaign and warband are the ones the caller loaded, when it did (step 2, which
    writes the participant's experience tally, re-reads that under this lock); else they are
    read with it."""
    earlier = sequence.participant if PostBattleSequence.participant.is_cached(sequence) else None
    loaded = earlier is not None and all(
        Participant._meta.get_field(name).is_cached(earlier) for name in ("battle", "warband")
    )
    rows = PostBattleSequence.objects.select_for_update(of=("self",))
    if not loaded:
        rows = rows.select_related(
            "participant__battle__campaign",
            "participant__warband__warband_type",
            "participant__warband__owner",
            "participant__warband__campaign",
        )
    try:
        locked = rows.get(pk=sequence.pk)
    except PostBattleSequence.DoesNotExist:
        raise PostBattleSequence.DoesNotExist("No such sequence.") from None
    if loaded and earlier.pk == locked.participant_id:
        locked.participant = earlier
    else:
        sequence.participant = locked.participant  # the caller's next call reuses them
    return _checked(locked, actor, step)


def _checked(sequence: PostBattleSequence, actor, step: int | None) -> PostBattleSequence:
    """The actor may play the locked ``sequence`` and the form's ``step`` is its current one."""
    if not may_act(actor, sequence):
        raise PermissionDenied("Only the warband's owner (or an organiser) plays its sequence.")
    if step is not None and step not in STEP_NAMES:
        raise RuleViolation("The form is out of date: reload the page.")
    if step is not None and sequence.current_step != step:
        if sequence.current_step > step:
            raise RuleViolation(
                f"Step {step} ({STEP_NAMES[step]}) is already done: nothing changed."
            )
        raise RuleViolation(f"Step {step} is not open yet.")
    return sequence


def open_record(sequence: PostBattleSequence) -> StepRecord:
    """The current step's record as one action adds to it (unsaved): ``Journal.save`` adds
    the action's changes to the live record, or creates it on the step's first action."""
    return StepRecord(sequence=sequence, step=sequence.current_step)


_UNREAD = object()


def live_records(sequence: PostBattleSequence):
    """The sequence's live step records for the page, with the summary of each step done
    (``summary``: its actions' lines, oldest first). The current step's is not read: the page
    shows only done steps' summaries, and a long step has many actions."""
    lines = (
        StepAction.objects.filter(record=OuterRef("pk"))
        .exclude(summary="")
        .order_by()
        .values("record")
        .annotate(text=StringAgg("summary", "\n", order_by="pk"))
        .values("text")
    )
    return StepRecord.objects.filter(sequence=sequence, undone_at__isnull=True).annotate(
        summary=Case(
            When(step__lt=sequence.current_step, then=Subquery(lines)),
            default=None,
            output_field=TextField(),
        )
    )


def started(sequence: PostBattleSequence, record=_UNREAD) -> bool:
    """The current step has changed something (or rolled a die) already. ``record``: its live
    record from ``live_records`` (or None: it has none), when the caller has read it."""
    if record is _UNREAD:
        record = live_records(sequence).filter(step=sequence.current_step).first()
    if record is not None and record.changes:
        return True
    if not handler(sequence.current_step).rolls:
        return False
    return sequence.tasks.filter(step=sequence.current_step, void=False).exclude(faces=[]).exists()


def _task_dice(task: SequenceTask, live) -> ReplayDice:
    return ReplayDice(task.faces, live)


@dataclass(frozen=True)
class Context:
    sequence: PostBattleSequence
    record: StepRecord
    journal: Journal
    actor: object

    @property
    def warband(self):
        return self.sequence.participant.warband

    @property
    def battle(self) -> Battle:
        return self.sequence.participant.battle

    def treasury_context(self, note: str = "") -> treasury.Context:
        return treasury.Context(
            actor=self.actor, step=self.sequence.current_step, battle=self.battle, note=note,
            in_step=True,
        )  # fmt: skip


def _context(sequence: PostBattleSequence, actor) -> Context:
    record = open_record(sequence)
    return Context(sequence, record, Journal(record), actor)


# --- Steps ---------------------------------------------------------------------------------


class Step:
    """One step of the sequence. ``prepare`` runs when the page is shown (no changes to the
    roster); ``act`` applies an action the player posted; ``complete`` ends the step."""

    number: int
    # It may hold rolls to make (tasks): listed by its ``prepare`` or added by its actions
    # and rolls (an advance due). The other steps never have any, so nobody reads them.
    rolls = False
    # Its rolls may stop to ask the player (``NeedsAnswer``) after changing something: the
    # task runs in a savepoint that the question rolls back. Steps that never ask say so.
    asks = True

    def prepare(self, sequence: PostBattleSequence) -> None:
        return None

    def page_context(self, sequence: PostBattleSequence, user) -> dict:
        """What the step's template shows besides its tasks."""
        return {}

    def blockers(self, sequence: PostBattleSequence, tasks=None) -> list[str]:
        """Why the step cannot be completed yet (empty: it can). ``tasks``: the step's live
        tasks, when the caller has read them already."""
        if tasks is None:
            tasks = sequence.tasks.filter(step=self.number, void=False, done=False)
        return [f"Roll for {task.label} first." for task in tasks if not task.done]

    def act(self, ctx: Context, action: str, data: dict, dice) -> str:
        raise RuleViolation("Nothing to do here.")

    def run_task(self, ctx: Context, task: SequenceTask, dice) -> str:
        raise RuleViolation("Nothing to roll here.")

    def complete(self, ctx: Context, data: dict) -> str:
        return ""


class CarriedItems(Step):
    """Step 0 is shared by all the battle's warbands and played on the battle page."""

    number = 0

    def blockers(self, sequence, tasks=None):
        battle = sequence.participant.battle
        if battle.carried_items_done_at is None:
            return ["The carried items at the end of the game are not settled yet."]
        return []

    def complete(self, ctx, data):
        items = ctx.battle.carried_items.filter(Q(owner=ctx.warband) | Q(secured_by=ctx.warband))
        lines = [
            f"{item.label} of {item.owner.name}: {item.get_outcome_display().lower()}"
            for item in items.select_related("owner")
        ]
        return "; ".join(lines) or "No carried items."


class Injuries(Step):
    """Step 1 (campaigns text, Serious injuries): henchmen out of action roll a D6 each, heroes
    out of action roll on the Heroes' serious injuries chart."""

    number = 1
    rolls = True

    def prepare(self, sequence):
        if sequence.tasks.filter(step=1, void=False).exists():
            return
        outcomes = WarriorOutcome.objects.filter(participant=sequence.participant).select_related(
            "warrior"
        )
        tasks = []
        for order, outcome in enumerate(outcomes):
            warrior = outcome.warrior
            if warrior.status not in Warrior.ON_ROSTER:
                continue
            if warrior.is_hero and outcome.out_of_action:
                tasks.append(SequenceTask(
                    sequence=sequence, step=1, order=order, kind="hero_injury", warrior=warrior,
                    label=f"{warrior.name}'s serious injury",
                ))  # fmt: skip
            elif not warrior.is_hero:
                models = outcome.models_out_of_action or (
                    warrior.group_size if outcome.out_of_action else 0
                )
                models = min(models, warrior.group_size)
                if models:
                    tasks.append(SequenceTask(
                        sequence=sequence, step=1, order=order, kind="henchman_injury",
                        warrior=warrior, data={"models": models},
                        label=f"{warrior.name} ({models} out of action)",
                    ))  # fmt: skip
        SequenceTask.objects.bulk_create(tasks)

    def run_task(self, ctx, task, dice):
        warrior = _task_warrior(ctx, task)
        if task.kind == "henchman_injury":
            lost, faces = injury_rules.henchmen_lost(
                dice, name=warrior.name, models=task.data["models"]
            )
            task.result = {"lost": lost}
            if lost >= warrior.group_size:
                _dies(ctx, warrior, dice)
                return f"D6: {', '.join(map(str, faces))}. The whole group is gone."
            if lost:
                ctx.journal.update(warrior, group_size=warrior.group_size - lost)
            return f"D6: {', '.join(map(str, faces))}. {lost} lost, {warrior.group_size} remain."
        context = _injury_context(ctx, warrior)
        result = injury_rules.hero_injuries(dice, context=context, answers=task.answers)
        _apply_injuries(ctx, warrior, result, dice)
        task.result = {"codes": [injury.code for injury in result.injuries]}
        return result.summary


def _task_warrior(ctx: Context, task: SequenceTask) -> Warrior:
    """The task's warrior, read with the task (``run_task``), in the sequence's warband."""
    warrior = task.warrior
    if warrior.warband_id == ctx.warband.pk:
        warrior.warband = ctx.warband
    return warrior


def _injury_context(ctx: Context, warrior: Warrior) -> injury_rules.InjuryContext:
    # Of the warrior who took this one out, what the injury chart names: not his profile.
    outcome = one(
        WarriorOutcome.objects.filter(participant=ctx.sequence.participant, warrior=warrior)
        .select_related("taken_out_by__warband__warband_type")
        .only(
            "taken_out_by__name",
            "taken_out_by__is_hero",
            "taken_out_by__warband__name",
            "taken_out_by__warband__warband_type__name",
        )
    )
    enemy = injury_rules.Enemy()
    if outcome and outcome.taken_out_by:
        by = outcome.taken_out_by
        leader = one(Warrior.objects.filter(warband=by.warband, is_leader=True).only("name"))
        enemy = injury_rules.Enemy(
            warrior=by.name, warrior_is_hero=by.is_hero, warband_id=by.warband_id,
            warband=by.warband.name, leader=leader.name if leader else "",
            warband_type=by.warband.warband_type.name,
        )  # fmt: skip
    opponents = tuple(
        (p.warband_id, p.warband.name)
        for p in ctx.battle.participants.select_related("warband").exclude(warband=ctx.warband)
    )
    return injury_rules.InjuryContext(
        name=warrior.name,
        blinded_before=warrior.injuries.filter(name__startswith="Blinded in one eye").exists(),
        enemy=enemy,
        opponents=opponents,
    )


WEAPONS_AND_ARMOUR = (
    Item.Category.HAND_TO_HAND,
    Item.Category.MISSILE,
    Item.Category.BLACKPOWDER,
    Item.Category.ARMOUR,
)


def _lose_equipment(ctx: Context, warrior: Warrior, which: str) -> None:
    items = warrior.items.select_related("item")
    if which == "weapons_and_armour":
        items = items.filter(item__category__in=WEAPONS_AND_ARMOUR)
    for owned in list(items):
        ctx.journal.delete(owned)
    if which == "all":
        for pouch in StorageContainer.objects.held().filter(holder=warrior):
            with ctx.journal.watch(pouch, ["status", "holder"]):
                treasury.lose_container(
                    pouch, actor=ctx.actor, battle=ctx.battle, step=ctx.sequence.current_step
                )


def _dies(ctx: Context, warrior: Warrior, dice) -> None:
    """Campaigns text, Death of a warrior: all his weapons and equipment are lost."""
    was_leader = warrior.is_leader
    _lose_equipment(ctx, warrior, "all")
    ctx.journal.update(warrior, status=Warrior.Status.DEAD, is_leader=False)
    record_event(
        ctx.battle.campaign, CampaignEvent.Kind.DEATH,
        f"{warrior.name} of {ctx.warband.name} died of their wounds.", warband=ctx.warband,
        battle=ctx.battle,
    )  # fmt: skip
    if was_leader:
        _succession(ctx, dice)


def _succession(ctx: Context, dice) -> None:
    heroes = [
        injury_rules.LeaderCandidate(w.pk, w.name, w.Ld, w.experience, w.warrior_type.key)
        for w in Warrior.objects.filter(
            warband=ctx.warband, is_hero=True, status=Warrior.Status.ACTIVE
        ).select_related("warrior_type")
    ]
    family = ctx.warband.warband_type.family
    chosen, note = injury_rules.new_leader(heroes, dice, warband_family=family)
    if chosen is not None:
        successor = Warrior.objects.get(pk=chosen)
        learns = family in MAGIC_SUCCESSION and successor.warrior_type.spell_list_id is None
        ctx.journal.update(successor, is_leader=True, learns_magic_next=learns)
    record_event(
        ctx.battle.campaign, CampaignEvent.Kind.DEATH,
        f"{ctx.warband.name} lost its leader. {note}", warband=ctx.warband, battle=ctx.battle,
    )  # fmt: skip


def _apply_injuries(ctx: Context, warrior: Warrior, result, dice) -> None:
    profile = warrior.profile
    starting = warrior.warrior_type.profile
    for injury in result.injuries:
        if injury.dead:
            _dies(ctx, warrior, dice)
            return
        for characteristic in injury.lowered:
            profile = roster_rules.lower_characteristic(profile, characteristic, starting)
        if injury.miss_games:
            ctx.journal.update(warrior, games_to_miss=warrior.games_to_miss + injury.miss_games)
        if injury.lose_equipment:
            _lose_equipment(ctx, warrior, injury.lose_equipment)
        if injury.lasting:
            ctx.journal.create(
                Injury, warrior=warrior, name=injury.lasting.split(":")[0], effect=injury.lasting
            )
        if injury.experience:
            _owe_experience(ctx, warrior, injury.experience)
        if injury.gold:
            treasury.add_treasure(
                treasury.loose_pile(ctx.warband), gold=injury.gold,
                reason=treasury.Reason.INCOME, context=ctx.treasury_context("won in the pits"),
            )  # fmt: skip
        if injury.retire:
            _leaves(ctx, warrior, Warrior.Status.RETIRED)
            return
        if injury.captured_by:
            ctx.journal.update(warrior, status=Warrior.Status.CAPTURED)
            ctx.journal.create(
                Captive, warrior=warrior, captor_id=injury.captured_by, battle=ctx.battle
            )
            record_event(
                ctx.battle.campaign, CampaignEvent.Kind.CAPTURED,
                f"{warrior.name} of {ctx.warband.name} was taken captive.", warband=ctx.warband,
                battle=ctx.battle,
            )  # fmt: skip
    changed = {
        name: value for name, value in profile.as_dict().items() if getattr(warrior, name) != value
    }
    if changed:
        ctx.journal.update(warrior, **changed)


def _leaves(ctx: Context, warrior: Warrior, status: str) -> None:
    """A warrior who leaves alive (retires) leaves his equipment to the warband, unstored."""
    pile = treasury.loose_pile(ctx.warband)
    for owned in list(warrior.items.select_related("item")):
        if owned.item.category not in treasury.NOT_STORABLE:
            for _ in range(warrior.group_size):
                treasury.add_item(
                    pile, item=owned.item, reason=treasury.Reason.UNEQUIP,
                    context=ctx.treasury_context(f"left by {warrior.name}"),
                )  # fmt: skip
        ctx.journal.delete(owned)
    was_leader = warrior.is_leader
    ctx.journal.update(warrior, status=status, is_leader=False)
    if was_leader:
        _succession(ctx, None)


def _owe_experience(ctx: Context, warrior: Warrior, amount: int) -> None:
    """Injury-table experience is added with the rest in step 2."""
    state = dict(ctx.sequence.state)
    owed = dict(state.get("injury_experience", {}))
    owed[str(warrior.pk)] = owed.get(str(warrior.pk), 0) + amount
    state["injury_experience"] = owed
    ctx.journal.update(ctx.sequence, state=state)


class Experience(Step):
    """Step 2: +1 for surviving, scenario experience, the underdog bonus and injury-table
    experience; each thick box reached is an advance roll, made at once."""

    number = 2
    rolls = True  # the advances due

    def blockers(self, sequence, tasks=None):
        if not sequence.state.get("experience_awarded"):
            return ["Award the experience first."]
        return super().blockers(sequence, tasks)

    def page_context(self, sequence, user):
        if sequence.state.get("experience_awarded"):
            return {}
        return {"gains": self.gains(sequence)}

    def gains(self, sequence) -> list[tuple[Warrior, int, str]]:
        """Each warrior who fought and survived, with the experience he earns and why."""
        participant = sequence.participant
        warriors = list(
            Warrior.objects.filter(warband=participant.warband, status__in=Warrior.ON_ROSTER)
            .select_related("warrior_type")
            .order_by("-is_leader", "-is_hero", "pk")
        )
        outcomes = {o.warrior_id: o for o in WarriorOutcome.objects.filter(participant=participant)}
        enemy_ratings = list(
            participant.battle.participants.exclude(pk=participant.pk).values_list(
                "rating_before", flat=True
            )
        )
        bonus = xp_rules.underdog_bonus(participant.rating_before, enemy_ratings)
        owed = sequence.state.get("injury_experience", {})
        gains = []
        for warrior in warriors:
            if not warrior.warrior_type.gains_experience:
                continue
            if outcomes and warrior.pk not in outcomes:
                continue  # did not fight (missed the game, or hired since)
            outcome = outcomes.get(warrior.pk)
            parts = [("survived", 1)]
            if outcome and outcome.scenario_experience:
                parts.append(("scenario", outcome.scenario_experience))
            if bonus:
                parts.append(("underdog", bonus))
            if owed.get(str(warrior.pk)):
                parts.append(("injury", owed[str(warrior.pk)]))
            total = sum(value for _, value in parts)
            gains.append((warrior, total, ", ".join(f"+{v} {why}" for why, v in parts)))
        return gains

    def act(self, ctx, action, data, dice):
        if action != "award":
            raise RuleViolation("Nothing to do here.")
        if ctx.sequence.state.get("experience_awarded"):
            raise RuleViolation("The experience has been awarded already: nothing changed.")
        lines = []
        order = total = 0
        gains = list(self.gains(ctx.sequence))
        ctx.journal.update_many(
            [(warrior, warrior.experience + gained) for warrior, gained, _ in gains], "experience"
        )
        for warrior, gained, why in gains:
            total += gained
            old = warrior.experience - gained
            lines.append(f"{warrior.name} {why} = {warrior.experience}")
            for threshold in roster_rules.advances_earned(
                old, old + gained, is_hero=warrior.is_hero
            ):
                order += 1
                ctx.journal.create(
                    SequenceTask, sequence=ctx.sequence, step=2, order=order,
                    kind="hero_advance" if warrior.is_hero else "henchman_advance",
                    warrior=warrior, data={"threshold": threshold},
                    label=f"{warrior.name}'s advance ({threshold} experience)",
                )  # fmt: skip
        state = dict(ctx.sequence.state, experience_awarded=True)
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
            return _hero_advance(ctx, task, warrior, dice)
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


def _hero_advance(ctx: Context, task: SequenceTask, warrior: Warrior, dice) -> str:
    spell_list = warrior.warrior_type.spell_list
    context = xp_rules.HeroContext(
        name=warrior.name,
        current=warrior.profile,
        maximum=warrior.maximum,
        skills=_hero_skills(warrior, ctx.battle.campaign),
        known_skills=frozenset(warrior.skills.values_list("skill__key", flat=True)),
        is_wizard=spell_list is not None,
        known_spell_rolls=frozenset(warrior.spells.values_list("spell__d6", flat=True)),
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
        skill = Skill.objects.filter(key=advance.skill).first()
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
    )
    advance = xp_rules.henchman_advance(dice, context=context, answers=task.answers)
    if advance.kind != "lads_talent":
        return _apply_advance(ctx, warrior, advance)
    return _lads_talent(ctx, task, warrior, advance)


def _lads_talent(ctx: Context, task: SequenceTask, warrior: Warrior, advance) -> str:
    """One model leaves the group and becomes a hero of the same type, with the group's
    experience, profile and equipment; he picks two skill lists open to the warband's heroes,
    rolls a hero advance at once, and the rest of the group rolls again."""
    open_lists = SkillList.objects.filter(
        warriortype__warband_type=ctx.warband.warband_type, warriortype__kind="hero"
    ).distinct()
    options = tuple((str(s.pk), s.name) for s in open_lists.order_by("order", "name"))
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
            ctx.journal.create(WarriorItem, warrior=hero, item=owned.item, price_paid=0)
        ctx.journal.update(warrior, group_size=warrior.group_size - 1)
        rest = warrior
    ctx.journal.add_m2m(hero, "extra_skill_lists", [int(first), int(second)])
    order = task.order
    ctx.journal.create(
        SequenceTask, sequence=ctx.sequence, step=2, order=order, kind="hero_advance",
        warrior=hero, data={"threshold": task.data.get("threshold"), "talent": True},
        label=f"{hero.name}'s first advance as a hero",
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


class UpdateRating(Step):
    """Step 10: the rating is recomputed; any treasure that no container holds is lost
    (MiM: "lost at the end of any post battle sequence")."""

    number = 10

    def blockers(self, sequence, tasks=None):
        return []

    def page_context(self, sequence, user):
        pile = StorageContainer.objects.filter(
            warband=sequence.participant.warband, kind=StorageContainer.LOOSE, status="held"
        ).first()
        if pile is None or pile.is_empty:
            return {}
        unstored = {
            "gold": pile.gold_crowns,
            "wyrdstone": pile.wyrdstone,
            "items": list(pile.stored_items.values_list("name", flat=True)),
        }
        return {
            "unstored": unstored,
            "confirm_complete": "Finish and lose the treasure that has no container?",
        }

    def complete(self, ctx, data):
        lost = treasury.settle_unstored_treasure(ctx.warband, actor=ctx.actor, step=10)
        ctx.journal.note_ledger()
        # The rulebook's rating summed in SQL (``rating_expression``, checked against
        # ``rules.warband_rating``): the roster's warriors need not be loaded for it.
        rating = warband_services.ratings_of([ctx.warband])[ctx.warband.pk]
        snapshot = ctx.journal.create(
            RatingSnapshot, warband=ctx.warband, rating=rating, taken_at=timezone.now(),
            battle=ctx.battle, note=f"after {ctx.battle.scenario}",
        )  # fmt: skip
        parts = [f"Rating {snapshot.rating}."]
        gone = amount_parts(lost["gold"], lost["wyrdstone"], lost["items"])
        if gone:
            parts.append(f"Lost for want of a container: {', '.join(gone)}.")
        return " ".join(parts)


STEP_HANDLERS: dict[int, Step] = {
    0: CarriedItems(),
    1: Injuries(),
    2: Experience(),
    10: UpdateRating(),
}


def handler(number: int) -> Step:
    from battles import steps_trading  # steps 3 to 9

    return STEP_HANDLERS.get(number) or steps_trading.STEPS[number]


# --- What the views call -------------------------------------------------------------------


def prepare(sequence: PostBattleSequence) -> None:
    """Get the current step ready to be shown (tasks listed; nothing on the roster changes)."""
    if not sequence.is_complete:
        handler(sequence.current_step).prepare(sequence)


@transaction.atomic
def run_task(sequence, task: SequenceTask, *, actor, step: int, dice, answers=None) -> SequenceTask:
    """Roll (or go on rolling, with the player's answers) for one task of the current step."""
    caller, sequence = sequence, _locked(sequence, actor, step=step)
    task = (
        SequenceTask.objects.select_for_update(of=("self",))
        .select_related("warrior__warrior_type")
        .get(pk=task.pk, sequence=sequence)
    )
    if task.step != sequence.current_step or task.void:
        raise RuleViolation("That roll belongs to another step.")
    if task.done:
        raise RuleViolation(f"{task.label}: already rolled, nothing changed.")
    if answers:
        task.answers = {**task.answers, **{k: str(v) for k, v in answers.items()}}
    ctx = _context(sequence, actor)
    replay = _task_dice(task, dice)
    battle = sequence.participant.battle
    asked_before = bool(task.question)
    rolled: list[DiceRoll] = []  # this task's new rolls, held unsaved until they decided
    try:
        with (
            transaction.atomic(savepoint=handler(task.step).asks),
            treasury.noting_entries(ctx.journal.written),
            holding_rolls(rolled),
        ):
            summary = handler(task.step).run_task(ctx, task, replay)
    except NeedsAnswer as needs:
        # Nothing happened (the inner block rolled back) but the dice: log them, waiting for
        # the answer, and keep their faces for the replay.
        _log_rolls(rolled, _waiting(task))
        task.faces = replay.faces
        task.question = {
            "key": needs.question.key,
            "text": needs.question.text,
            "options": [list(option) for option in needs.question.options],
        }
        task.save(update_fields=["faces", "answers", "question"])
        _tell(caller, sequence)
        return task
    # The rolls of this task, the ones made before a question included, say what they decided.
    result = f"{task.label}: {summary}"[:300]
    if asked_before:
        battle.dice_rolls.filter(result=_waiting(task)).update(result=result)
    task.faces = replay.faces
    task.question = None
    task.done = True
    task.summary = summary[:500]
    task.save(update_fields=["faces", "answers", "question", "result", "summary", "done"])
    _log_rolls(rolled, result)
    ctx.journal.save()
    _tell(caller, sequence)
    return task


def _tell(caller: PostBattleSequence, locked: PostBattleSequence, record=None) -> None:
    """The caller's copy of the sequence learns where the sequence is now, as the service
    left it (``run_task``, ``act``, ``complete_step``): the page need not read it again.
    ``record``: the current step's record as the action saved it (``changes`` counted), which
    ``act``'s answer shows instead of reading the records (``told_record``)."""
    caller.told_record = record
    caller.current_step = locked.current_step
    caller.state = locked.state
    caller.completed_at = locked.completed_at


def _log_rolls(rolls: list[DiceRoll], result: str) -> None:
    """Write a task's rolls to the dice log, each saying what it decided (one insert)."""
    for roll in rolls:
        roll.result = result
    if len(rolls) == 1:
        rolls[0].save()  # cheaper for Django to build than a bulk insert of one
    elif rolls:
        DiceRoll.objects.bulk_create(rolls)


def _waiting(task: SequenceTask) -> str:
    return f"{task.label}: waiting for an answer (task {task.pk})"[:300]


@transaction.atomic
def act(sequence, *, actor, step: int, action: str, data: dict | None = None, dice=None) -> str:
    """An action of the current step other than a task (award the experience, sell …)."""
    caller, sequence = sequence, _locked(sequence, actor, step=step)
    ctx = _context(sequence, actor)
    with treasury.noting_entries(ctx.journal.written):
        summary = handler(step).act(ctx, action, data or {}, dice)
    ctx.journal.summary = summary or ""
    ctx.journal.save()
    _tell(caller, sequence, ctx.record)
    return summary


@transaction.atomic
def complete_step(sequence, *, actor, step: int, data: dict | None = None) -> PostBattleSequence:
    """Finish the current step and move to the next."""
    caller, sequence = sequence, _locked(sequence, actor, step=step)
    step_handler = handler(step)
    tasks = []
    if step_handler.rolls:  # the others' prepare lists no rolls: nothing to read or make
        live = sequence.tasks.filter(step=step, void=False)
        tasks = list(live)
        if not tasks:  # the page was never shown: list the rolls now
            step_handler.prepare(sequence)
            tasks = list(live.all())
    blockers = step_handler.blockers(sequence, tasks)
    if blockers:
        raise RuleViolation(" ".join(blockers))
    ctx = _context(sequence, actor)
    with treasury.noting_entries(ctx.journal.written):
        summary = step_handler.complete(ctx, data or {})
    tasks = [t.summary for t in tasks if t.done and t.summary]
    ctx.journal.summary = "\n".join(filter(None, [*tasks, summary]))
    sequence.current_step = step + 1
    if sequence.current_step == PostBattleSequence.COMPLETE:
        sequence.completed_at = timezone.now()
    sequence.save(update_fields=["current_step", "completed_at"])
    ctx.journal.save(completed_by=actor)
    _tell(caller, sequence)
    return sequence


@transaction.atomic
def undo_last_step(sequence, *, actor, step: int | None = None) -> PostBattleSequence:
    """The owner takes back the last completed step while the next one has not started:
    everything it changed is restored (ledger entries reversed by new entries). ``step`` is
    the step the player saw as the last one: a second tab undoing it again changes nothing."""
    sequence = _locked(sequence, actor)
    if step is not None and step != sequence.current_step - 1:
        raise RuleViolation(f"Step {step} is not the last step done any more: nothing changed.")
    if sequence.current_step == 0 or (
        sequence.current_step == 1
        and not sequence.records.filter(step=0, undone_at__isnull=True).exists()
    ):
        raise RuleViolation("There is no step to undo.")
    if not sequence.is_complete and started(sequence):
        raise RuleViolation(
            f"Step {sequence.current_step} has started: only an organiser can reopen earlier steps."
        )
    last = sequence.current_step - 1
    if last == 0:
        raise RuleViolation("Step 0 is shared by the battle: ask an organiser to reopen it.")
    _revert_step(sequence, last, actor=actor, reason="")
    # The step that was current has not started; its empty record goes too.
    StepRecord.objects.filter(sequence=sequence, step=last + 1, undone_at__isnull=True).delete()
    sequence.current_step = last
    sequence.completed_at = None
    sequence.save(update_fields=["current_step", "completed_at"])
    return sequence


@transaction.atomic
def reopen_step(sequence, step: int, *, actor, reason: str) -> PostBattleSequence:
    """An organiser reopens any earlier step, with a reason shown in the battle's history:
    every later change is undone, and the rolls of the reopened steps may be made again."""
    sequence = (
        PostBattleSequence.objects.select_for_update(of=("self",))
        .select_related("participant__battle__campaign", "participant__warband")
        .get(pk=sequence.pk)
    )
    if not permissions.can_run_campaign(actor, sequence.participant.battle.campaign):
        raise PermissionDenied("Only an organiser reopens a step.")
    if not reason.strip():
        raise RuleViolation("Say why the step is reopened: it is shown in the battle's history.")
    if not 1 <= step <= min(sequence.current_step, 10):
        raise RuleViolation("That step cannot be reopened.")
    for number in range(min(sequence.current_step, 10), step - 1, -1):
        _revert_step(sequence, number, actor=actor, reason=reason.strip()[:300])
        sequence.tasks.filter(step=number, void=False).update(void=True)
    sequence.current_step = step
    sequence.completed_at = None
    sequence.save(update_fields=["current_step", "completed_at"])
    return sequence


def _revert_step(sequence, number: int, *, actor, reason: str) -> None:
    record = StepRecord.objects.filter(
        sequence=sequence, step=number, undone_at__isnull=True
    ).first()
    if record is None:
        return
    revert(record.journal(), actor=actor)
    record.undone_at = timezone.now()
    record.undone_by = actor
    record.reason = reason
    record.save(update_fields=["undone_at", "undone_by", "reason"])


# --- Reads for the pages -------------------------------------------------------------------


def waiting_for(user):
    """Sequences the user should play: their own warbands', not complete."""
    return (
        PostBattleSequence.objects.filter(
            participant__warband__owner=user,
            completed_at__isnull=True,
            participant__battle__status=Battle.Status.CONFIRMED,
        )
        .select_related("participant__battle", "participant__warband")
        .order_by("participant__battle__fought_on")
    )


__all__ = [
    "Participant",
    "act",
    "complete_step",
    "handler",
    "may_act",
    "prepare",
    "reopen_step",
    "run_task",
    "sequences_for",
    "undo_last_step",
    "waiting_for",
]
