"""Post-battle steps 4 to 8 through the services: selling wyrdstone, veterans, rare items,
hired swords, recruits, common items and sales, with scripted dice.

The Reavers (Reikland) muster with Captain Adler (sword), Brandt the champion (axe) and three
Stadtwache (spears); 277 gc sit in the chest (100) and four large sacks (50, 50, 50, 27).
"""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.models import DiceRoll
from core.errors import RuleViolation
from tests.factories import WarbandFactory, finish, hire
from tests.helpers import (
    act,
    at_step,
    battle_of,
    chest,
    fought,
    gold,
    play_to,
    roll,
    roster_state,
    sack_with_room,
    sequence_of,
    skill_pk,
    task_of,
    warriors,
)
from warbands import treasury
from warbands.models import (
    HiredSword,
    Item,
    LedgerEntry,
    StoredItem,
    WarbandType,
    Warrior,
    WarriorSkill,
)

pytestmark = pytest.mark.django_db


# --- Step 4: selling wyrdstone -------------------------------------------------------------


def test_wyrdstone_sells_once_at_the_table_price_for_the_warband_size(duel):
    reavers = duel["reavers"]
    treasury.add_treasure(chest(reavers), gold=-80, wyrdstone=1, reason="income")
    sequence, owner = at_step(duel, 4)  # exploring found 2 more shards
    before = gold(reavers)

    summary = act(sequence, "sell", owner, shards=3, into=chest(reavers).pk)

    assert "70 gc (5 warriors)" in summary  # 3 shards, 4-6 warriors: 70
    assert gold(reavers) == before + 70 and chest(reavers).wyrdstone == 0
    assert chest(reavers).gold_crowns == 20 + 70
    with pytest.raises(RuleViolation, match="only once"):
        act(sequence, "sell", owner, shards=1, into="pile")
    sale = LedgerEntry.objects.filter(reason="sale", step=4, battle=sequence.participant.battle)
    assert sorted(sale.values_list("kind", "amount")) == [("gold", 70), ("wyrdstone", -3)]


