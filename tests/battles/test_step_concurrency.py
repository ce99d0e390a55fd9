"""Every write of the treasury steps, released in two or three threads at once on real
PostgreSQL (the same thing twice, or two things that want the same gold): each effect happens
once, and ``check_ledgers`` passes afterwards."""

import pytest
from django.core.management import call_command

from battles import aftermath as sequences
from battles.aftermath import forms as step_forms
from battles.models import PostBattleSequence
from core.dice import ScriptedDice
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.helpers import battle_of, play_to, run_together
from warbands import treasury
from warbands.models import HiredSword, Item, LedgerEntry, StoredItem, WarriorItem

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def reavers(reference_data):
    campaign = CampaignFactory()
    MembershipFactory(campaign=campaign, is_organiser=True)
    duel = {
        "campaign": campaign,
        "reavers": mustered_warband(campaign=campaign, name="Reavers"),
        "scourge": mustered_warband(campaign=campaign, name="Scourge"),
    }
    sequence = PostBattleSequence.objects.get(
        participant__battle=battle_of(duel), participant__warband=duel["reavers"]
    )
    return duel["reavers"], sequence


def at(reavers, step):
    warband, sequence = reavers
    return warband, play_to(sequence, step, warband.owner)


def act(warband, sequence, action, **data):
    def run():
        step = sequence.current_step
        sequences.act(sequence, actor=warband.owner, step=step, action=action,
                      values=step_forms.clean_action(step, action, data, warband=warband),
                      dice=ScriptedDice([3, 3, 3]))  # fmt: skip

    return run


def ledgers_agree():
    call_command("check_ledgers", verbosity=0)
    assert not treasury.ledger_mismatches()


def outcomes_of(*actions) -> list[str]:
    return sorted(o.split(":")[0] for o in run_together(*actions))


def test_one_stored_item_equipped_twice_at_once(reavers):
    warband, sequence = at(reavers, 9)
    chest = warband.containers.get(kind="treasure_chest")
    stored = treasury.add_item(chest, item=Item.objects.get(key="sword"), reason="income")
    champion = warband.warriors.get(name="Brandt")  # (the Scourge have a Brandt too)
    equip = act(warband, sequence, "equip", stored_item=stored.pk, warrior=champion.pk)

    assert outcomes_of(equip, equip) == ["done", "refused"]
    assert WarriorItem.objects.filter(warrior=champion, item__key="sword").count() == 1
    assert not StoredItem.objects.filter(pk=stored.pk).exists()
    ledgers_agree()


def test_one_carried_item_stored_twice_at_once(reavers):
    warband, sequence = at(reavers, 9)
    chest = warband.containers.get(kind="treasure_chest")
    axe = WarriorItem.objects.get(warrior__warband=warband, warrior__name="Brandt", item__key="axe")
    store = act(warband, sequence, "unequip", owned=axe.pk, target=chest.pk)

    assert outcomes_of(store, store) == ["done", "refused"]
    assert chest.stored_items.filter(item__key="axe").count() == 1
    ledgers_agree()


def test_one_stored_item_sold_twice_at_once(reavers):
    warband, sequence = at(reavers, 8)
    chest = warband.containers.get(kind="treasure_chest")
    manual = treasury.add_item(chest, item=Item.objects.get(key="training_manual"), reason="income")
    sell = act(warband, sequence, "sell", what=f"stored:{manual.pk}", into="pile")

    assert outcomes_of(sell, sell) == ["done", "refused"]
    assert LedgerEntry.objects.filter(reason="sale", kind="gold").count() == 1
    assert treasury.loose_pile(warband).gold_crowns == 100
    ledgers_agree()


