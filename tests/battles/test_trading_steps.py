"""Post-battle steps 3 to 10 through the services: exploration, wyrdstone, veterans, rare
items, hired swords, recruits, reallocation and the end of the sequence, with scripted dice.

The Reavers (Reikland) muster with Captain Adler (sword), Brandt the champion (axe) and three
Stadtwache (spears); 277 gc sit in the chest (100) and four large sacks (50, 50, 50, 27).
"""

import pytest
from django.core.exceptions import PermissionDenied

from battles import sequence as sequences
from battles import step_forms
from battles.models import PostBattleSequence
from battles.rules import exploration as rules
from battles.sequence.engine import step_context
from battles.sequence.exploration import apply_find
from core.dice import ScriptedDice
from tests.helpers import battle_of, fought, play_to, roll, roster_state, sequence_of, warriors
from warbands import services as warband_services
from warbands import treasury
from warbands.models import (
    HiredSword,
    Item,
    LedgerEntry,
    RatingSnapshot,
    Skill,
    StoredItem,
    WarbandType,
    Warrior,
    WarriorItem,
    WarriorSkill,
)
from warbands.rules import RuleViolation

pytestmark = pytest.mark.django_db


def at_step(duel, step, **battle):
    reavers = duel["reavers"]
    sequence = sequence_of(battle_of(duel, **battle), reavers)
    return play_to(sequence, step, reavers.owner), reavers.owner


def act(sequence, action, actor, dice=(), **data):
    """An action posted as its page posts it: read through the step's form first."""
    step = sequence.current_step
    return sequences.act(
        sequence, actor=actor, step=step, action=action,
        values=step_forms.clean_action(step, action, data), dice=ScriptedDice(dice),
    )  # fmt: skip


def task_of(sequence, kind):
    sequences.prepare(sequence)
    return sequence.tasks.get(step=sequence.current_step, kind=kind, void=False, done=False)


def pile(warband):
    return treasury.loose_pile(warband)


def gold(warband):
    return treasury.totals(warband)["gold"]


def chest(warband):
    return warband.containers.get(kind="treasure_chest")


def sack_with_room(warband):
    return warband.containers.filter(kind="large_sack").order_by("gold_crowns").first()


# --- Step 3: exploration -------------------------------------------------------------------


def test_one_die_per_hero_standing_and_one_for_winning(duel):
    sequence, _ = at_step(duel, 3)
    assert task_of(sequence, "exploration").label == "Exploration: 3 dice (one won)"


def test_a_hero_out_of_action_does_not_explore_nor_does_a_loser_get_a_die(duel):
    sequence, _ = at_step(duel, 3, champion_out=True, won=False)
    assert task_of(sequence, "exploration").label == "Exploration: 1 die"


def test_shards_go_to_the_unstored_pile_and_the_player_stores_them(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 3)

    summary = roll(sequence, task_of(sequence, "exploration"), [1, 2, 6], owner).summary

    assert "Dice 1 2 6 = 9" in summary and "2 wyrdstone shards" in summary
    assert pile(reavers).wyrdstone == 2
    entry = LedgerEntry.objects.get(container=pile(reavers), kind="wyrdstone")
    assert (entry.battle, entry.step, entry.reason) == (sequence.participant.battle, 3, "income")
    act(sequence, "store", owner, target=chest(reavers).pk, wyrdstone=2)
    assert chest(reavers).wyrdstone == 2 and pile(reavers).wyrdstone == 0
    assert not treasury.ledger_mismatches()


def test_storing_more_than_a_container_holds_is_refused_and_changes_nothing(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 3)
    roll(sequence, task_of(sequence, "exploration"), [5, 5, 6], owner)  # 16: 3 shards, 5-5
    roll(sequence, task_of(sequence, "location"), [3, 4, 5], owner)  # overturned cart, 9 gc
    assert (pile(reavers).gold_crowns, pile(reavers).wyrdstone) == (9, 3)
    full = chest(reavers)  # 100 gc already

    with pytest.raises(RuleViolation):
        act(sequence, "store", owner, target=full.pk, gold=9)

    assert (pile(reavers).gold_crowns, chest(reavers).gold_crowns) == (9, 100)


