"""Pairs of the post-battle sequence's undo and reopening (``tests.race.harness``): each
puts back what a step changed, while another player or another page moves the same thing:
the hero the step took captive (sold, ransomed, exchanged), the gold it moved, the helmet it
bought, the recruit it hired, the backpack it bought. One of the two applies, never both."""

from __future__ import annotations

from django.urls import reverse

from battles import aftermath as sequences
from battles.captives import exchange, ransom
from battles.models import Captive, PostBattleSequence
from tests.helpers import (
    act,
    at,
    backpack_bought_in_step_9,
    fought,
    mustered_duel,
    play_to,
    roll,
    sequence_of,
    warriors,
)
from tests.race.captive_races import empty_chest, held
from tests.race.harness import Clash, Shot, pair
from tests.race.sequence_races import last_sack
from warbands import treasury
from warbands.models import (
    Item,
    LedgerEntry,
    StorageContainer,
    StoredItem,
    WarriorItem,
    WarriorType,
)

Reason = LedgerEntry.Reason
REASON = "The table rolled it differently."


def at_step(sequence) -> int:
    return PostBattleSequence.objects.get(pk=sequence.pk).current_step


def undo_shot(sequence, warband, step: int) -> Shot:
    """The owner's "Undo step ``step``", as the sequence page sends it; applied: the sequence
    is back at that step."""
    return Shot(
        warband.owner,
        reverse("sequence_undo", args=[sequence.pk]),
        {"step": step},
        applied=lambda: int(at_step(sequence) == step),
    )


def reopen_shot(sequence, organiser, step: int) -> Shot:
    """The organiser reopens step ``step``, the step after it current and not begun."""
    return Shot(
        organiser,
        reverse("sequence_reopen", args=[sequence.pk]),
        {"step": step, "current": step + 1, "reason": REASON, "confirmed": "1"},
        applied=lambda: int(at_step(sequence) == step),
    )


# --- The hero step 1 took captive ------------------------------------------------------------


