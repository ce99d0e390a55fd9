"""Haggle (the Freetraders symbol's skill, the Merchant's): once per post-battle sequence, 2D6
gc off the price of one item bought in step 6 or 8, never under 1 gc; the 2D6 is in the dice
log. The Reavers as in ``test_trading_steps``: Captain Adler, Brandt, three Stadtwache."""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath import forms as step_forms
from battles.dice import dice_for
from battles.models import DiceRoll
from core.dice import DiceError
from core.errors import RuleViolation
from tests.helpers import act, at_step, chest, gold, roll, sack_with_room, skill_pk, warriors
from warbands.models import StoredItem, WarriorSkill

pytestmark = pytest.mark.django_db


def haggling(duel, step):
    captain, _, _ = warriors(duel["reavers"])
    WarriorSkill.objects.create(warrior=captain, skill_id=skill_pk("haggle"))
    sequence, owner = at_step(duel, step)
    return sequence, owner, captain


def test_haggle_knocks_2d6_off_a_rare_item_once_per_sequence(duel):
    reavers = duel["reavers"]
    sequence, owner, captain = haggling(duel, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior=captain)
    roll(sequence, task, [5, 4], owner)  # 9
    before = gold(reavers)

    said = act(sequence, "buy_rare", owner, [1, 2, 3, 4, 2], task=task.pk,
               goods="item:holy_relic", to=f"warrior:{captain.pk}", haggle=True)  # fmt: skip

    assert "Captain Adler haggled (2D6 4+2): 21 gc down to 15 gc" in said
    assert gold(reavers) == before - 15
    assert captain.items.get(item__key="holy_relic").price_paid == 15
    sequence.refresh_from_db()
    assert sequence.state["haggled"] == [captain.pk]
    # Spent: step 8 finds no one left to haggle.
    sequences.complete_step(sequence, actor=owner, step=6)
    sequence.refresh_from_db()
    sequences.complete_step(sequence, actor=owner, step=7)
    sequence.refresh_from_db()
    with pytest.raises(RuleViolation, match="No one of the warband has Haggle"):
        act(sequence, "buy_stash", owner, [6, 6], item="helmet", into=chest(reavers).pk,
            haggle=True)  # fmt: skip


def test_typed_haggle_dice_come_after_the_price_dice_and_are_logged(duel):
    reavers = duel["reavers"]
    sequence, owner, captain = haggling(duel, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior=captain)
    roll(sequence, task, [4, 3], owner)  # 7: a lucky charm (10 gc)
    battle = sequence.participant.battle
    values = step_forms.clean_action(6, "buy_rare", {
        "task": task.pk, "goods": "item:lucky_charm", "haggle": "1",
        "to": f"container:{sack_with_room(reavers).pk}",
    }, warband=reavers)  # fmt: skip
    with pytest.raises(DiceError, match="needs 2 dice"):
        sequences.act(sequence, actor=owner, step=6, action="buy_rare",
                      values=values, dice=dice_for(battle, entered="3"))  # fmt: skip
    before = gold(reavers)

    sequences.act(sequence, actor=owner, step=6, action="buy_rare", values=values,
                  dice=dice_for(battle, entered="6 6", warband=reavers))  # fmt: skip

    assert gold(reavers) == before - 1  # 10 - 12: never under 1 gc
    logged = DiceRoll.objects.get(battle=battle, purpose__contains="Haggle")
    assert logged.faces == [6, 6] and logged.source == "entered"
    assert StoredItem.objects.filter(container__warband=reavers, item__key="lucky_charm").exists()


def test_haggle_in_step_8_for_a_common_item_and_not_without_the_skill(duel):
    reavers = duel["reavers"]
    _, _, guards = warriors(reavers)
    sequence, owner = at_step(duel, 8)
    with pytest.raises(RuleViolation, match="No one of the warband has Haggle"):
        act(sequence, "buy_stash", owner, [3, 3], item="helmet", into=chest(reavers).pk,
            haggle=True)  # fmt: skip

    captain, _, _ = warriors(reavers)
    WarriorSkill.objects.create(warrior=captain, skill_id=skill_pk("haggle"))
    before = gold(reavers)
    said = act(sequence, "buy", owner, [2, 1], warrior=guards.pk, item="shield",
               haggle=True)  # fmt: skip
    # Three Stadtwache buy a shield each (5 gc): one of them costs 3 gc off, to 2 gc.
    assert gold(reavers) == before - 12, said
    assert "Captain Adler haggled (2D6 2+1)" in said
    with pytest.raises(RuleViolation, match="No one of the warband has Haggle"):
        act(sequence, "buy", owner, [2, 1], warrior=guards.pk, item="shield", haggle=True)


def test_the_buy_forms_offer_haggle_only_to_a_warband_with_it(client, duel):
    sequence, owner = at_step(duel, 8)
    client.force_login(owner)
    url = reverse("sequence_detail", args=[sequence.pk])
    assert 'name="haggle"' not in client.get(url).content.decode()

    captain, _, _ = warriors(duel["reavers"])
    WarriorSkill.objects.create(warrior=captain, skill_id=skill_pk("haggle"))
    shown = client.get(url).content.decode()
    assert 'name="haggle"' in shown and "Captain Adler haggles" in shown