def test_a_double_finds_its_location_and_its_gold_goes_to_the_pile(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 3)
    roll(sequence, task_of(sequence, "exploration"), [2, 2, 5], owner)

    location = task_of(sequence, "location")
    assert location.label == "Shop (2-2)"
    with pytest.raises(RuleViolation, match="Roll for Shop"):
        sequences.complete_step(sequence, actor=owner, step=3)
    roll(sequence, location, [1], owner)

    stored = StoredItem.objects.get(container=pile(reavers))
    assert (pile(reavers).gold_crowns, stored.item.key) == (1, "lucky_charm")
    sequences.complete_step(sequence, actor=owner, step=3)


def test_the_well_asks_for_a_hero_and_a_failed_test_costs_a_game(duel):
    captain, _, _ = warriors(duel["reavers"])
    sequence, owner = at_step(duel, 3)
    roll(sequence, task_of(sequence, "exploration"), [1, 1, 5], owner)
    well = task_of(sequence, "location")

    roll(sequence, well, [], owner)
    well.refresh_from_db()
    assert well.question["key"] == "hero" and not well.done
    roll(sequence, well, [6], owner, answers={"hero": captain.pk})

    captain.refresh_from_db()
    assert captain.games_to_miss == 1


def test_the_straggler_gives_one_more_die_next_time(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 3)
    roll(sequence, task_of(sequence, "exploration"), [4, 4, 1], owner)
    roll(sequence, task_of(sequence, "location"), [], owner)
    reavers.refresh_from_db()
    assert reavers.exploration_extra_dice == 1
    play_to(sequence, 11, owner)

    battle = battle_of(duel)
    nxt = play_to(sequence_of(battle, reavers), 3, owner)
    task = task_of(nxt, "exploration")
    assert "the Straggler's extra die" in task.label
    roll(nxt, task, [6, 6, 6, 1], owner, answers={"discard": "3"})
    reavers.refresh_from_db()
    assert reavers.exploration_extra_dice == 0
    assert nxt.tasks.get(kind="location", void=False).label == "Returning a Favour (6-6-6)"


def test_a_wyrdstone_hunter_may_re_roll_one_die(duel):
    _, champion, _ = warriors(duel["reavers"])
    WarriorSkill.objects.create(warrior=champion, skill_id=_skill("wyrdstone_hunter"))
    sequence, owner = at_step(duel, 3)
    task = task_of(sequence, "exploration")

    roll(sequence, task, [1, 2, 3], owner)
    task.refresh_from_db()
    assert "Wyrdstone Hunter (Brandt)" in task.question["text"]
    roll(sequence, task, [6], owner, answers={"reroll_0": "0"})
    task.refresh_from_db()
    assert task.result["faces"] == [6, 2, 3]


def _skill(key):

    return Skill.objects.get(key=key).pk


def test_a_catacombs_note_is_confirmed_before_the_step_ends(duel):
    reavers = duel["reavers"]
    captain, champion, guards = warriors(reavers)
    ulf = Warrior.objects.create(
        warband=reavers, warrior_type=champion.warrior_type, name="Ulf", is_hero=True,
        experience=8, **champion.profile.as_dict(),
    )  # fmt: skip
    battle = fought(
        duel,
        [(captain, False, 0, 0, None), (champion, False, 0, 0, None), (ulf, False, 0, 0, None),
         (guards, False, 0, 0, None)],
    )  # fmt: skip
    owner = reavers.owner
    sequence = play_to(sequence_of(battle, reavers), 3, owner)
    roll(sequence, task_of(sequence, "exploration"), [6, 6, 6, 6], owner)
    roll(sequence, task_of(sequence, "location"), [], owner)

    with pytest.raises(RuleViolation, match="Confirm"):
        sequences.complete_step(sequence, actor=owner, step=3)
    sequences.complete_step(sequence, actor=owner, step=3, values={"notes_confirmed": True})


