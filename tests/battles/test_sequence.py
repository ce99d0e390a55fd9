"""The post-battle sequence, steps 0 to 2, undo and reopen, through the services."""

import pytest
from django.core.exceptions import PermissionDenied

from battles import aftermath as sequences
from battles.models import Captive, SequenceTask
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.helpers import fought, roll, roster_state, sequence_of
from warbands import treasury
from warbands.models import Injury, Warrior

pytestmark = pytest.mark.django_db


def advance_to(sequence, step, actor):
    while sequence.current_step < step:
        sequences.prepare(sequence)
        if sequence.current_step == 2 and not sequence.state.get("experience_awarded"):
            sequences.act(sequence, actor=actor, step=2, action="award")
            sequence.refresh_from_db()
            for task in sequence.tasks.filter(step=2, done=False):
                sequences.run_task(
                    sequence, task, actor=actor, step=2, dice=ScriptedDice([3, 3, 1])
                )
        sequences.complete_step(sequence, actor=actor, step=sequence.current_step)
        sequence.refresh_from_db()
    return sequence


def test_confirmation_gives_each_warband_a_sequence_waiting_on_step_zero(duel):
    battle = fought(duel, carried=False)

    sequence = sequence_of(battle, duel["reavers"])

    assert sequence.current_step == 0
    with pytest.raises(RuleViolation, match="carried items at the end of the game are not settled"):
        sequences.complete_step(sequence, actor=duel["reavers"].owner, step=0)
    assert sequences.waiting_for(duel["reavers"].owner).count() == 1


def test_steps_go_in_order_and_a_finished_step_posted_again_changes_nothing(duel):
    battle = fought(duel)
    owner = duel["reavers"].owner
    sequence = sequence_of(battle, duel["reavers"])

    with pytest.raises(RuleViolation, match="Step 2 is not open yet"):
        sequences.complete_step(sequence, actor=owner, step=2)
    sequences.complete_step(sequence, actor=owner, step=0)
    with pytest.raises(
        RuleViolation, match=r"Step 0 \(Carried items\) is already done: nothing changed"
    ):
        sequences.complete_step(sequence, actor=owner, step=0)
    sequence.refresh_from_db()
    assert sequence.current_step == 1


def test_only_the_owner_plays_and_an_organiser_only_the_public_steps(duel):
    battle = fought(duel)
    sequence = sequence_of(battle, duel["reavers"])

    with pytest.raises(PermissionDenied):
        sequences.complete_step(sequence, actor=duel["scourge"].owner, step=0)
    sequences.complete_step(sequence, actor=duel["organiser"], step=0)
    sequence.refresh_from_db()
    sequence = advance_to(sequence, 3, duel["organiser"])
    with pytest.raises(PermissionDenied):  # the treasury steps are the owner's secret
        sequences.complete_step(sequence, actor=duel["organiser"], step=3)


# --- Step 1 --------------------------------------------------------------------------------


def test_henchmen_out_of_action_are_lost_on_one_or_two(duel):
    group = duel["reavers"].warriors.get(warrior_type__key="warrior")
    battle = fought(duel, [(group, True, 2, 0, None)])
    owner = duel["reavers"].owner
    sequence = advance_to(sequence_of(battle, duel["reavers"]), 1, owner)
    sequences.prepare(sequence)
    (task,) = sequence.tasks.filter(step=1)

    roll(sequence, task, [2, 5], owner)

    group.refresh_from_db()
    task.refresh_from_db()
    assert group.group_size == 2
    assert task.summary == "D6: 2, 5. 1 lost, 2 remain."


def test_a_henchman_group_wiped_out_is_dead(duel):
    group = duel["reavers"].warriors.get(warrior_type__key="warrior")
    battle = fought(duel, [(group, True, 3, 0, None)])
    owner = duel["reavers"].owner
    sequence = advance_to(sequence_of(battle, duel["reavers"]), 1, owner)
    sequences.prepare(sequence)

    roll(sequence, sequence.tasks.get(step=1), [1, 2, 1], owner)

    group.refresh_from_db()
    assert group.status == "dead" and not group.items.exists()


def test_a_chest_wound_lowers_toughness_and_is_written_on_the_roster(duel):
    champion = duel["reavers"].warriors.get(warrior_type__key="champion")
    battle = fought(duel, [(champion, True, 0, 0, None)])
    owner = duel["reavers"].owner
    sequence = advance_to(sequence_of(battle, duel["reavers"]), 1, owner)
    sequences.prepare(sequence)

    roll(sequence, sequence.tasks.get(step=1), [2, 6], owner)

    champion.refresh_from_db()
    assert champion.T == 2
    assert list(champion.injuries.values_list("name", flat=True)) == ["Chest wound"]


