"""Step 1 of the post-battle sequence, serious injuries (campaigns text, Serious injuries):
henchmen out of action roll a D6 each, heroes out of action roll on the Heroes' serious
injuries chart (``battles.rules.injuries``); here the chart's results are carried out on the
roster (journal) and the treasury (ledger).

``kill_warrior`` is the rulebook's death of a warrior, which exploration's Pit (step 3) uses
too.
"""

from __future__ import annotations

from battles.aftermath.engine import Context, Step
from battles.models import Captive, SequenceTask, WarriorOutcome
from battles.rules import experience as xp_rules
from battles.rules import injuries as injury_rules
from campaign.models import CampaignEvent
from campaign.services import record_event
from core.queries import one
from core.words import possessive
from warbands import rules as roster_rules
from warbands import treasury
from warbands.models import Injury, Item, StorageContainer, Warrior
from warbands.permissions import secret_refusals
from warbands.rules.families import counted_family

# A pouch's loss refused, as told to whoever may not see inside it (``secret_refusals``).
POUCH_REFUSED = "The hero's pouch cannot be taken off the treasury: ask the warband's player."

WEAPONS_AND_ARMOUR = (
    Item.Category.HAND_TO_HAND,
    Item.Category.MISSILE,
    Item.Category.BLACKPOWDER,
    Item.Category.ARMOUR,
)


class Injuries(Step):
    """Step 1 (campaigns text, Serious injuries): henchmen out of action roll a D6 each, heroes
    out of action roll on the Heroes' serious injuries chart; a hired sword out of action rolls
    as a henchman does (hired swords text, injuries: 1-2 lost, 3-6 survives), a dramatis
    persona on the heroes' chart (the personae's chapter: "just like Heroes")."""

    number = 1
    rolls = True

    def planned(self, sequence):
        outcomes = WarriorOutcome.objects.filter(participant=sequence.participant).select_related(
            "warrior__warrior_type", "warrior__hired_sword"
        )
        tasks = []
        for order, outcome in enumerate(outcomes):
            warrior = outcome.warrior
            if warrior.status not in Warrior.ON_ROSTER:
                continue
            effects = xp_rules.effects_of(warrior.warrior_type.special_rules)
            if "no_serious_injury" in effects:
                continue  # the Troll's Regeneration: it never rolls for injury
            if "daemonic_instability" in effects:
                models = _models_out(warrior, outcome)
                if models:
                    bonus = int(_plague_cart(sequence.participant.warband_id))
                    tasks.append(SequenceTask(
                        sequence=sequence, step=1, order=order, kind="daemonic_instability",
                        warrior=warrior, data={"models": models, "bonus": bonus},
                        label=f"{warrior.name} ({models} out of action): daemonic instability",
                    ))  # fmt: skip
                continue
            # A hired sword rolls as a henchman; a dramatis persona as a hero.
            hired = warrior.hired_sword_id is not None and not warrior.hired_sword.is_persona
            if warrior.is_hero and outcome.out_of_action and not hired:
                tasks.append(SequenceTask(
                    sequence=sequence, step=1, order=order, kind="hero_injury", warrior=warrior,
                    label=f"{possessive(warrior.name)} serious injury",
                ))  # fmt: skip
                if warrior.is_leader and warrior.items.filter(item__key=SILK).exists():
                    tasks.append(SequenceTask(
                        sequence=sequence, step=1, order=len(outcomes) + order, kind="silk_ruin",
                        warrior=warrior,
                        label=f"{possessive(warrior.name)} Cathayan silk clothes (D6)",
                    ))  # fmt: skip
            elif not warrior.is_hero or (hired and outcome.out_of_action):
                models = _models_out(warrior, outcome) if not hired else 1
                if models:
                    tasks.append(SequenceTask(
                        sequence=sequence, step=1, order=order, kind="henchman_injury",
                        warrior=warrior, data={"models": models},
                        label=f"{warrior.name} ({models} out of action)",
                    ))  # fmt: skip
        return tasks

    def run_task(self, ctx, task, dice):
        warrior = _task_warrior(ctx, task)
        if task.kind == "silk_ruin":
            return _silk_ruin(ctx, warrior, dice)
        if task.kind in ("henchman_injury", "daemonic_instability"):
            if task.kind == "daemonic_instability":
                lost, faces = injury_rules.daemons_banished(
                    dice, name=warrior.name, models=task.data["models"],
                    bonus=task.data.get("bonus", 0),
                )  # fmt: skip
            else:
                lost, faces = injury_rules.henchmen_lost(
                    dice, name=warrior.name, models=task.data["models"]
                )
            task.result = {"lost": lost}
            if lost >= warrior.group_size:
                kill_warrior(ctx, warrior, dice)
                return f"D6: {', '.join(map(str, faces))}. The whole group is gone."
            if lost:
                ctx.journal.update(warrior, group_size=warrior.group_size - lost)
            return f"D6: {', '.join(map(str, faces))}. {lost} lost, {warrior.group_size} remain."
        context = _injury_context(ctx, warrior)
        result = injury_rules.hero_injuries(dice, context=context, answers=task.answers)
        _apply_injuries(ctx, warrior, result, dice)
        task.result = {"codes": [injury.code for injury in result.injuries]}
        return result.summary


