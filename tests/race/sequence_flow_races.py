"""The races of the post-battle sequence's step 9 (reallocation) and of its other posts: a step
completed, undone or reopened, a task rolled (``tests.race.harness``; the setups as in
``sequence_races``)."""

from __future__ import annotations

from django.urls import reverse

from battles import aftermath as sequences
from battles.models import DiceRoll
from tests.helpers import act, at, battle_of, mustered_duel, play_to, sequence_of, warriors
from tests.race.harness import Shot, race
from tests.race.sequence_races import (
    act_shot,
    entries,
    last_sack,
    leave_gold,
    rarity_rolled,
    reavers_at,
    unstore,
)
from warbands import treasury
from warbands.models import Item, LedgerEntry, RatingSnapshot, StoredItem

Reason = LedgerEntry.Reason


def _sword():
    return Item.objects.get(key="sword")


# --- Step 9: reallocation ----------------------------------------------------------------------


@race("sequence_act:9:move", "the chest's 100 gc give 60 once")
def move():
    sequence, reavers = reavers_at(9)
    chest = reavers.containers.get(kind="treasure_chest")
    return act_shot(
        sequence, reavers, "move",
        lambda: entries(reavers, container=chest, reason=Reason.TRANSFER, amount=-60),
        source=chest.pk, target="pile", gold=60,
    )  # fmt: skip


@race("sequence_act:9:move_item", "a stored sword moves into the sack once")
def move_item():
    sequence, reavers = reavers_at(9)
    chest = reavers.containers.get(kind="treasure_chest")
    stored = treasury.add_item(chest, item=_sword(), reason=Reason.INCOME)
    sack = last_sack(reavers)
    return act_shot(
        sequence, reavers, "move_item",
        lambda: entries(reavers, container=sack, reason=Reason.TRANSFER, kind="item"),
        stored_item=stored.pk, target=sack.pk,
    )  # fmt: skip


@race("sequence_act:9:equip", "the chosen sword is given once, though another is stored")
def equip():
    sequence, reavers = reavers_at(9)
    sack = last_sack(reavers)
    chosen = treasury.add_item(sack, item=_sword(), reason=Reason.INCOME)
    treasury.add_item(sack, item=_sword(), reason=Reason.INCOME)
    champion = warriors(reavers)[1]
    return act_shot(
        sequence, reavers, "equip",
        lambda: champion.items.filter(item__key="sword").count(),
        stored_item=chosen.pk, warrior=champion.pk,
    )  # fmt: skip


@race("sequence_act:9:unequip", "the champion's axe is stored once")
def unequip():
    sequence, reavers = reavers_at(9)
    axe = warriors(reavers)[1].items.get(item__key="axe")
    return act_shot(
        sequence, reavers, "unequip",
        lambda: StoredItem.objects.filter(container__warband=reavers, item__key="axe").count(),
        owned=axe.pk, target=last_sack(reavers).pk,
    )  # fmt: skip


@race("sequence_act:9:buy_container", "5 gc buy one backpack of 4")
def buy_container():
    sequence, reavers = reavers_at(9)
    leave_gold(reavers, 5)
    return act_shot(
        sequence, reavers, "buy_container",
        lambda: reavers.containers.real().filter(kind="backpack").count(),
        kind="backpack",
    )  # fmt: skip


@race("sequence_act:9:sell_container", "an emptied sack is sold once")
def sell_container():
    sequence, reavers = reavers_at(9)
    sack = unstore(reavers, 27)
    return act_shot(
        sequence, reavers, "sell_container",
        lambda: entries(reavers, reason=Reason.SALE, sold_container=sack),
        container=sack.pk, proceeds_to="pile",
    )  # fmt: skip


@race("sequence_act:9:place", "a sack goes onto the cart bought in step 6, once")
def place():
    sequence, reavers = reavers_at(6)
    task = rarity_rolled(sequence, reavers)
    act(sequence, "buy_rare", reavers.owner, task=task.pk, goods="container:cart_mule")
    play_to(sequence, 9, reavers.owner)
    cart = reavers.containers.get(kind="cart_mule")
    return act_shot(
        sequence, reavers, "place",
        lambda: cart.children.count(),
        container=last_sack(reavers).pk, parent=cart.pk,
    )  # fmt: skip


# --- Completing, undoing and reopening a step ------------------------------------------------


@race("sequence_complete", "the last step ends once: one rating snapshot")
def complete():
    sequence, reavers = reavers_at(10)
    unstore(reavers, 5)
    ratings = RatingSnapshot.objects.filter(warband=reavers, battle=sequence.participant.battle)
    before = ratings.count()  # the rating the battle was fought at
    return Shot(
        reavers.owner,
        reverse("sequence_complete", args=[sequence.pk]),
        {"step": 10},
        applied=lambda: ratings.count() - before,
    )