def test_location_effects_on_the_roster(duel):
    reavers = duel["reavers"]
    captain, champion, guards = warriors(reavers)
    sequence, owner = at_step(duel, 3)

    locked = PostBattleSequence.objects.get(pk=sequence.pk)
    ctx = step_context(locked, owner)
    find = rules.Find(
        "Test", gold=5, shards=1, items=[("gem", "Gem", 2), ("", "Gromril axe", 1)],
        experience={champion.pk: 4}, miss_game=[captain.pk], academic_skills=champion.pk,
        kept_gems=captain.pk, prisoner_joins=guards.pk, wardog_for_leader=True,
        free_hired_sword=True, catacombs_reroll=True,
    )  # fmt: skip
    gold_before = gold(reavers)
    lines = apply_find(ctx, find, ScriptedDice([]))
    ctx.journal.save()

    captain.refresh_from_db()
    champion.refresh_from_db()
    guards.refresh_from_db()
    reavers.refresh_from_db()
    assert champion.experience == 13 and champion.extra_skill_lists.filter(key="academic").exists()
    assert sequence.tasks.filter(kind="hero_advance", warrior=champion).count() == 1
    assert (captain.games_to_miss, captain.kept_gems) == (1, True)
    assert captain.items.filter(item__key="wardog").exists()
    assert guards.group_size == 4
    assert gold(reavers) == gold_before + 5 - 10  # the prisoner's spear is paid for
    assert sorted(pile(reavers).stored_items.values_list("name", flat=True)) == [
        "Gem", "Gem", "Gromril axe",
    ]  # fmt: skip
    assert HiredSword.objects.get(warband=reavers).hire_fee == 0
    assert reavers.catacombs_reroll is True
    assert "a prisoner joins Stadtwache" in lines


def test_the_pit_can_kill_a_hero(duel):
    reavers = duel["reavers"]
    _, champion, _ = warriors(reavers)

    sequence, owner = at_step(duel, 3)
    ctx = step_context(PostBattleSequence.objects.get(pk=sequence.pk), owner)
    apply_find(ctx, rules.Find("The Pit", hero_lost=champion.pk), ScriptedDice([]))
    champion.refresh_from_db()
    assert champion.status == "dead" and not champion.items.exists()


def test_undead_find_free_zombies_up_to_the_warband_size(duel):

    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 3)
    undead = WarbandType.objects.get(key="undead")
    reavers.warband_type = undead
    reavers.save()
    ctx = step_context(PostBattleSequence.objects.get(pk=sequence.pk), owner)
    ctx.sequence.participant.warband.warband_type = undead
    apply_find(ctx, rules.Find("Prisoners", zombies=3), ScriptedDice([]))
    zombies = reavers.warriors.get(warrior_type__key="zombie")
    assert zombies.group_size == 3 and zombies.experience == 0


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


def test_selling_more_shards_than_held_is_refused(duel):
    sequence, owner = at_step(duel, 4)
    with pytest.raises(RuleViolation, match="holds 2 wyrdstone"):
        act(sequence, "sell", owner, shards=3, into="pile")
    assert not sequence.state.get("wyrdstone_sold")


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


def test_no_experienced_group_means_no_veterans_roll(duel):
    sequence, _ = at_step(duel, 5)
    duel["reavers"].warriors.filter(is_hero=False).update(experience=0)
    sequences.prepare(sequence)
    assert not sequence.tasks.filter(step=5).exists()


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
    WarriorSkill.objects.create(warrior=captain, skill_id=_skill("streetwise"))
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
    WarriorSkill.objects.create(warrior=captain, skill_id=_skill("streetwise"))
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    WarriorSkill.objects.filter(warrior=captain).delete()
    task = sequence.tasks.get(step=6, warrior=captain)
    assert task.label == "Captain Adler's rarity roll (+2)" and task.data == {"streetwise": True}
    roll(sequence, task, [3, 3], owner)
    task.refresh_from_db()
    assert task.result["total"] == 8

    WarriorSkill.objects.create(warrior=champion, skill_id=_skill("streetwise"))
    older = sequence.tasks.get(step=6, warrior=champion)
    older.data = {}
    older.save(update_fields=["data"])
    roll(sequence, older, [3, 3], owner)
    older.refresh_from_db()
    assert older.result["total"] == 8