# Equipment chapter, Cathayan silk clothes: ruined on a D6 of 1-3 after a battle in which the
# leader wearing them went out of action.
SILK = "cathayan_silk_clothes"


def _silk_ruin(ctx: Context, warrior: Warrior, dice) -> str:
    """The leader's silk clothes, rolled for after his injuries: if they went with him (dead,
    robbed), there is nothing left to ruin."""
    worn = warrior.items.filter(item__key=SILK).first()
    ruined, face = injury_rules.silk_ruined(dice, name=warrior.name)
    if worn is None:
        return f"D6: {face}. The clothes are gone already."
    if not ruined:
        return f"D6: {face}. The Cathayan silk clothes survive."
    ctx.journal.delete(worn)
    return f"D6: {face}. The Cathayan silk clothes are ruined and discarded."


def _models_out(warrior: Warrior, outcome: WarriorOutcome) -> int:
    """How many models of a henchman group went out of action (all, when only the group's
    being out of action was entered)."""
    models = outcome.models_out_of_action or (warrior.group_size if outcome.out_of_action else 0)
    return min(models, warrior.group_size)


def _fighting_with(warband) -> list[Warrior]:
    return list(
        Warrior.objects.filter(warband=warband, status__in=Warrior.ON_ROSTER).select_related(
            "warrior_type"
        )
    )


# Carnival of Chaos, Plague Cart: its daemons add 1 to their instability roll after a battle.
PLAGUE_CART = "plague_cart"


def _plague_cart(warband_id: int) -> bool:
    return Warrior.objects.filter(
        warband_id=warband_id, status__in=Warrior.ON_ROSTER, warrior_type__key=PLAGUE_CART
    ).exists()


def _guarded(ctx: Context, warrior: Warrior) -> bool:
    """Fiercely Loyal: a Bear Tamer whose bear fought this battle and was not taken out of
    action. The Tamer is the type the warband's roster rules say the bear needs."""
    needs = (ctx.warband.warband_type.roster_rules or {}).get("needs", [])
    if not needs:
        return False  # a list without a bear and its Tamer: nothing to read
    for bear in _fighting_with(ctx.warband):
        if "protects_tamer" not in xp_rules.effects_of(bear.warrior_type.special_rules):
            continue
        tamers = next((row["any_of"] for row in needs if row["type"] == bear.warrior_type.key), ())
        if warrior.warrior_type.key not in tamers:
            continue
        outcome = WarriorOutcome.objects.filter(
            participant=ctx.sequence.participant, warrior=bear
        ).first()
        if outcome is not None and not outcome.out_of_action and not outcome.models_out_of_action:
            return True
    return False


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
        guarded=_guarded(ctx, warrior),
    )


def _lose_equipment(ctx: Context, warrior: Warrior, which: str) -> None:
    """``all`` his equipment, his pouches with what they hold included (Dead, Robbed), or only
    his ``weapons_and_armour`` (Sold to the pits: thrown out of the pits)."""
    items = warrior.items.select_related("item")
    if which == "weapons_and_armour":
        items = items.filter(item__category__in=WEAPONS_AND_ARMOUR)
    for owned in list(items):
        ctx.journal.delete(owned)
    if which == "all":
        for pouch in StorageContainer.objects.held().filter(holder=warrior):
            # An organiser may play this step for the player: the treasury's refusal would
            # name the pouch's contents (``secret_refusals``).
            with (
                ctx.journal.watch(pouch, ["status", "holder"]),
                secret_refusals(ctx.actor, ctx.warband, neutral=POUCH_REFUSED),
            ):
                treasury.lose_container(
                    pouch, actor=ctx.actor, battle=ctx.battle, step=ctx.sequence.current_step
                )


