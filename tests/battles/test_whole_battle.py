"""A whole battle played through the services as in the rules' worked cases: each side enters
its own warriors, step 1 rolls exactly the injuries due, step 2 gives every award line by line,
a captured hero is ransomed and another sold to the slavers, and a deep-wounded hero misses
the next game and earns nothing in it."""

import pytest

from battles import aftermath as sequences
from battles.aftermath import carried_items
from battles.captives.fates import decide_fate
from battles.captives.ransom import pay_ransom, set_ransom
from battles.models import Captive
from battles.report import services, sides
from battles.rules import ReportedResult
from core.dice import ScriptedDice
from tests.helpers import container, sack_with_room, sequence_of, warriors
from warbands import treasury
from warbands.models import Warrior
from warbands.services import ratings_of

pytestmark = pytest.mark.django_db


def report(duel, scenario_key="skirmish"):
    reavers, scourge = duel["reavers"], duel["scourge"]
    return services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="", scenario_key=scenario_key,
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost", True, 1)],
    )  # fmt: skip


def confirm(battle, duel):
    for warband in (duel["reavers"], duel["scourge"]):
        services.respond(battle, actor=warband.owner, agree=True)
    battle.refresh_from_db()
    assert battle.status == "confirmed"
    for warband in (duel["reavers"], duel["scourge"]):
        carried_items.declare_carried_items(
            battle, warband, actor=warband.owner, securers=2,
            declarations=[
                carried_items.Declaration(i.pk, "own")
                for i in battle.carried_items.filter(owner=warband)
            ],
        )  # fmt: skip
    for warband in (duel["reavers"], duel["scourge"]):
        sequences.complete_step(sequence_of(battle, warband), actor=warband.owner, step=0)


def play_step_one(sequence, actor, dice_by_warrior):
    sequences.prepare(sequence)
    tasks = list(sequence.tasks.filter(step=1, void=False))
    for task in tasks:
        sequences.run_task(
            sequence, task, actor=actor, step=1, dice=ScriptedDice(dice_by_warrior[task.warrior_id])
        )
    sequences.complete_step(sequence, actor=actor, step=1)
    return tasks


