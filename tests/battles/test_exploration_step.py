"""Post-battle step 3 through the services: who explores, exploration, its locations and what
they find, and the scenario's own income (its shards, Hidden Treasure's chest), with scripted
dice."""

import pytest

from battles import aftermath as sequences
from battles.aftermath.engine import step_context
from battles.aftermath.exploration import apply_find, location_context
from battles.models import PostBattleSequence, WarriorOutcome
from battles.rules import exploration as rules
from core.dice import ScriptedDice, ServerDice
from core.errors import RuleViolation
from tests.helpers import (
    act,
    at_step,
    battle_of,
    chest,
    fought,
    gold,
    pile,
    play_to,
    roll,
    sequence_of,
    skill_pk,
    task_of,
    warriors,
)
from warbands import hired_swords, treasury
from warbands.models import (
    HiredSword,
    HiredSwordType,
    Item,
    LedgerEntry,
    StoredItem,
    WarbandType,
    Warrior,
    WarriorSkill,
    WarriorType,
)

pytestmark = pytest.mark.django_db


# --- Step 3: exploration -------------------------------------------------------------------


class TestAtStep3:
    """The Reavers at step 3, played once for the class."""

    AT_STEP = 3

    def test_one_die_per_hero_standing_and_one_for_winning(self, reavers_at, duel):
        sequence, _ = reavers_at
        assert task_of(sequence, "exploration").label == "Exploration: 3 dice (one won)"

    def test_shards_go_to_the_unstored_pile_and_the_player_stores_them(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at

        summary = roll(sequence, task_of(sequence, "exploration"), [1, 2, 6], owner).summary

        assert "Dice 1 2 6 = 9" in summary and "2 wyrdstone shards" in summary
        assert pile(reavers).wyrdstone == 2
        entry = LedgerEntry.objects.get(container=pile(reavers), kind="wyrdstone")
        assert (entry.battle, entry.step, entry.reason) == (
            sequence.participant.battle,
            3,
            "income",
        )
        act(sequence, "store", owner, target=chest(reavers).pk, wyrdstone=2)
        assert chest(reavers).wyrdstone == 2 and pile(reavers).wyrdstone == 0
        assert not treasury.ledger_mismatches()

    def test_storing_more_than_a_container_holds_is_refused_and_changes_nothing(
        self, reavers_at, duel
    ):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        roll(sequence, task_of(sequence, "exploration"), [5, 5, 6], owner)  # 16: 3 shards, 5-5
        roll(sequence, task_of(sequence, "location"), [3, 4, 5], owner)  # overturned cart, 9 gc
        assert (pile(reavers).gold_crowns, pile(reavers).wyrdstone) == (9, 3)
        full = chest(reavers)  # 100 gc already

        with pytest.raises(RuleViolation):
            act(sequence, "store", owner, target=full.pk, gold=9)

        assert (pile(reavers).gold_crowns, chest(reavers).gold_crowns) == (9, 100)

    def test_a_double_finds_its_location_and_its_gold_goes_to_the_pile(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        roll(sequence, task_of(sequence, "exploration"), [2, 2, 5], owner)

        location = task_of(sequence, "location")
        assert location.label == "Shop (2-2)"
        with pytest.raises(RuleViolation, match="Roll for Shop"):
            sequences.complete_step(sequence, actor=owner, step=3)
        roll(sequence, location, [1], owner)

        stored = StoredItem.objects.get(container=pile(reavers))
        assert (pile(reavers).gold_crowns, stored.item.key) == (1, "lucky_charm")
        sequences.complete_step(sequence, actor=owner, step=3)

    def test_the_well_asks_for_a_hero_and_a_failed_test_costs_a_game(self, reavers_at, duel):
        captain, _, _ = warriors(duel["reavers"])
        sequence, owner = reavers_at
        roll(sequence, task_of(sequence, "exploration"), [1, 1, 5], owner)
        well = task_of(sequence, "location")

        roll(sequence, well, [], owner)
        well.refresh_from_db()
        assert well.question["key"] == "hero" and not well.done
        roll(sequence, well, [6], owner, answers={"hero": captain.pk})

        captain.refresh_from_db()
        assert captain.games_to_miss == 1

    def test_the_straggler_gives_one_more_die_next_time(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
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

    def test_location_effects_on_the_roster(self, reavers_at, duel):
        reavers = duel["reavers"]
        captain, champion, guards = warriors(reavers)
        sequence, owner = reavers_at

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
        assert (
            champion.experience == 13 and champion.extra_skill_lists.filter(key="academic").exists()
        )
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

    def test_a_hero_who_reads_the_training_manual_gains_combat_skills_and_ws_maximum(
        self, reavers_at, duel
    ):
        """Fighting Arena: the reader gains access to Combat skills and +1 to his WS maximum (a
        human's 6 becomes 7); the manual is used up, not added to the treasury."""
        reavers = duel["reavers"]
        _, champion, _ = warriors(reavers)
        sequence, owner = reavers_at
        ctx = step_context(PostBattleSequence.objects.get(pk=sequence.pk), owner)
        stored_before = pile(reavers).stored_items.count()

        lines = apply_find(ctx, rules.Find("Fighting Arena", manual_reader=champion.pk), None)
        ctx.journal.save()

        champion.refresh_from_db()
        assert champion.extra_skill_lists.filter(key="combat").exists()
        assert champion.maximum.WS == 7
        assert pile(reavers).stored_items.count() == stored_before
        assert any("training manual" in line for line in lines)

    def test_the_hero_who_carries_the_freetraders_symbol_gains_haggle(self, reavers_at, duel):
        """Merchant's House, a double: the symbol goes to its hero, who gains the Haggle skill."""
        reavers = duel["reavers"]
        _, champion, _ = warriors(reavers)
        sequence, owner = reavers_at
        ctx = step_context(PostBattleSequence.objects.get(pk=sequence.pk), owner)

        apply_find(ctx, rules.Find("Merchant's House", symbol_bearer=champion.pk), None)
        ctx.journal.save()

        assert champion.skills.filter(skill__key="haggle").exists()
        assert champion.items.filter(item__key="freetraders_symbol").exists()

    def test_the_pit_can_kill_a_hero(self, reavers_at, duel):
        reavers = duel["reavers"]
        _, champion, _ = warriors(reavers)

        sequence, owner = reavers_at
        ctx = step_context(PostBattleSequence.objects.get(pk=sequence.pk), owner)
        apply_find(ctx, rules.Find("The Pit", hero_lost=champion.pk), ScriptedDice([]))
        champion.refresh_from_db()
        assert champion.status == "dead" and not champion.items.exists()

    def test_undead_find_free_zombies_up_to_the_warband_size(self, reavers_at, duel):

        reavers = duel["reavers"]
        sequence, owner = reavers_at
        undead = WarbandType.objects.get(key="undead")
        reavers.warband_type = undead
        reavers.save()
        ctx = step_context(PostBattleSequence.objects.get(pk=sequence.pk), owner)
        ctx.sequence.participant.warband.warband_type = undead
        apply_find(ctx, rules.Find("Prisoners", zombies=3), ScriptedDice([]))
        zombies = reavers.warriors.get(warrior_type__key="zombie")
        assert zombies.group_size == 3 and zombies.experience == 0

    def test_an_artefact_found_once_is_not_found_again_even_after_its_carrier_died(
        self, reavers_at, duel
    ):
        """FACTS.md section 4: each magical artefact exists only once in a campaign. The Scourge
        found the Bow of Seeking, their leader carried it and died with it (his equipment is
        lost): the Reavers' villa rolls the bow again and finds the boots."""
        scourge = duel["scourge"]
        sequence, owner = reavers_at
        bow = Item.objects.get(key="bow_of_seeking")
        found = treasury.add_item(chest(scourge), item=bow, reason=LedgerEntry.Reason.INCOME)
        rat = scourge.warriors.get(is_leader=True)
        treasury.equip_stored_item(found, rat, actor=scourge.owner).delete()  # lost as he dies
        Warrior.objects.filter(pk=rat.pk).update(status=Warrior.Status.DEAD, is_leader=False)

        context = location_context(step_context(sequence, owner))

        assert context.owned_artefacts == {"bow_of_seeking"}
        find = rules.resolve_location(ScriptedDice([5, 4, 1]), 6, 6, context=context)
        assert [key for key, _, _ in find.items] == ["boots_rope_of_pieter"]

    def test_an_artefact_whose_find_was_undone_may_be_found_again(self, reavers_at, duel):
        sequence, owner = reavers_at
        scourge = duel["scourge"]
        hood = Item.objects.get(key="executioners_hood")
        treasury.add_item(chest(scourge), item=hood, reason=LedgerEntry.Reason.INCOME)
        entry = LedgerEntry.objects.get(item=hood)
        treasury.reverse_entry(entry)

        assert not location_context(step_context(sequence, owner)).owned_artefacts


def test_a_hero_out_of_action_does_not_explore_nor_does_a_loser_get_a_die(duel):
    sequence, _ = at_step(duel, 3, champion_out=True, won=False)
    assert task_of(sequence, "exploration").label == "Exploration: 1 die"


def test_a_dwarf_warband_finds_one_more_shard(duel):
    """Incomparable Miners (the list's ``wyrdstone_bonus``): 3 + 3 + 5 finds two shards by the
    chart, three for a Dwarf warband."""
    reavers = duel["reavers"]
    dwarfs = WarbandType.objects.get(key="dwarf_treasure_hunters")
    type(reavers).objects.filter(pk=reavers.pk).update(warband_type=dwarfs)
    sequence, owner = at_step(duel, 3)

    summary = roll(sequence, task_of(sequence, "exploration"), [3, 3, 5], owner).summary

    assert "Incomparable Miners" in summary and "3 wyrdstone shards" in summary
    assert pile(reavers).wyrdstone == 3


def test_a_wyrdstone_hunter_may_re_roll_one_die(duel):
    _, champion, _ = warriors(duel["reavers"])
    WarriorSkill.objects.create(warrior=champion, skill_id=skill_pk("wyrdstone_hunter"))
    sequence, owner = at_step(duel, 3)
    task = task_of(sequence, "exploration")

    roll(sequence, task, [1, 2, 3], owner)
    task.refresh_from_db()
    assert "Wyrdstone Hunter (Brandt)" in task.question["text"]
    roll(sequence, task, [6], owner, answers={"reroll_0": "0"})
    task.refresh_from_db()
    assert task.result["faces"] == [6, 2, 3]


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


def test_an_elf_ranger_with_the_warband_lets_it_move_one_die(duel):
    """Seeker (Elf Ranger): after the roll the player may move one die by one: 3 5 1 with the
    5 moved down is 3 4 1."""
    reavers = duel["reavers"]
    hired_swords.new_hired_sword(
        reavers, HiredSwordType.objects.get(key="elf_ranger"), at_creation=True
    )
    sequence, owner = at_step(duel, 3)
    ranger = reavers.warriors.get(hired_sword__key="elf_ranger")
    task = task_of(sequence, "exploration")

    task = roll(sequence, task, [3, 5, 1], owner)
    assert task.question["key"] == "seeker_0"
    assert ranger.name in task.question["text"]
    task = roll(sequence, task, [], owner, answers={"seeker_0": "1-"})

    assert task.done and task.result["faces"] == [3, 4, 1]


# --- Magical artefacts: each exists once in the campaign -----------------------------------


# --- Who explores --------------------------------------------------------------------------


def hero(warband, name, **fields):
    """A Youngblood for ``warband`` (not a second champion: ``warriors`` reads the one)."""
    youngblood = WarriorType.objects.get(warband_type=warband.warband_type, key="youngblood")
    return Warrior.objects.create(
        warband=warband, warrior_type=youngblood, name=name, is_hero=True,
        **{**youngblood.profile.as_dict(), **fields},
    )  # fmt: skip


def test_a_hero_who_missed_the_battle_rolls_no_die(duel):
    reavers = duel["reavers"]
    captain, champion, guards = warriors(reavers)
    hero(reavers, "Ulf")  # free to fight, but his side did not field him
    hero(reavers, "Otto", games_to_miss=1)  # recovering: he could not take part
    battle = fought(
        duel,
        [(captain, False, 0, 0, None), (champion, False, 0, 0, None),
         (guards, False, 0, 0, None)],
    )  # fmt: skip

    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)

    assert task_of(sequence, "exploration").label == "Exploration: 3 dice (one won)"
    assert sequences.handler(3).setup(sequence).heroes_standing == 2


def test_a_hero_held_captive_rolls_no_die(duel):
    """Even one his side listed: held by the enemy now, he explores nothing for his warband."""
    reavers = duel["reavers"]
    captain, champion, guards = warriors(reavers)
    otto = hero(reavers, "Otto")
    battle = fought(
        duel,
        [(captain, False, 0, 0, None), (champion, False, 0, 0, None), (otto, False, 0, 0, None),
         (guards, False, 0, 0, None)],
    )  # fmt: skip
    Warrior.objects.filter(pk=otto.pk).update(status=Warrior.Status.CAPTURED)

    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)

    assert task_of(sequence, "exploration").label == "Exploration: 3 dice (one won)"


def test_a_battle_without_outcomes_for_the_side_lets_every_hero_free_to_fight_explore(duel):
    """A battle reported before the sides entered their warriors: everybody fought, as the
    step read it then; a captive still does not explore."""
    reavers = duel["reavers"]
    hero(reavers, "Ulf")
    otto = hero(reavers, "Otto")
    battle = fought(duel)
    WarriorOutcome.objects.filter(participant__battle=battle, participant__warband=reavers).delete()
    Warrior.objects.filter(pk=otto.pk).update(status=Warrior.Status.CAPTURED)

    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)

    assert task_of(sequence, "exploration").label == "Exploration: 4 dice (one won)"