def kill_warrior(ctx: Context, warrior: Warrior, dice) -> None:
    """Campaigns text, Death of a warrior: he is removed from the roster and all his weapons
    and equipment are lost. When he led the warband, a new leader takes over (Death of the
    leader, ``injury_rules.new_leader``)."""
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
    """Campaigns text, Death of the leader: the hero who takes command
    (``injury_rules.new_leader``); in the warbands of ``MAGIC_SUCCESSION`` a successor who
    casts no spells learns them at his next advance."""
    heroes = [
        injury_rules.LeaderCandidate(
            w.pk,
            w.name,
            w.Ld,
            w.experience,
            w.warrior_type.key,
            may_lead="never_leader" not in xp_rules.effects_of(w.warrior_type.special_rules),
        )
        for w in Warrior.objects.filter(
            warband=ctx.warband,
            is_hero=True,
            status=Warrior.Status.ACTIVE,
            hired_sword__isnull=True,  # a hired sword never leads the warband
        ).select_related("warrior_type")
    ]
    family = counted_family(ctx.warband.warband_type.family, ctx.warband.warband_type.special_rules)
    chosen, note = injury_rules.new_leader(heroes, dice, warband_family=family)
    if chosen is not None:
        successor = Warrior.objects.get(pk=chosen)
        learns = (
            family in injury_rules.MAGIC_SUCCESSION and successor.warrior_type.spell_list_id is None
        )
        ctx.journal.update(successor, is_leader=True, learns_magic_next=learns)
    record_event(
        ctx.battle.campaign, CampaignEvent.Kind.DEATH,
        f"{ctx.warband.name} lost its leader. {note}", warband=ctx.warband, battle=ctx.battle,
    )  # fmt: skip


def _apply_injuries(ctx: Context, warrior: Warrior, result, dice) -> None:
    """Carry out the chart's results in order; death or retiring ends the list."""
    profile = warrior.profile
    starting = warrior.warrior_type.profile
    for injury in result.injuries:
        if injury.dead:
            kill_warrior(ctx, warrior, dice)
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
            _leaves(ctx, warrior, Warrior.Status.RETIRED, dice)
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


def dies_keeping_gear(ctx: Context, warrior: Warrior, dice, how: str) -> None:
    """He dies, but the warband keeps his equipment, unstored (the surgeon's table of the
    Sawbones rule: ``battles.aftermath.sawbones``); a leader is succeeded as a dead one is."""
    record_event(
        ctx.battle.campaign, CampaignEvent.Kind.DEATH,
        f"{warrior.name} of {ctx.warband.name} {how}.", warband=ctx.warband, battle=ctx.battle,
    )  # fmt: skip
    _leaves(ctx, warrior, Warrior.Status.DEAD, dice)


def _leaves(ctx: Context, warrior: Warrior, status: str, dice) -> None:
    """A warrior who leaves alive (retires) leaves his equipment to the warband, unstored;
    a leader who leaves is succeeded as a dead one is (``dice``: a tie's roll-off)."""
    pile = treasury.loose_pile(ctx.warband)
    for owned in list(warrior.items.select_related("item")):
        if owned.item.category not in treasury.NOT_STORABLE:
            for _ in range(warrior.group_size):
                treasury.add_item(
                    pile, item=owned.item, reason=treasury.Reason.UNEQUIP,
                    context=ctx.treasury_context(f"left by {warrior.name}"),
                    correction_id=owned.correction_id,
                )  # fmt: skip
        ctx.journal.delete(owned)
    was_leader = warrior.is_leader
    ctx.journal.update(warrior, status=status, is_leader=False)
    if was_leader:
        _succession(ctx, dice)


def _owe_experience(ctx: Context, warrior: Warrior, amount: int) -> None:
    """Injury-table experience (the pit fight won …) is added with the rest in step 2."""
    state = dict(ctx.sequence.state)
    owed = dict(state.get("injury_experience", {}))
    owed[str(warrior.pk)] = owed.get(str(warrior.pk), 0) + amount
    state["injury_experience"] = owed
    ctx.journal.update(ctx.sequence, state=state)