def test_a_whole_battle_as_in_the_rules_worked_cases(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    captain, champion, guards = warriors(reavers)
    their_captain, their_champion, rats = warriors(scourge)
    Warrior.objects.filter(pk=rats.pk).update(group_size=5)
    kit = sorted(their_captain.items.values_list("item__key", flat=True))  # a sword and a dagger
    battle = report(duel)

    # Each side enters its own warriors.
    sides.enter_side(
        battle, reavers, actor=reavers.owner,
        outcomes=[
            sides.Outcome(captain.pk, enemies_out_of_action=2),
            sides.Outcome(champion.pk, out_of_action=True, taken_out_by_id=their_captain.pk),
            sides.Outcome(guards.pk),
        ],
    )  # fmt: skip
    sides.enter_side(
        battle, scourge, actor=scourge.owner,
        outcomes=[
            sides.Outcome(their_captain.pk, out_of_action=True, taken_out_by_id=captain.pk),
            sides.Outcome(their_champion.pk, out_of_action=True, taken_out_by_id=captain.pk),
            sides.Outcome(rats.pk, models_out_of_action=2, enemies_out_of_action=1),
        ],
    )  # fmt: skip
    confirm(battle, duel)

    # Step 1: the champion's deep wound (D66 35, then a D6 of 6 for D3 = 3 games); the two
    # Scourge heroes are captured (61); the rats roll for exactly their 2 models out of action.
    ours = sequence_of(battle, reavers)
    play_step_one(ours, reavers.owner, {champion.pk: [3, 5, 6]})
    theirs = sequence_of(battle, scourge)
    tasks = play_step_one(
        theirs, scourge.owner,
        {their_captain.pk: [6, 1], their_champion.pk: [6, 1], rats.pk: [1, 4]},
    )  # fmt: skip
    rats_task = next(t for t in tasks if t.warrior_id == rats.pk)
    assert rats_task.data["models"] == 2
    rats.refresh_from_db()
    assert rats.group_size == 4  # the 1 killed one model, the 4 recovered
    champion.refresh_from_db()
    assert champion.games_to_miss == 3
    held = {c.warrior_id: c for c in Captive.objects.filter(captor=reavers)}
    assert set(held) == {their_captain.pk, their_champion.pk}
    # Captives leave their warband's fighting roster and its rating while held.
    assert ratings_of([scourge])[scourge.pk] == 4 * 5 + rats.experience * 4

    # Step 2: the winning leader with two kills earns +4 and reaches his advance at 24.
    gains = {g.warrior.pk: g for g in sequences.handler(2).gains(ours)}
    assert [str(line) for line in gains[captain.pk].lines] == [
        "+1 survived", "+2 for putting 2 enemies out of action", "+1 winning leader",
    ]  # fmt: skip
    assert [str(line) for line in gains[champion.pk].lines] == ["+1 survived"]
    sequences.act(ours, actor=reavers.owner, step=2, action="award")
    captain.refresh_from_db()
    assert captain.experience == 24
    assert ours.tasks.filter(step=2, kind="hero_advance", warrior=captain).count() == 1
    page = sequences.handler(2).page_context(ours, reavers.owner)["awarded"]
    assert page[0]["lines"] == [
        "+1 survived", "+2 for putting 2 enemies out of action", "+1 winning leader",
    ]  # fmt: skip
    # The captured heroes earn nothing; the rats their +1.
    their_gains = {g.warrior.pk for g in sequences.handler(2).gains(theirs)}
    assert their_gains == {rats.pk}

    # The captain is ransomed and comes back with his equipment.
    sack = sack_with_room(reavers)  # 27 gc of its 50
    their_chest = container(scourge, "treasure_chest")
    sack_before, theirs_before = sack.gold_crowns, their_chest.gold_crowns
    set_ransom(held[their_captain.pk], actor=reavers.owner, ransom=10, into=sack)
    pay_ransom(held[their_captain.pk], actor=scourge.owner, pay_from=their_chest, amount=10)
    their_captain.refresh_from_db()
    assert their_captain.status == Warrior.Status.ACTIVE
    assert sorted(their_captain.items.values_list("item__key", flat=True)) == kit
    sack.refresh_from_db()
    their_chest.refresh_from_db()
    assert (sack.gold_crowns, their_chest.gold_crowns) == (sack_before + 10, theirs_before - 10)

    # The champion is sold to the slavers: a D6 of 2, 10 gc into the sack the captor chose.
    decide_fate(
        held[their_champion.pk], actor=reavers.owner, fate=Captive.Status.SOLD, into=sack,
        dice=ScriptedDice([2]),
    )  # fmt: skip
    sack.refresh_from_db()
    assert sack.gold_crowns == sack_before + 10 + 10
    assert "Axe" in list(sack.stored_items.values_list("name", flat=True))
    their_champion.refresh_from_db()
    assert their_champion.status == Warrior.Status.DEAD
    assert not treasury.conservation_problems()

    # The next battle: the deep-wounded champion misses it and earns nothing in it.
    second = report(duel, "breakthrough")
    assert champion.pk not in {w.pk for w in sides.fighters(reavers)}
    with pytest.raises(Exception, match="free to fight"):
        sides.enter_side(
            second, reavers, actor=reavers.owner, outcomes=[sides.Outcome(champion.pk)]
        )
    for warband in (reavers, scourge):
        sides.enter_side(second, warband, actor=warband.owner, outcomes=sides.whole_side(warband))
    confirm(second, duel)
    champion.refresh_from_db()
    assert champion.games_to_miss == 2  # one game missed
    gains = {g.warrior.pk for g in sequences.handler(2).gains(sequence_of(second, reavers))}
    assert champion.pk not in gains and captain.pk in gains
