"""The races of the post-battle sequence's actions, steps 2 to 8 and the storing of unstored
treasure in every treasury step (``tests.race.harness``). Each setup plays the Reavers'
sequence of a won duel through the real services (``tests.helpers.at``) up to the step raced;
where the treasury's gold is what limits an action, the setup leaves just enough for one
(``leave_gold``). Step 9's actions and the sequence's other posts: ``sequence_flow_races``."""

from __future__ import annotations

from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath.registry import STEPS
from battles.models import PostBattleSequence
from core.dice import ScriptedDice
from tests.helpers import act, at, mustered_duel, play_to, sequence_of, warriors
from tests.race.harness import Shot, race
from warbands import treasury
from warbands.models import (
    HiredSword,
    HouseRules,
    Injury,
    LedgerEntry,
    StoredItem,
    Warband,
    Warrior,
    WarriorType,
)

Reason = LedgerEntry.Reason


# --- Shared by the sequence's races ----------------------------------------------------------


def reavers_at(step: int) -> tuple[PostBattleSequence, Warband]:
    """The Reavers' sequence of a won duel, played up to ``step``; and the Reavers."""
    return at(mustered_duel(), step)


def act_shot(sequence, warband, action: str, applied, *, allowed: int = 1, **fields) -> Shot:
    """The owner's post of ``action`` in the sequence's current step, as its form sends it."""
    return Shot(
        warband.owner,
        reverse("sequence_act", args=[sequence.pk]),
        {"step": sequence.current_step, "action": action, **fields},
        applied=applied,
        allowed=allowed,
    )


def entries(warband, **filters) -> int:
    """The warband's ledger entries that match ``filters``."""
    return LedgerEntry.objects.filter(warband=warband, **filters).count()


def leave_gold(warband, gold: int) -> None:
    """Lose all the warband's gold but ``gold`` gc (kept in its first containers)."""
    left = gold
    for container in warband.containers.held().filter(gold_crowns__gt=0).order_by("pk"):
        keep = min(container.gold_crowns, left)
        left -= keep
        if container.gold_crowns > keep:
            treasury.add_treasure(container, gold=keep - container.gold_crowns, reason=Reason.LOSS)


def last_sack(warband):
    """The Reavers' last large sack (27 gc of its 50: room for more)."""
    return warband.containers.filter(kind="large_sack").order_by("-pk").first()


def unstore(warband, gold: int):
    """``gold`` gc moved from the last sack into the unstored pile; the sack."""
    sack = last_sack(warband)
    treasury.move_treasure(sack, treasury.loose_pile(warband), actor=warband.owner, gold=gold)
    return sack


# --- Storing what lies unstored (every treasury step) -------------------------------------------


def store_race(step: int):
    """The race of storing the pile's 5 gc in step ``step``: one post stores them, the others
    find the pile empty."""

    def setup() -> Shot:
        sequence, reavers = reavers_at(step)
        sack = unstore(reavers, 5)
        return act_shot(
            sequence, reavers, "store",
            lambda: entries(reavers, container=sack, reason=Reason.TRANSFER, step=step, amount=5),
            target=sack.pk, gold=5,
        )  # fmt: skip

    return setup


for _step, _handler in STEPS.items():
    if "store" in _handler.handlers:
        race(f"sequence_act:{_step}:store", "the pile's 5 gc are stored once")(store_race(_step))


# --- Step 2: experience ------------------------------------------------------------------------


@race("sequence_act:2:award", "the experience is awarded once")
def award():
    sequence, reavers = reavers_at(2)
    captain = warriors(reavers)[0]
    gain = next(g.total for g in sequences.handler(2).gains(sequence) if g.warrior == captain)
    before = captain.experience
    return act_shot(
        sequence,
        reavers,
        "award",
        lambda: (Warrior.objects.get(pk=captain.pk).experience - before) // gain,
    )


# --- Step 4: selling wyrdstone ---------------------------------------------------------------


@race("sequence_act:4:sell", "wyrdstone is sold once per sequence")
def sell_wyrdstone():
    sequence, reavers = reavers_at(4)  # exploring stored 2 shards in the chest
    shards = treasury.totals(reavers)["wyrdstone"]
    return act_shot(
        sequence, reavers, "sell",
        lambda: entries(reavers, reason=Reason.SALE, kind="gold", step=4),
        shards=shards, into="pile",
    )  # fmt: skip


# --- Step 5: veterans -----------------------------------------------------------------------


@race("sequence_act:5:add_veterans", "the roll's 2 experience bring two veterans, once")
def add_veterans():
    sequence, reavers = reavers_at(5)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=5, kind="veterans", void=False)
    sequences.run_task(sequence, task, actor=reavers.owner, step=5, dice=ScriptedDice([1, 1]))
    guards = warriors(reavers)[2]  # three models, 1 experience each since step 2
    return act_shot(
        sequence, reavers, "add_veterans",
        lambda: (Warrior.objects.get(pk=guards.pk).group_size - guards.group_size) // 2,
        group=guards.pk, models=2,
    )  # fmt: skip


# --- Step 6: rare items ----------------------------------------------------------------------


def rarity_rolled(step_sequence, warband, faces=(6, 6)):
    """The captain's rarity roll of step 6, made with ``faces``."""
    sequences.prepare(step_sequence)
    task = step_sequence.tasks.get(step=6, warrior__is_leader=True, void=False)
    sequences.run_task(
        step_sequence, task, actor=warband.owner, step=6, dice=ScriptedDice(list(faces))
    )
    return task