def test_one_rarity_roll_buys_once_however_fast_it_is_clicked(reavers):
    warband, sequence = at(reavers, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior__name="Captain Adler")
    sequences.run_task(sequence, task, actor=warband.owner, step=6, dice=ScriptedDice([6, 6]))
    chest = warband.containers.get(kind="treasure_chest")
    buy = act(warband, sequence, "buy_rare", task=task.pk, goods="item:lucky_charm",
              to=f"container:{chest.pk}")  # fmt: skip

    assert outcomes_of(buy, buy, buy) == ["done", "refused", "refused"]
    assert StoredItem.objects.filter(item__key="lucky_charm").count() == 1
    assert LedgerEntry.objects.filter(reason="purchase", kind="gold").count() >= 1
    ledgers_agree()


def test_two_purchases_wanting_the_same_last_gold(reavers):
    warband, sequence = at(reavers, 7)
    for container in warband.containers.filter(gold_crowns__gt=0):
        treasury.add_treasure(container, gold=-container.gold_crowns, reason="loss")
    chest = warband.containers.get(kind="treasure_chest")
    treasury.add_treasure(chest, gold=30, reason="income")
    hire_a = act(warband, sequence, "hire_sword", name="Aenur", hire_fee=20, upkeep=5)
    hire_b = act(warband, sequence, "hire_sword", name="Bertha", hire_fee=20, upkeep=5)

    assert outcomes_of(hire_a, hire_b) == ["done", "refused"]
    assert HiredSword.objects.filter(warband=warband).count() == 1
    assert treasury.totals(warband)["gold"] == 10
    ledgers_agree()


def test_one_item_moved_to_two_containers_at_once(reavers):
    warband, sequence = at(reavers, 9)
    chest = warband.containers.get(kind="treasure_chest")
    sacks = list(warband.containers.filter(kind="large_sack").order_by("pk")[:2])
    stored = treasury.add_item(chest, item=Item.objects.get(key="sword"), reason="income")
    moves = [act(warband, sequence, "move_item", stored_item=stored.pk, target=s.pk) for s in sacks]

    assert outcomes_of(*moves) in (["done", "done"], ["done", "refused"])
    assert StoredItem.objects.filter(item__key="sword", container__warband=warband).count() == 1
    ledgers_agree()


def test_gold_moved_out_of_one_container_by_two_tabs(reavers):
    warband, sequence = at(reavers, 9)
    chest = warband.containers.get(kind="treasure_chest")  # 100 gc
    box = treasury.loose_pile(warband)
    moves = [act(warband, sequence, "move", source=chest.pk, target="pile", gold=60)] * 2

    assert outcomes_of(*moves) == ["done", "refused"]
    chest.refresh_from_db()
    box.refresh_from_db()
    assert (chest.gold_crowns, box.gold_crowns) == (40, 60)
    ledgers_agree()


def test_undo_twice_at_once_undoes_one_step(reavers):
    warband, sequence = at(reavers, 9)

    def undo():  # both tabs show "Undo step 8"
        sequences.undo_last_step(sequence, actor=warband.owner, step=8)

    outcomes = outcomes_of(undo, undo)
    sequence.refresh_from_db()
    assert sequence.current_step == 8
    assert outcomes == ["done", "refused"]
    ledgers_agree()


def test_paying_and_dismissing_a_hired_sword_at_once(reavers):
    warband, sequence = at(reavers, 7)
    battle = sequence.participant.battle
    HiredSword.objects.create(warband=warband, name="Ogre", upkeep=30)
    HiredSword.objects.update(created_at=battle.created_at)  # with the warband before the battle
    sword = HiredSword.objects.get()
    pay = act(warband, sequence, "upkeep", hired_sword=sword.pk, decision="pay")
    leave = act(warband, sequence, "upkeep", hired_sword=sword.pk, decision="leave")

    assert outcomes_of(pay, leave) == ["done", "refused"]
    sword.refresh_from_db()
    paid = LedgerEntry.objects.filter(reason="purchase", note__contains="upkeep").exists()
    assert (sword.status == "left") != paid
    ledgers_agree()