def test_a_variable_price_is_rolled_once_and_a_rare_item_may_go_onto_a_hero(duel):
    reavers = duel["reavers"]
    captain, _, guards = warriors(reavers)
    sequence, owner = at_step(duel, 6)
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


def test_a_rare_container_is_bought_with_a_rarity_roll(duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 6)
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


def test_recruits_are_paid_from_the_treasury_and_buy_common_items_only(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 8)
    before = gold(reavers)
    marksman = reavers.warband_type.warrior_types.get(key="marksman")

    act(sequence, "hire", owner, warrior_type=marksman.pk, name="Hawkeyes", group_size=2)

    recruits = reavers.warriors.get(name="Hawkeyes")
    assert (recruits.group_size, recruits.hired_at_creation) == (2, False)
    assert gold(reavers) == before - 2 * marksman.cost
    act(sequence, "buy", owner, warrior=recruits.pk, item="bow")
    assert gold(reavers) == before - 2 * marksman.cost - 2 * 10
    with pytest.raises(RuleViolation, match="not a Common item"):
        act(sequence, "buy", owner, warrior=recruits.pk, item="hochland_long_rifle")
    assert LedgerEntry.objects.filter(reason="purchase", step=8).exists()


def test_hiring_beyond_the_list_limits_or_the_treasury_is_refused(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 8)
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


def test_selling_pays_half_the_price_rounded_down(duel):
    reavers = duel["reavers"]
    _, champion, guards = warriors(reavers)
    sequence, owner = at_step(duel, 8)
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


# --- Step 9: reallocation ------------------------------------------------------------------


def test_reallocation_moves_equips_stores_and_trades_containers(duel):
    reavers = duel["reavers"]
    captain, champion, _ = warriors(reavers)
    sequence, owner = at_step(duel, 9)
    box = chest(reavers)
    sack = sack_with_room(reavers)

    act(sequence, "move", owner, source=box.pk, target=sack.pk, gold=20)
    sword = captain.items.get(item__key="sword")
    act(sequence, "unequip", owner, owned=sword.pk, target=box.pk)
    stored = StoredItem.objects.get(container=box, item__key="sword")
    act(sequence, "equip", owner, stored_item=stored.pk, warrior=champion.pk)
    act(sequence, "buy_container", owner, kind="backpack", pay_from=sack.pk)

    assert champion.items.filter(item__key="sword").exists()
    assert not captain.items.filter(item__key="sword").exists()
    assert reavers.containers.filter(kind="backpack", status="held").count() == 1
    entries = LedgerEntry.objects.filter(step=9, battle=sequence.participant.battle)
    assert set(entries.values_list("reason", flat=True)) == {"transfer", "unequip", "equip",
                                                             "purchase"}  # fmt: skip
    backpack = reavers.containers.get(kind="backpack")
    act(sequence, "sell_container", owner, container=backpack.pk, proceeds_to=sack.pk)
    backpack.refresh_from_db()
    assert backpack.status == "sold"
    assert not treasury.ledger_mismatches()


def test_an_item_off_the_warriors_list_is_refused(duel):
    reavers = duel["reavers"]
    _, _, guards = warriors(reavers)
    treasury.add_item(chest(reavers), item=Item.objects.get(key="lucky_charm"), reason="income")
    sequence, owner = at_step(duel, 9)
    stored = StoredItem.objects.get(item__key="lucky_charm")
    with pytest.raises(RuleViolation):
        act(sequence, "equip", owner, stored_item=stored.pk, warrior=guards.pk)