def test_seven_dice_are_all_rolled_and_the_player_keeps_the_six_he_chooses(duel):
    """Six heroes standing and a win: seven dice, every one thrown (typed or the server's),
    then the player sets aside the one he does not keep."""
    reavers = duel["reavers"]
    for name in ("Ulf", "Otto", "Kurt", "Jorg"):
        hero(reavers, name)
    sequence = play_to(sequence_of(fought(duel), reavers), 3, reavers.owner)
    task = task_of(sequence, "exploration")
    assert task.label == "Exploration: 7 dice (one won, you keep six of them)"

    roll(sequence, task, [2, 2, 5, 1, 6, 3, 4], reavers.owner)
    task.refresh_from_db()
    assert task.question["key"] == "set_aside_0" and len(task.question["options"]) == 7
    roll(sequence, task, [], reavers.owner, answers={"set_aside_0": "3"})  # the 1
    task.refresh_from_db()
    assert task.done and task.result["faces"] == [2, 2, 5, 6, 3, 4]
    assert "7 dice rolled, six kept: set aside 1" in task.summary
    assert sequence.tasks.get(kind="location", void=False).label == "Shop (2-2)"


def test_the_server_rolls_every_die_too_and_still_asks_which_six_are_kept(duel):
    reavers = duel["reavers"]
    for name in ("Ulf", "Otto", "Kurt", "Jorg"):
        hero(reavers, name)
    sequence = play_to(sequence_of(fought(duel), reavers), 3, reavers.owner)
    task = task_of(sequence, "exploration")

    sequences.run_task(sequence, task, actor=reavers.owner, step=3, dice=ServerDice())

    task.refresh_from_db()
    assert len(task.faces) == 7 and not task.done
    assert task.question["key"] == "set_aside_0"