class TestAtStep4:
    """The Reavers at step 4, played once for the class."""

    AT_STEP = 4

    def test_selling_more_shards_than_held_is_refused(self, reavers_at, duel):
        sequence, owner = reavers_at
        with pytest.raises(RuleViolation, match="holds 2 wyrdstone"):
            act(sequence, "sell", owner, shards=3, into="pile")
        assert not sequence.state.get("wyrdstone_sold")

    def test_a_sale_that_fits_no_container_says_to_sell_into_not_stored_yet(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at  # chest 100 gc, sacks 50, 50, 50, 27; 2 shards found
        with pytest.raises(
            RuleViolation, match=r"\(that would make 155\)\. Room left: Large Sack 4 23"
        ):
            act(sequence, "sell", owner, shards=2, into=chest(reavers).pk)
        last = reavers.containers.filter(kind="large_sack").order_by("pk").last()
        treasury.add_treasure(last, gold=23, reason="income")

        with pytest.raises(RuleViolation, match="sell into “not stored yet” instead, spend it in"):
            act(sequence, "sell", owner, shards=2, into=chest(reavers).pk)
        assert "into the unstored treasure" in act(sequence, "sell", owner, shards=2, into="pile")

    def test_no_experienced_group_means_no_veterans_roll(self, reavers_at, duel):
        sequence, owner = reavers_at
        duel["reavers"].warriors.filter(is_hero=False).update(experience=0)
        sequence = play_to(sequence, 5, owner)  # its rolls listed as it is reached
        assert sequence.current_step == 5
        assert not sequence.tasks.filter(step=5).exists()


# --- Step 5: veterans ----------------------------------------------------------------------


def test_veterans_join_an_experienced_group_within_the_roll(duel):
    reavers = duel["reavers"]
    _, _, guards = warriors(reavers)
    Warrior.objects.filter(pk=guards.pk).update(experience=2)
    sequence, owner = at_step(duel, 5)
    task = task_of(sequence, "veterans")
    roll(sequence, task, [2, 3], owner)  # 5 experience available
    before = gold(reavers)
    # Guards have 3 experience after this battle: two bring 6 > 5.
    with pytest.raises(RuleViolation, match="bring 6 experience; 5 is left"):
        act(sequence, "add_veterans", owner, group=guards.pk, models=2)

    act(sequence, "add_veterans", owner, group=guards.pk, models=1)

    guards.refresh_from_db()
    assert guards.group_size == 4
    assert gold(reavers) == before - (25 + 10 + 2 * 3)


# --- Step 6: rare items --------------------------------------------------------------------


def test_each_hero_standing_rolls_for_rarity_and_buys_one_item(duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 6, champion_out=True)
    sequences.prepare(sequence)
    tasks = sequence.tasks.filter(step=6, kind="rarity")
    assert [t.warrior for t in tasks] == [captain]  # the champion was taken out of action

    roll(sequence, tasks.get(), [4, 3], owner)
    task = tasks.get()
    assert task.result["total"] == 7
    with pytest.raises(RuleViolation, match="Rare 12"):
        act(sequence, "buy_rare", owner, task=task.pk, goods="item:elven_cloak",
            to=f"container:{chest(reavers).pk}")  # fmt: skip
    before = gold(reavers)
    act(sequence, "buy_rare", owner, task=task.pk, goods="item:lucky_charm",
        to=f"container:{sack_with_room(reavers).pk}")  # fmt: skip
    assert gold(reavers) == before - 10
    assert StoredItem.objects.filter(container__warband=reavers, item__key="lucky_charm").exists()
    with pytest.raises(RuleViolation, match="buys one rare item"):
        act(sequence, "buy_rare", owner, task=task.pk, goods="item:lucky_charm",
            to=f"container:{chest(reavers).pk}")  # fmt: skip


def test_rarity_modifiers_streetwise_marienburg_and_gems(duel):
    reavers = duel["reavers"]
    captain, champion, _ = warriors(reavers)
    WarriorSkill.objects.create(warrior=captain, skill_id=skill_pk("streetwise"))
    Warrior.objects.filter(pk=champion.pk).update(kept_gems=True)
    reavers.warband_type.rare_item_modifier = 1  # as Marienburg's list
    reavers.warband_type.save()
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    labels = list(sequence.tasks.filter(step=6).values_list("label", flat=True))
    assert labels == ["Captain Adler's rarity roll (+3)", "Brandt's rarity roll (+2)"]
    task = sequence.tasks.get(step=6, warrior=captain)
    roll(sequence, task, [6, 6], owner)
    task.refresh_from_db()
    assert task.result["total"] == 15


def test_a_rarity_roll_takes_the_modifier_its_label_shows(duel):
    """Streetwise as the hero had it when step 6 began (kept in the task): a skill removed
    since changes neither the label nor the roll; a task kept before the flag reads it now."""
    reavers = duel["reavers"]
    captain, champion, _ = warriors(reavers)
    WarriorSkill.objects.create(warrior=captain, skill_id=skill_pk("streetwise"))
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    WarriorSkill.objects.filter(warrior=captain).delete()
    task = sequence.tasks.get(step=6, warrior=captain)
    assert task.label == "Captain Adler's rarity roll (+2)" and task.data == {"streetwise": True}
    roll(sequence, task, [3, 3], owner)
    task.refresh_from_db()
    assert task.result["total"] == 8

    WarriorSkill.objects.create(warrior=champion, skill_id=skill_pk("streetwise"))
    older = sequence.tasks.get(step=6, warrior=champion)
    older.data = {}
    older.save(update_fields=["data"])
    roll(sequence, older, [3, 3], owner)
    older.refresh_from_db()
    assert older.result["total"] == 8


class TestAtStep6:
    """The Reavers at step 6, played once for the class."""

    AT_STEP = 6

    def test_a_variable_price_is_rolled_once_and_a_rare_item_may_go_onto_a_hero(
        self, reavers_at, duel
    ):
        reavers = duel["reavers"]
        captain, _, guards = warriors(reavers)
        sequence, owner = reavers_at
        sequences.prepare(sequence)
        task = sequence.tasks.get(step=6, warrior=captain)
        roll(sequence, task, [5, 4], owner)  # 9

        with pytest.raises(RuleViolation, match="one for each model"):
            act(sequence, "buy_rare", owner, [1, 1, 1], task=task.pk, goods="item:holy_relic",
                to=f"warrior:{guards.pk}")  # fmt: skip
        act(sequence, "buy_rare", owner, [1, 2, 3], task=task.pk, goods="item:holy_relic",
            to=f"warrior:{captain.pk}")  # fmt: skip

        owned = captain.items.get(item__key="holy_relic")
        assert owned.price_paid == 15 + 6

    def test_a_rare_container_is_bought_with_a_rarity_roll(self, reavers_at, duel):
        reavers = duel["reavers"]
        captain, _, _ = warriors(reavers)
        sequence, owner = reavers_at
        sequences.prepare(sequence)
        task = sequence.tasks.get(step=6, warrior=captain)
        roll(sequence, task, [4, 3], owner)  # 7: a mule may be found
        act(sequence, "buy_rare", owner, task=task.pk, goods="container:pack_mule")
        assert reavers.containers.filter(kind="pack_mule", status="held").exists()


# --- Step 7: hired swords ------------------------------------------------------------------


def test_a_hired_sword_is_paid_and_his_upkeep_falls_due_after_the_next_battle(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 7)
    before = gold(reavers)
    act(sequence, "hire_sword", owner, name="Aenur", kind="hired_sword", hire_fee=40, upkeep=15)
    assert gold(reavers) == before - 40
    sequences.complete_step(sequence, actor=owner, step=7)  # no upkeep in his first sequence
    play_to(sequence, 11, owner)

    second = play_to(sequence_of(battle_of(duel), reavers), 7, owner)
    with pytest.raises(RuleViolation, match="Pay Aenur's upkeep"):
        sequences.complete_step(second, actor=owner, step=7)
    sword = HiredSword.objects.get(name="Aenur")
    act(second, "upkeep", owner, hired_sword=sword.pk, decision="pay")
    with pytest.raises(RuleViolation, match="settled already"):
        act(second, "upkeep", owner, hired_sword=sword.pk, decision="leave")
    sequences.complete_step(second, actor=owner, step=7)
    assert gold(reavers) == before - 40 - 15


def test_a_hired_sword_not_paid_leaves(duel):
    reavers = duel["reavers"]
    HiredSword.objects.create(warband=reavers, name="Ogre", upkeep=30)
    sequence, owner = at_step(duel, 7)
    act(sequence, "upkeep", owner, hired_sword=HiredSword.objects.get().pk, decision="leave")
    assert HiredSword.objects.get().status == "left"


# --- Step 8: recruits, common items, sales -------------------------------------------------


class TestAtStep8:
    """The Reavers at step 8, played once for the class."""

    AT_STEP = 8

    def test_recruits_are_paid_from_the_treasury_and_buy_common_items_only(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        before = gold(reavers)
        marksman = reavers.warband_type.warrior_types.get(key="marksman")

        act(sequence, "hire", owner, warrior_type=marksman.pk, name="Hawkeyes", group_size=2)

        recruits = reavers.warriors.get(name="Hawkeyes")
        assert (recruits.group_size, recruits.hired_at_creation) == (2, False)
        assert gold(reavers) == before - 2 * marksman.cost
        act(sequence, "buy", owner, warrior=recruits.pk, item="bow")
        assert gold(reavers) == before - 2 * marksman.cost - 2 * 10
        with pytest.raises(RuleViolation, match=r"Hochland long rifle is Rare 11: .* step 6"):
            act(sequence, "buy", owner, warrior=recruits.pk, item="hochland_long_rifle")
        assert LedgerEntry.objects.filter(reason="purchase", step=8).exists()

    def test_hiring_beyond_the_list_limits_or_the_treasury_is_refused(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        state = roster_state(reavers)
        captain_type = reavers.warband_type.warrior_types.get(key="mercenary_captain")
        with pytest.raises(RuleViolation, match="at most 1 Mercenary Captain"):
            act(sequence, "hire", owner, warrior_type=captain_type.pk)
        warrior_type = reavers.warband_type.warrior_types.get(key="warrior")
        with pytest.raises(RuleViolation, match="groups of 1 to 5"):
            act(sequence, "hire", owner, warrior_type=warrior_type.pk, group_size=6)
        for container in reavers.containers.filter(gold_crowns__gt=0):
            treasury.add_treasure(container, gold=-container.gold_crowns, reason="loss")
        state = roster_state(reavers)
        with pytest.raises(RuleViolation, match="costs 25 gc but the treasury holds only 0 gc"):
            act(sequence, "hire", owner, warrior_type=warrior_type.pk, group_size=1)
        assert roster_state(reavers) == state  # each refusal changed nothing

    def test_selling_pays_half_the_price_rounded_down(self, reavers_at, duel):
        reavers = duel["reavers"]
        _, champion, guards = warriors(reavers)
        sequence, owner = reavers_at
        before = gold(reavers)
        axe = champion.items.get(item__key="axe")  # 5 gc: sells for 2
        act(sequence, "sell", owner, what=f"owned:{axe.pk}", into="pile")
        assert gold(reavers) == before + 2
        spears = guards.items.get(item__key="spear")  # 10 gc × 3 models
        act(sequence, "sell", owner, what=f"owned:{spears.pk}", into="pile")
        assert gold(reavers) == before + 2 + 15
        manual = treasury.add_item(
            chest(reavers), item=Item.objects.get(key="training_manual"), reason="income"
        )
        act(sequence, "sell", owner, what=f"stored:{manual.pk}", into="pile")
        assert gold(reavers) == before + 2 + 15 + 100


# --- Step 8: a Wolfcloak is won in the hunt --------------------------------------------------


def middenheimers(duel):
    """A Middenheim warband in the duel's campaign: Ulrich (captain, S4), Wulf (youngblood,
    S3) and two warriors; none bought a Wolfcloak at the founding."""
    warband = WarbandFactory(
        campaign=duel["campaign"], warband_type=WarbandType.objects.get(key="middenheim")
    )
    hire(warband, "mercenary_captain", name="Ulrich")
    hire(warband, "youngblood", name="Wulf")
    hire(warband, "warrior", models=2, name="Wachen")
    return finish(warband)


def at_step_8(duel, warband):
    battle = fought({**duel, "reavers": warband})
    return play_to(sequence_of(battle, warband), 8, warband.owner)


def test_a_wolfcloak_bought_after_the_founding_is_won_on_a_d6_up_to_the_heros_strength(duel):
    """Opulent goods, Wolfcloak: the hero pays 10 gc for the hunt and must roll his Strength
    or less on a D6; failed, the money is spent and he wears no cloak."""
    wolves = middenheimers(duel)
    sequence = at_step_8(duel, wolves)
    ulrich, wulf = wolves.warriors.get(name="Ulrich"), wolves.warriors.get(name="Wulf")
    before = gold(wolves)

    said = act(sequence, "buy", wolves.owner, dice=[4], warrior=wulf.pk, item="wolfcloak")
    assert said == (
        "Wulf paid 10 gc for the wolf hunt and rolled 4, over his Strength 3: no Wolfcloak."
    )
    assert gold(wolves) == before - 10 and not wulf.items.filter(item__key="wolfcloak").exists()

    said = act(sequence, "buy", wolves.owner, dice=[4], warrior=ulrich.pk, item="wolfcloak")
    assert said == "Ulrich slew the wolf (4, Strength 4): Wolfcloak for Ulrich (10 gc)."
    assert gold(wolves) == before - 20 and ulrich.items.filter(item__key="wolfcloak").exists()


def test_the_wolf_hunt_is_a_roll_in_the_dice_log(client, duel):
    wolves = middenheimers(duel)
    sequence = at_step_8(duel, wolves)
    ulrich = wolves.warriors.get(name="Ulrich")
    client.force_login(wolves.owner)

    client.post(
        reverse("sequence_act", args=[sequence.pk]),
        {"step": 8, "action": "buy", "warrior": ulrich.pk, "item": "wolfcloak"},
        headers={"HX-Request": "true"},
    )

    hunt = DiceRoll.objects.get(purpose__contains="Wolfcloak")
    assert hunt.source == "server" and hunt.faces[0] in range(1, 7)
    assert ulrich.items.filter(item__key="wolfcloak").exists() == (hunt.faces[0] <= 4)


def test_a_wolfcloak_is_not_bought_into_the_stash(duel):
    wolves = middenheimers(duel)
    sequence = at_step_8(duel, wolves)
    with pytest.raises(RuleViolation, match="Wolfcloak is won by a hero"):
        act(sequence, "buy_stash", wolves.owner, item="wolfcloak", into=chest(wolves).pk)