def test_undo_of_trading_restores_roster_and_treasury(duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 9)
    state = roster_state(reavers)
    sack = sack_with_room(reavers)
    act(sequence, "move", owner, source=chest(reavers).pk, target=sack.pk, gold=10)
    act(sequence, "buy_container", owner, kind="backpack", pay_from=chest(reavers).pk)
    backpack = reavers.containers.get(kind="backpack")
    act(sequence, "move", owner, source=chest(reavers).pk, target=backpack.pk, gold=5)
    act(sequence, "unequip", owner, owned=captain.items.get(item__key="sword").pk,
        target=backpack.pk)  # fmt: skip
    sequences.complete_step(sequence, actor=owner, step=9)

    sequences.undo_last_step(sequence, actor=owner)

    after = roster_state(reavers)
    # The bought backpack stays in the books (its ledger is append-only), marked sold.
    backpack.refresh_from_db()
    assert backpack.status == "sold" and backpack.is_empty
    after["containers"] = [c for c in after["containers"] if c[0] != backpack.pk]
    assert {k: v for k, v in after.items() if k != "items"} == {
        k: v for k, v in state.items() if k != "items"
    }
    assert sorted(i[1:] for i in after["items"]) == sorted(i[1:] for i in state["items"])
    assert not treasury.ledger_mismatches()


def test_each_action_of_a_step_is_a_row_of_its_own(duel):
    """An action writes its own changes and lines (``StepAction``) and never rewrites the
    earlier ones; the record counts the changes, and the done step's summary is its actions'
    lines in order."""
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 9)
    sack = sack_with_room(reavers)
    said = [act(sequence, "move", owner, source=chest(reavers).pk, target=sack.pk, gold=10)]
    record = sequence.records.get(step=9, undone_at__isnull=True)
    first = list(record.actions.values_list("pk", "journal", "summary"))
    said.append(act(sequence, "move", owner, source=sack.pk, target=chest(reavers).pk, gold=4))
    sequences.complete_step(sequence, actor=owner, step=9)

    actions = list(record.actions.values_list("pk", "journal", "summary"))
    assert actions[:1] == first  # untouched by the later actions
    assert len(actions) == 2  # finishing the step changed and said nothing here
    # A move's journal: its two ledger lines, nothing of the other move.
    for _, journal, _ in actions:
        assert [op["op"] for op in journal] == ["ledger"] and len(journal[0]["pks"]) == 2
    record.refresh_from_db()
    assert record.changes == 2 and record.completed_by == owner
    assert record.journal() == [op for _, journal, _ in actions for op in journal]
    sequence.refresh_progress()
    shown = sequences.live_records(sequence).get(step=9).summary
    assert shown == "\n".join(said) and said[0] and said[1]
    # Each sack by its number (several of one kind), and nothing said of a zero.
    assert said == [f"Moved 10 gc from the Treasure Chest to the {sack}.",
                    f"Moved 4 gc from the {sack} to the Treasure Chest."]  # fmt: skip
    assert str(sack).startswith("Large Sack ") and str(sack)[-1].isdigit()


# --- Step 10 and the whole sequence --------------------------------------------------------


def test_unstored_treasure_is_lost_at_the_end_with_ledger_entries(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 10)
    treasury.add_treasure(pile(reavers), gold=12, wyrdstone=1, reason="income")
    treasury.add_item(pile(reavers), item=Item.objects.get(key="sword"), reason="income")
    sequences.prepare(sequence)

    sequences.complete_step(sequence, actor=owner, step=10)

    assert pile(reavers).is_empty
    lost = LedgerEntry.objects.filter(reason="loss", step=10)
    assert sorted(lost.values_list("kind", "amount")) == [("gold", -12), ("item", -1),
                                                           ("wyrdstone", -1)]  # fmt: skip
    sequence.refresh_progress()
    record = sequences.live_records(sequence).get(step=10)  # the page's summaries
    assert "Lost for want of a container: 12 gc, 1 wyrdstone, Sword" in record.summary