@race("sequence_act:6:buy_rare", "one successful rarity roll buys one rare item")
def buy_rare():
    sequence, reavers = reavers_at(6)
    task = rarity_rolled(sequence, reavers)
    chest = reavers.containers.get(kind="treasure_chest")
    return act_shot(
        sequence, reavers, "buy_rare",
        lambda: StoredItem.objects.filter(
            container__warband=reavers, item__key="lucky_charm"
        ).count(),
        task=task.pk, goods="item:lucky_charm", to=f"container:{chest.pk}",
    )  # fmt: skip


@race("sequence_act:6:treat", "a hero sees the physician once, and pays once")
def treat():
    sequence, reavers = reavers_at(6)
    HouseRules.objects.create(campaign=reavers.campaign, sawbones=True)
    brandt = reavers.warriors.get(warrior_type__key="champion")
    wound = Injury.objects.create(warrior=brandt, name="Leg wound", effect="Leg wound: -1 Movement")
    return act_shot(
        sequence, reavers, "treat",
        lambda: len(PostBattleSequence.objects.get(pk=sequence.pk).state.get("sawbones", {})),
        hero=brandt.pk, injury=wound.pk, pay_from="", dice="4 4",
    )  # fmt: skip


# --- Step 7: hired swords ---------------------------------------------------------------------


@race("sequence_act:7:hire_sword", "30 gc pay one fee of 20")
def hire_sword():
    sequence, reavers = reavers_at(7)
    leave_gold(reavers, 30)
    return act_shot(
        sequence, reavers, "hire_sword",
        lambda: HiredSword.objects.filter(warband=reavers).count(),
        name="Aenur", hire_fee=20, upkeep=5,
    )  # fmt: skip


@race("sequence_act:7:upkeep", "a hired sword's upkeep is paid once")
def upkeep():
    duel = mustered_duel()
    first, reavers = at(duel, 7)
    act(first, "hire_sword", reavers.owner, name="Aenur", hire_fee=20, upkeep=5)
    play_to(first, PostBattleSequence.COMPLETE, reavers.owner)
    scourge = duel["scourge"]
    play_to(sequence_of(first.participant.battle, scourge), 11, scourge.owner)
    sequence, _ = at(duel, 7)  # the next battle: Aenur's upkeep is due
    sword = HiredSword.objects.get(warband=reavers)
    return act_shot(
        sequence, reavers, "upkeep",
        lambda: -sum(
            LedgerEntry.objects.filter(
                warband=reavers, reason=Reason.PURCHASE, note__contains="upkeep"
            ).values_list("amount", flat=True)
        ) // sword.upkeep,
        hired_sword=sword.pk, decision="pay",
    )  # fmt: skip


# --- Step 8: recruits and common items --------------------------------------------------------


@race("sequence_act:8:hire", "30 gc hire one warrior of 25")
def hire_recruit():
    sequence, reavers = reavers_at(8)
    leave_gold(reavers, 30)
    kind = WarriorType.objects.get(warband_type=reavers.warband_type, key="warrior")
    return act_shot(
        sequence, reavers, "hire",
        lambda: reavers.warriors.filter(name="Recruit").count(),
        warrior_type=kind.pk, group_size=1, name="Recruit",
    )  # fmt: skip


@race("sequence_act:8:add_models", "30 gc add one model of 25 to a fresh group")
def add_models():
    sequence, reavers = reavers_at(8)
    kind = WarriorType.objects.get(warband_type=reavers.warband_type, key="warrior")
    act(sequence, "hire", reavers.owner, warrior_type=kind.pk, group_size=1, name="Recruits")
    recruits = reavers.warriors.get(name="Recruits")
    leave_gold(reavers, 30)
    return act_shot(
        sequence, reavers, "add_models",
        lambda: Warrior.objects.get(pk=recruits.pk).group_size - 1,
        group=recruits.pk, models=1,
    )  # fmt: skip


@race("sequence_act:8:buy", "15 gc buy one helmet of 10")
def buy():
    sequence, reavers = reavers_at(8)
    captain = warriors(reavers)[0]
    leave_gold(reavers, 15)
    return act_shot(
        sequence, reavers, "buy",
        lambda: captain.items.filter(item__key="helmet").count(),
        warrior=captain.pk, item="helmet",
    )  # fmt: skip


@race("sequence_act:8:buy_stash", "7 gc buy one rope of 5")
def buy_stash():
    sequence, reavers = reavers_at(8)
    chest = reavers.containers.get(kind="treasure_chest")
    leave_gold(reavers, 7)
    return act_shot(
        sequence, reavers, "buy_stash",
        lambda: chest.stored_items.filter(item__key="rope_and_hook").count(),
        item="rope_and_hook", into=chest.pk,
    )  # fmt: skip


@race("sequence_act:8:sell", "a warrior's axe is sold once")
def sell_item():
    sequence, reavers = reavers_at(8)
    axe = warriors(reavers)[1].items.get(item__key="axe")
    return act_shot(
        sequence, reavers, "sell",
        lambda: entries(reavers, reason=Reason.SALE, kind="gold", step=8),
        what=f"owned:{axe.pk}", into="pile",
    )  # fmt: skip