def captured_in_step_1(duel):
    """Brandt of the Reavers taken captive by the Scourge's captain (injury 61) in the Reavers'
    step 1, the step completed and step 2 not begun: the Reavers' sequence and the captive."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    brandt = reavers.warriors.get(name="Brandt")
    captor = scourge.warriors.get(is_leader=True)
    battle = fought(duel, [(brandt, True, 0, 0, captor)])
    sequence = play_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    roll(sequence, sequence.tasks.get(step=1), [6, 1], reavers.owner)
    sequences.complete_step(sequence, actor=reavers.owner, step=1)
    return sequence, Captive.objects.get(warrior=brandt)


def sold_shot(captive, captor) -> Shot:
    """The captor sells the captive to the slavers; applied: the slavers' gold in his ledger
    (the captive's row may be gone, the ledger stays)."""
    chest = empty_chest(captor)
    return Shot(
        captor.owner,
        reverse("captive_fate", args=[captor.pk, captive.pk]),
        {"fate": "sold", "into": chest.pk, "dice": ""},
        applied=lambda: LedgerEntry.objects.filter(
            container=chest, reason=Reason.SALE, note__contains="sold to the slavers"
        ).count(),
    )


def home_and_gone(captive):
    """The hero is not both home on his roster and dead to it, nor home with his captor's
    gold paid for him."""

    def problems() -> list[str]:
        warrior = captive.warrior
        warrior.refresh_from_db()
        row = Captive.objects.filter(pk=captive.pk).first()
        if row is None and warrior.status != "active":
            return [f"{warrior.name}'s captivity undone, but he is {warrior.status}"]
        if row is not None and row.status != "held" and warrior.status == "captured":
            return [f"{warrior.name} is {row.status} but still captured"]
        paid = LedgerEntry.objects.filter(battle=captive.battle, note__contains=warrior.name)
        if row is None and paid.exclude(reason=Reason.REVERSAL).exists():
            return [f"{warrior.name} is home, and treasure moved for him"]
        return []

    return problems


@pair(
    "sequence_undo",
    "captive_fate",
    note="the owner undoes the step that took his hero while the captor sells him",
    trials=3,
)
def undo_against_sale():
    duel = mustered_duel()
    sequence, captive = captured_in_step_1(duel)
    reavers = duel["reavers"]
    return Clash(
        undo_shot(sequence, reavers, 1), sold_shot(captive, duel["scourge"]), home_and_gone(captive)
    )


@pair("sequence_undo", "captive_pay", note="two tabs: the owner pays the ransom and undoes")
def undo_against_ransom():
    duel = mustered_duel()
    sequence, captive = captured_in_step_1(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    into = empty_chest(scourge)
    ransom.set_ransom(captive, actor=scourge.owner, ransom=40, into=into)
    pay = Shot(
        reavers.owner,
        reverse("captive_pay", args=[reavers.pk, captive.pk]),
        {"amount": 40, "pay_from": reavers.containers.get(kind="treasure_chest").pk},
        applied=lambda: LedgerEntry.objects.filter(container=into, reason=Reason.INCOME).count(),
    )
    return Clash(undo_shot(sequence, reavers, 1), pay, home_and_gone(captive))


@pair("sequence_undo", "captive_accept", note="two tabs: the owner accepts an exchange and undoes")
def undo_against_exchange():
    duel = mustered_duel()
    sequence, captive = captured_in_step_1(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    theirs = held(duel, "scourge", "reavers", battle=captive.battle)
    exchange.offer_exchange(captive, actor=scourge.owner, for_captive=theirs)
    accept = Shot(
        reavers.owner,
        reverse("captive_accept", args=[reavers.pk, captive.pk]),
        {"offered": theirs.pk},
        applied=lambda: int(Captive.objects.get(pk=theirs.pk).status == "exchanged"),
    )
    return Clash(undo_shot(sequence, reavers, 1), accept, home_and_gone(captive))


@pair(
    "sequence_reopen",
    "captive_fate",
    note="the organiser reopens the step that took the hero while the captor sells him",
    trials=2,
)
def reopen_against_sale():
    duel = mustered_duel()
    sequence, captive = captured_in_step_1(duel)
    return Clash(
        reopen_shot(sequence, duel["organiser"], 1),
        sold_shot(captive, duel["scourge"]),
        home_and_gone(captive),
    )


# --- Gold, items, warriors and containers a step moved ---------------------------------------


@pair(
    "sequence_undo",
    "treasury_move",
    note="undo of step 9's 20 gc chest → sack against the page's 20 gc sack → chest: the chest "
    "holds 100 at most, so only one of them fits",
    trials=2,
)
def undo_against_move():
    sequence, reavers = at(mustered_duel(), 9)
    chest, sack = reavers.containers.get(kind="treasure_chest"), last_sack(reavers)
    act(sequence, "move", reavers.owner, source=chest.pk, target=sack.pk, gold=20)
    sequences.complete_step(sequence, actor=reavers.owner, step=9)
    move = Shot(
        reavers.owner,
        reverse("treasury_move", args=[reavers.pk]),
        {"source": sack.pk, "target": chest.pk, "gold": 20, "wyrdstone": 0},
        applied=lambda: LedgerEntry.objects.filter(
            container=chest, reason=Reason.TRANSFER, step=None, amount=20
        ).count(),
    )
    return Clash(undo_shot(sequence, reavers, 9), move)


@pair(
    "sequence_undo",
    "treasury_move:into_a_container_the_step_bought",
    note="undo of step 9's backpack against gold moved into it on the treasury page",
)
def undo_against_filling():
    sequence, reavers = at(mustered_duel(), 9)
    pack = backpack_bought_in_step_9(sequence, reavers)
    move = Shot(
        reavers.owner,
        reverse("treasury_move", args=[reavers.pk]),
        {"source": reavers.containers.get(kind="treasure_chest").pk, "target": pack.pk,
         "gold": 5, "wyrdstone": 0},
        applied=lambda: LedgerEntry.objects.filter(container=pack, reason=Reason.TRANSFER).count(),
    )  # fmt: skip
    return Clash(undo_shot(sequence, reavers, 9), move)


@pair(
    "sequence_undo",
    "treasury_store",
    note="undo of step 8's helmet (its price back) against the helmet stored on the page",
)
def undo_against_storing():
    sequence, reavers = at(mustered_duel(), 8)
    captain = warriors(reavers)[0]
    act(sequence, "buy", reavers.owner, warrior=captain.pk, item="helmet")
    sequences.complete_step(sequence, actor=reavers.owner, step=8)
    helmet = captain.items.get(item__key="helmet")
    store = Shot(
        reavers.owner,
        reverse("treasury_store", args=[reavers.pk]),
        {"owned": helmet.pk, "target": last_sack(reavers).pk},
        applied=lambda: StoredItem.objects.filter(
            container__warband=reavers, item__key="helmet"
        ).count(),
    )

    def problems() -> list[str]:
        helmets = StoredItem.objects.filter(container__warband=reavers, item__key="helmet").count()
        helmets += WarriorItem.objects.filter(warrior__warband=reavers, item__key="helmet").count()
        refunded = LedgerEntry.objects.filter(warband=reavers, reason=Reason.REVERSAL, step=8)
        if helmets and refunded.exists():
            return [f"{helmets} helmet(s) kept and their price given back"]
        return []

    return Clash(undo_shot(sequence, reavers, 8), store, problems)


@pair(
    "sequence_undo",
    "treasury_equip",
    note="undo of step 8's recruit against a stored sword given to him on the page",
)
def undo_against_equipping():
    sequence, reavers = at(mustered_duel(), 8)
    kind = WarriorType.objects.get(warband_type=reavers.warband_type, key="warrior")
    act(sequence, "hire", reavers.owner, warrior_type=kind.pk, group_size=1, name="Recruit")
    sequences.complete_step(sequence, actor=reavers.owner, step=8)
    recruit = reavers.warriors.get(name="Recruit")
    chest = reavers.containers.get(kind="treasure_chest")
    sword = treasury.add_item(chest, item=Item.objects.get(key="sword"), reason=Reason.INCOME)
    before = WarriorItem.objects.filter(warrior__warband=reavers, item__key="sword").count()
    equip = Shot(
        reavers.owner,
        reverse("treasury_equip", args=[reavers.pk]),
        {"stored_item": sword.pk, "warrior": recruit.pk},
        applied=lambda: LedgerEntry.objects.filter(container=chest, reason=Reason.EQUIP).count(),
    )

    def problems() -> list[str]:
        swords = StoredItem.objects.filter(container__warband=reavers, item__key="sword").count()
        swords += WarriorItem.objects.filter(warrior__warband=reavers, item__key="sword").count()
        return [] if swords == before + 1 else [f"{swords - before} swords where there was one"]

    return Clash(undo_shot(sequence, reavers, 8), equip, problems)


@pair(
    "sequence_reopen",
    "treasury_sell",
    note="the organiser reopens step 9, which emptied a sack, while the owner sells the sack",
)
def reopen_against_container_sale():
    duel = mustered_duel()
    sequence, reavers = at(duel, 9)
    sack = last_sack(reavers)  # 27 gc
    spare = StorageContainer.objects.create(warband=reavers, kind="large_sack")
    act(sequence, "move", reavers.owner, source=sack.pk, target=spare.pk, gold=27)
    sequences.complete_step(sequence, actor=reavers.owner, step=9)
    sell = Shot(
        reavers.owner,
        reverse("treasury_sell", args=[reavers.pk]),
        {"container": sack.pk, "proceeds_to": spare.pk},
        applied=lambda: int(StorageContainer.objects.get(pk=sack.pk).status == "sold"),
    )
    return Clash(reopen_shot(sequence, duel["organiser"], 9), sell)