def test_a_dead_leader_loses_everything_and_the_next_hero_takes_command(duel):
    reavers = duel["reavers"]
    captain = reavers.warriors.get(is_leader=True)
    champion = reavers.warriors.get(warrior_type__key="champion")
    chest = reavers.containers.get(kind="treasure_chest")
    pouch = treasury.buy_container(
        reavers, "pouch", actor=reavers.owner, pay_from=chest, holder=captain
    )
    treasury.move_treasure(
        reavers.containers.get(kind="treasure_chest"), pouch, actor=reavers.owner, gold=6
    )
    battle = fought(duel, [(captain, True, 0, 0, None)])
    sequence = advance_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)

    roll(sequence, sequence.tasks.get(step=1), [1, 3], reavers.owner)

    captain.refresh_from_db()
    champion.refresh_from_db()
    pouch.refresh_from_db()
    assert (captain.status, captain.is_leader, captain.items.count()) == ("dead", False, 0)
    assert champion.is_leader
    assert (pouch.status, pouch.gold_crowns) == ("lost", 0)
    assert treasury.ledger_mismatches() == []
    assert battle.campaign.events.filter(kind="death", message__contains="takes command").exists()


def test_a_captured_hero_is_held_by_the_enemy_who_took_him_out(duel):
    champion = duel["reavers"].warriors.get(warrior_type__key="champion")
    rat = duel["scourge"].warriors.get(is_leader=True)
    battle = fought(duel, [(champion, True, 0, 0, rat)])
    sequence = advance_to(sequence_of(battle, duel["reavers"]), 1, duel["reavers"].owner)
    sequences.prepare(sequence)

    roll(sequence, sequence.tasks.get(step=1), [6, 1], duel["reavers"].owner)

    champion.refresh_from_db()
    captive = Captive.objects.get()
    assert champion.status == "captured"
    assert (captive.warrior, captive.captor, captive.status) == (champion, duel["scourge"], "held")


def test_sold_to_the_pits_asks_who_won_and_keeps_the_dice(duel):
    champion = duel["reavers"].warriors.get(warrior_type__key="champion")
    battle = fought(duel, [(champion, True, 0, 0, None)])
    owner = duel["reavers"].owner
    sequence = advance_to(sequence_of(battle, duel["reavers"]), 1, owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=1)

    task = roll(sequence, task, [6, 5], owner)
    assert task.question["key"] == "pit_fight" and task.faces == [6, 5] and not task.done
    task = roll(sequence, task, [], owner, answers={"pit_fight": "won"})

    assert task.done and "won the fight" in task.summary
    pile = treasury.loose_pile(duel["reavers"])
    assert pile.gold_crowns == 50
    sequence.refresh_from_db()
    assert sequence.state["injury_experience"] == {str(champion.pk): 2}


# --- Step 2 --------------------------------------------------------------------------------


def test_experience_survival_scenario_underdog_and_injury(duel):
    reavers = duel["reavers"]
    captain = reavers.warriors.get(is_leader=True)
    champion = reavers.warriors.get(warrior_type__key="champion")
    group = reavers.warriors.get(warrior_type__key="warrior")
    battle = fought(duel, [(captain, False, 0, 1, None), (champion, True, 0, 0, None),
                           (group, False, 0, 0, None)])  # fmt: skip
    sequence = advance_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    roll(sequence, sequence.tasks.get(step=1), [6, 6], reavers.owner)  # survives: +1
    sequences.complete_step(sequence, actor=reavers.owner, step=1)

    sequences.act(sequence, actor=reavers.owner, step=2, action="award")

    for warrior in (captain, champion, group):
        warrior.refresh_from_db()
    # The captain: +1 survived, +1 typed for the scenario, +1 winning leader; the champion:
    # +1 survived, +1 from his serious injury.
    assert (captain.experience, champion.experience, group.experience) == (23, 10, 1)
    sequence.refresh_from_db()
    assert not sequence.tasks.filter(step=2).exists()  # 20 → 23 and 8 → 10 reach no thick box


def test_the_underdog_earns_its_bonus(duel):
    scourge = duel["scourge"]
    for warrior in duel["reavers"].warriors.filter(is_hero=True):
        Warrior.objects.filter(pk=warrior.pk).update(experience=warrior.experience + 60)
    battle = fought(duel)
    sequence = advance_to(sequence_of(battle, scourge), 2, scourge.owner)

    sequences.act(sequence, actor=scourge.owner, step=2, action="award")

    group = scourge.warriors.get(warrior_type__key="warrior")
    group.refresh_from_db()
    assert group.experience == 1 + 3  # rating difference 120 (two heroes +60): +3 each