def test_step_10_takes_the_rulebook_rating_of_the_roster_after_the_battle(duel):
    """The rating snapshot (summed in SQL) is ``rules.warband_rating`` of the roster as the
    sequence left it: a henchman group grown and experience gained count."""
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 10)
    group = reavers.warriors.filter(is_hero=False).first()
    group.group_size, group.experience = group.group_size + 1, group.experience + 3
    group.save(update_fields=["group_size", "experience"])
    expected = warband_services.rating(warband_services.roster(reavers))

    sequences.complete_step(sequence, actor=owner, step=10)

    snapshot = RatingSnapshot.objects.filter(warband=reavers).latest("pk")  # step 10's
    assert snapshot.rating == expected > 0
    sequence.refresh_progress()
    assert sequences.live_records(sequence).get(step=10).summary.startswith(f"Rating {expected}.")


def test_nothing_is_lost_when_everything_fits_and_the_ledger_checks_out(duel):
    reavers = duel["reavers"]
    before = gold(reavers)
    sequence, _ = at_step(duel, 11)
    assert sequence.is_complete and gold(reavers) == before
    assert not LedgerEntry.objects.filter(reason="loss").exists()
    assert not treasury.ledger_mismatches()


def test_the_treasury_steps_are_the_owners_alone(duel):
    sequence, _ = at_step(duel, 4)
    with pytest.raises(PermissionDenied):
        act(sequence, "sell", duel["organiser"], shards=1, into="pile")
    with pytest.raises(PermissionDenied):
        act(sequence, "sell", duel["scourge"].owner, shards=1, into="pile")


def test_a_treasury_step_posted_again_changes_nothing(duel):
    sequence, owner = at_step(duel, 5)
    sequences.complete_step(sequence, actor=owner, step=5)
    with pytest.raises(RuleViolation, match="already done"):
        sequences.complete_step(sequence, actor=owner, step=5)
    with pytest.raises(RuleViolation, match="already done"):
        sequences.act(sequence, actor=owner, step=5, action="add_veterans", values={})


def test_stray_input_is_refused_with_a_reason(duel):
    sequence, owner = at_step(duel, 9)
    with pytest.raises(RuleViolation, match="whole number"):
        act(sequence, "move", owner, source="pile", target="pile", gold="lots")
    with pytest.raises(RuleViolation, match="Choose one of your containers"):
        act(sequence, "move", owner, source=999999, target="pile", gold=1)
    theirs = chest(duel["scourge"]).pk
    with pytest.raises(RuleViolation, match="Choose one of your containers"):
        act(sequence, "move", owner, source=chest(duel["reavers"]).pk, target=theirs, gold=1)
    with pytest.raises(RuleViolation, match="Choose one of your containers"):
        act(sequence, "store", owner, target=theirs, gold=1)
    with pytest.raises(RuleViolation, match="Choose a container to store it in"):
        act(sequence, "store", owner, target=pile(duel["reavers"]).pk, gold=1)
    with pytest.raises(RuleViolation, match="Nothing to do"):
        act(sequence, "explode", owner)
    assert not LedgerEntry.objects.filter(step=9).exists()


def test_the_opponents_stored_items_are_out_of_reach(duel):
    """A stored item of the opponent cannot be equipped or sold by the Reavers."""
    scourge = duel["scourge"]
    theirs = treasury.add_item(chest(scourge), item=Item.objects.get(key="sword"), reason="income")
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 9)
    with pytest.raises(RuleViolation, match="Choose a stored item"):
        act(sequence, "equip", owner, stored_item=theirs.pk, warrior=captain.pk)
    with pytest.raises(RuleViolation):
        act(sequence, "move_item", owner, stored_item=theirs.pk, target=chest(reavers).pk)
    assert StoredItem.objects.get(pk=theirs.pk).container.warband == scourge
    assert WarriorItem.objects.filter(warrior=captain, item__key="sword").count() == 1