def _bought_in_step_8(sequence, warband) -> int:
    """A rope bought for the chest in step 8, the step completed; its ledger entries."""
    act(sequence, "buy_stash", warband.owner, item="rope_and_hook",
        into=warband.containers.get(kind="treasure_chest").pk)  # fmt: skip
    sequences.complete_step(sequence, actor=warband.owner, step=8)
    return entries(warband, step=8)


def _reversals(warband, made: int):
    return lambda: entries(warband, reason=Reason.REVERSAL) // made


@race("sequence_undo", "step 8 is undone once: its purchase reversed once")
def undo():
    sequence, reavers = reavers_at(8)
    made = _bought_in_step_8(sequence, reavers)
    return Shot(
        reavers.owner,
        reverse("sequence_undo", args=[sequence.pk]),
        {"step": 8},
        applied=_reversals(reavers, made),
    )


@race("sequence_reopen", "the organiser reopens step 8 once: its purchase reversed once")
def reopen():
    duel = mustered_duel()
    sequence, reavers = at(duel, 8)
    made = _bought_in_step_8(sequence, reavers)
    return Shot(
        duel["organiser"],
        reverse("sequence_reopen", args=[sequence.pk]),
        {"step": 8, "current": 9, "reason": "The rope was never bought at the table."},
        applied=_reversals(reavers, made),
    )


@race("sequence_reopen:confirmed", "reopening step 8 under a begun step 9, confirmed: once")
def reopen_confirmed():
    """The organiser confirmed which later step it undoes (``battles.aftermath.reopening``):
    step 9's move and step 8's purchase are reversed once, latest first."""
    duel = mustered_duel()
    sequence, reavers = at(duel, 8)
    made = _bought_in_step_8(sequence, reavers)
    chest = reavers.containers.get(kind="treasure_chest")
    act(sequence, "move", reavers.owner, source=chest.pk, target=last_sack(reavers).pk, gold=1)
    return Shot(
        duel["organiser"],
        reverse("sequence_reopen", args=[sequence.pk]),
        {"step": 8, "current": 9, "reason": "Misread", "confirmed": "1"},
        applied=lambda: entries(reavers, reason=Reason.REVERSAL, step=8) // made,
    )


# --- Rolling a task --------------------------------------------------------------------------


@race("sequence_task", "the three exploration dice are rolled once: 2 shards found once")
def explore():
    sequence, reavers = reavers_at(3)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=3, kind="exploration", void=False)
    return Shot(
        reavers.owner,
        reverse("sequence_task", args=[sequence.pk, task.pk]),
        {"step": 3, "dice": "1 2 4"},
        applied=lambda: entries(reavers, reason=Reason.INCOME, kind="wyrdstone", step=3),
    )


@race("sequence_task:server", "the server rolls the captain's rarity roll once")
def rarity_by_the_server():
    sequence, reavers = reavers_at(6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior__is_leader=True, void=False)
    return Shot(
        reavers.owner,
        reverse("sequence_task", args=[sequence.pk, task.pk]),
        {"step": 6, "dice": ""},
        applied=lambda: DiceRoll.objects.filter(
            battle=sequence.participant.battle, purpose__contains="rarity roll"
        ).count(),
    )


# --- A step's rolls are listed once ----------------------------------------------------------
# A step with rolls (1, 3, 5, 6) lists them as it becomes current, when the step before is
# completed; four tabs completing the step before list them once, and every refused post
# answers with the page, which only reads.


@race("sequence_complete:opens_a_step", "step 2 ends once: step 3 has one exploration roll")
def complete_opening_exploration():
    sequence, reavers = reavers_at(2)
    act(sequence, "award", reavers.owner)
    return Shot(
        reavers.owner,
        reverse("sequence_complete", args=[sequence.pk]),
        {"step": 2},
        applied=lambda: sequence.tasks.filter(step=3, kind="exploration", void=False).count(),
    )


#: The steps that list rolls as they become current, and the kind of roll each lists (one, in a
#: duel where the champion was taken out of action and the captain stood).
LISTED = {1: "hero_injury", 3: "exploration", 5: "veterans", 6: "rarity"}


def late_race(step: int, kind: str):
    """Four tabs still showing step ``step - 1`` finish it again: each is refused and answered
    with step ``step``, whose roll is listed once."""

    def setup() -> Shot:
        duel = mustered_duel()
        reavers = duel["reavers"]
        battle = battle_of(duel, champion_out=True)
        sequence = play_to(sequence_of(battle, reavers), step, reavers.owner)
        return Shot(
            reavers.owner,
            reverse("sequence_complete", args=[sequence.pk]),
            {"step": step - 1},
            applied=lambda: sequence.tasks.filter(step=step, kind=kind, void=False).count() - 1,
            allowed=0,
        )

    return setup


for _step, _kind in LISTED.items():
    race(f"sequence_complete:late:{_step}", f"step {_step}'s {_kind} roll is listed once")(
        late_race(_step, _kind)
    )


NOT_RACED = {
    "sequence_detail": "a page, which only reads; the rolls a step lists as it becomes current "
    "are raced through sequence_complete (sequence_complete:late:<step>)",
}