def test_crossing_thick_boxes_rolls_advances_with_choices(duel):
    reavers = duel["reavers"]
    champion = reavers.warriors.get(warrior_type__key="champion")
    Warrior.objects.filter(pk=champion.pk).update(experience=10)
    battle = fought(duel, [(champion, False, 0, 3, None)])
    sequence = advance_to(sequence_of(battle, reavers), 2, reavers.owner)

    sequences.act(sequence, actor=reavers.owner, step=2, action="award")  # 10 → 14: 11 and 14

    tasks = list(sequence.tasks.filter(step=2).order_by("order"))
    assert [t.data["threshold"] for t in tasks] == [11, 14]
    first = roll(sequence, tasks[0], [1, 1], reavers.owner)
    assert first.question["key"] == "skill"
    roll(sequence, first, [], reavers.owner, answers={"skill": "mighty_blow"})
    roll(sequence, tasks[1], [3, 3, 1], reavers.owner)
    champion.refresh_from_db()
    assert champion.S == 4
    assert list(champion.skills.values_list("skill__key", flat=True)) == ["mighty_blow"]
    sequences.complete_step(sequence, actor=reavers.owner, step=2)


def test_the_step_waits_for_the_advances_its_award_added(duel):
    """Step 2 lists no rolls when shown: the award adds them. Completing before they are
    rolled is refused, on the page and through the service."""
    reavers = duel["reavers"]
    champion = reavers.warriors.get(warrior_type__key="champion")
    Warrior.objects.filter(pk=champion.pk).update(experience=10)
    battle = fought(duel, [(champion, False, 0, 1, None)])
    sequence = advance_to(sequence_of(battle, reavers), 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")  # 10 → 12: box 11

    with pytest.raises(RuleViolation, match=rf"Roll for {champion.name}.s advance \(11 "):
        sequences.complete_step(sequence, actor=reavers.owner, step=2)
    sequence.refresh_from_db()
    assert sequence.current_step == 2


def test_the_lads_got_talent_makes_a_hero_out_of_a_henchman(duel):
    reavers = duel["reavers"]
    group = reavers.warriors.get(warrior_type__key="warrior")
    Warrior.objects.filter(pk=group.pk).update(experience=1)
    battle = fought(duel, [(group, False, 0, 0, None)])
    sequence = advance_to(sequence_of(battle, reavers), 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")  # 1 → 2: an advance
    task = sequence.tasks.get(step=2)
    combat = str(
        reavers.warband_type.warrior_types.get(key="champion").skill_lists.get(key="combat").pk
    )
    strength = str(
        reavers.warband_type.warrior_types.get(key="champion").skill_lists.get(key="strength").pk
    )

    task = roll(sequence, task, [5, 6], reavers.owner)
    assert task.question["key"] == "list_1"
    task = roll(sequence, task, [], reavers.owner, answers={"list_1": combat, "list_2": strength})

    assert task.done
    group.refresh_from_db()
    lad = Warrior.objects.get(warband=reavers, name="Stadtwache (the lad)")
    assert (group.group_size, lad.is_hero, lad.experience) == (2, True, 2)
    assert set(lad.extra_skill_lists.values_list("key", flat=True)) == {"combat", "strength"}
    assert set(lad.items.values_list("item__key", flat=True)) == {"dagger", "spear"}
    follow_ups = list(sequence.tasks.filter(step=2, done=False).values_list("kind", flat=True))
    assert sorted(follow_ups) == ["henchman_advance", "hero_advance"]


# --- Undo and reopen -----------------------------------------------------------------------


def test_undo_restores_the_roster_and_the_ledger_exactly(duel):
    reavers = duel["reavers"]
    captain = reavers.warriors.get(is_leader=True)
    champion = reavers.warriors.get(warrior_type__key="champion")
    chest = reavers.containers.get(kind="treasure_chest")
    pouch = treasury.buy_container(
        reavers, "pouch", actor=reavers.owner, pay_from=chest, holder=captain
    )
    treasury.move_treasure(
        reavers.containers.get(kind="treasure_chest"), pouch, actor=reavers.owner, gold=5
    )
    battle = fought(duel, [(captain, True, 0, 0, None), (champion, True, 0, 0, None)])
    sequence = advance_to(sequence_of(battle, reavers), 1, reavers.owner)
    before = roster_state(reavers)
    sequences.prepare(sequence)
    tasks = list(sequence.tasks.filter(step=1).order_by("order"))
    roll(sequence, tasks[0], [1, 1], reavers.owner)  # the captain dies: pouch lost, champion leads
    roll(sequence, tasks[1], [3, 4], reavers.owner)  # the champion's hand injury
    sequences.complete_step(sequence, actor=reavers.owner, step=1)
    assert roster_state(reavers) != before

    sequences.undo_last_step(sequence, actor=reavers.owner)

    sequence.refresh_from_db()
    assert sequence.current_step == 1
    assert roster_state(reavers) == before
    assert treasury.ledger_mismatches() == []
    assert treasury.totals(reavers)["gold"] == 277 - 2  # the pouch cost 2


def test_undo_is_refused_once_the_next_step_has_started(duel):
    reavers = duel["reavers"]
    battle = fought(duel)
    sequence = advance_to(sequence_of(battle, reavers), 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")

    with pytest.raises(RuleViolation, match="has started"):
        sequences.undo_last_step(sequence, actor=reavers.owner)


def test_an_organiser_reopens_a_step_with_a_reason(duel):
    reavers = duel["reavers"]
    champion = reavers.warriors.get(warrior_type__key="champion")
    battle = fought(duel, [(champion, True, 0, 0, None)])
    sequence = advance_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    roll(sequence, sequence.tasks.get(step=1), [3, 4], reavers.owner)  # hand injury
    sequence = advance_to(sequence, 3, reavers.owner)
    champion.refresh_from_db()
    assert champion.WS == 3 and champion.experience == 9

    with pytest.raises(RuleViolation, match="Say why"):
        sequences.reopen_step(sequence, 1, actor=duel["organiser"], reason="", seen=3)
    with pytest.raises(RuleViolation, match="moved on since this page was drawn"):
        sequences.reopen_step(sequence, 1, actor=duel["organiser"], reason="Stale", seen=2)
    sequences.reopen_step(
        sequence, 1, actor=duel["organiser"], reason="The dice were misread", seen=3
    )

    sequence.refresh_from_db()
    champion.refresh_from_db()
    assert sequence.current_step == 1
    assert (champion.WS, champion.experience) == (4, 8)
    with pytest.raises(RuleViolation, match="cannot be reopened"):  # only an earlier step
        sequences.reopen_step(sequence, 1, actor=duel["organiser"], reason="Again", seen=1)
    assert sequence.records.filter(reason="The dice were misread").count() == 2
    # the roll made before is void; the reopened step's roll is listed afresh, not yet rolled
    assert sequence.tasks.filter(void=True, step=1, done=True).count() == 1
    assert list(sequence.tasks.filter(void=False).values_list("step", "done")) == [(1, False)]


def test_a_player_cannot_reopen(duel):
    battle = fought(duel)
    sequence = advance_to(sequence_of(battle, duel["reavers"]), 2, duel["reavers"].owner)

    with pytest.raises(PermissionDenied):
        sequences.reopen_step(sequence, 1, actor=duel["reavers"].owner, reason="please", seen=2)


def test_a_missed_game_is_counted_at_the_next_battle(duel):
    champion = duel["reavers"].warriors.get(warrior_type__key="champion")
    Warrior.objects.filter(pk=champion.pk).update(games_to_miss=2)

    fought(duel)

    champion.refresh_from_db()
    assert champion.games_to_miss == 1


def test_a_task_cannot_be_rolled_twice(duel):
    champion = duel["reavers"].warriors.get(warrior_type__key="champion")
    battle = fought(duel, [(champion, True, 0, 0, None)])
    sequence = advance_to(sequence_of(battle, duel["reavers"]), 1, duel["reavers"].owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=1)
    roll(sequence, task, [4, 4], duel["reavers"].owner)

    with pytest.raises(RuleViolation, match="already rolled, nothing changed"):
        roll(sequence, task, [1, 1], duel["reavers"].owner)
    assert SequenceTask.objects.get(pk=task.pk).faces == [4, 4]


def test_a_leader_blinded_in_both_eyes_retires_and_a_tie_for_his_place_is_rolled_off(duel):
    reavers = duel["reavers"]
    captain = reavers.warriors.get(is_leader=True)
    champion = reavers.warriors.get(warrior_type__key="champion")
    second = Warrior.objects.create(  # his twin, hired since
        warband=reavers, warrior_type=champion.warrior_type, name="Kessler", is_hero=True,
        experience=champion.experience, **champion.profile.as_dict(),
    )  # fmt: skip
    Injury.objects.create(warrior=captain, name="Blinded in one eye", effect="-1 BS")
    battle = fought(duel, [(captain, True, 0, 0, None), (champion, False, 0, 0, None),
                           (second, False, 0, 0, None)])  # fmt: skip
    sequence = advance_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)

    # 31 blinds his good eye: he retires; the two champions tie on Ld and experience and
    # roll off, 2 against 5.
    roll(sequence, sequence.tasks.get(step=1), [3, 1, 2, 5], reavers.owner)

    captain.refresh_from_db()
    assert (captain.status, captain.is_leader) == ("retired", False)
    assert Warrior.objects.get(warband=reavers, is_leader=True) == second
