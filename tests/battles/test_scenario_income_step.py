"""Step 3 takes the scenario's own income: its shards in a line and a ledger entry of their
own, and Hidden Treasure's chest for the winner (battles.rules.scenario_income)."""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.models import Battle
from core.errors import RuleViolation
from tests.helpers import (
    battle_of,
    gold,
    pile,
    play_to,
    roll,
    roster_state,
    sequence_of,
    task_of,
)
from warbands import treasury
from warbands.models import (
    LedgerEntry,
)

pytestmark = pytest.mark.django_db


# --- The scenario's own income -------------------------------------------------------------


def in_scenario(battle, key, **participant):
    """The battle as if reported in the rulebook's scenario ``key``, with what the Reavers'
    side entered (``scenario_shards``)."""
    Battle.objects.filter(pk=battle.pk).update(scenario_key=key)
    if participant:
        battle.participants.filter(warband__name="Reavers").update(**participant)
    return battle


def test_the_scenarios_shards_come_with_the_exploration_in_a_line_of_their_own(duel):
    reavers = duel["reavers"]
    battle = in_scenario(battle_of(duel), "wyrdstone_hunt", scenario_shards=2)
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    task = task_of(sequence, "exploration")
    assert task.label == "Exploration: 3 dice (one won); +2 shards from Wyrdstone Hunt"

    summary = roll(sequence, task, [1, 2, 6], reavers.owner).summary

    assert summary == "Dice 1 2 6 = 9; 2 wyrdstone shards; +2 shards from Wyrdstone Hunt."
    assert pile(reavers).wyrdstone == 4
    entries = LedgerEntry.objects.filter(container=pile(reavers), kind="wyrdstone")
    assert sorted(entries.values_list("note", "amount", "reason", "step")) == [
        ("exploration", 2, "income", 3),
        ("scenario: Wyrdstone Hunt", 2, "income", 3),
    ]
    assert not treasury.ledger_mismatches()


def test_the_scenarios_shards_stop_at_its_most_and_a_skirmish_gives_none(duel):
    reavers = duel["reavers"]
    battle = in_scenario(battle_of(duel), "defend_the_find", scenario_shards=5)
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    roll(sequence, task_of(sequence, "exploration"), [1, 2, 6], reavers.owner)
    assert pile(reavers).wyrdstone == 2 + 3  # three heroes in the building at most

    other = in_scenario(battle_of(duel), "skirmish", scenario_shards=2)
    sequence = play_to(sequence_of(other, reavers), 3, reavers.owner)
    assert task_of(sequence, "exploration").label == "Exploration: 3 dice (one won)"


def test_the_winner_of_hidden_treasure_opens_the_chest(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = in_scenario(battle_of(duel), "hidden_treasure")
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    chest_task = task_of(sequence, "treasure_chest")
    roll(sequence, task_of(sequence, "exploration"), [1, 2, 6], reavers.owner)
    with pytest.raises(RuleViolation, match="Roll for Hidden Treasure"):
        sequences.complete_step(sequence, actor=reavers.owner, step=3)

    # 3D6 6+6+5; shards 5, D3 6: 3; light armour 4; sword 2: none; gems 6, D3 3: 2
    summary = roll(sequence, chest_task, [6, 6, 5, 5, 6, 4, 2, 6, 3], reavers.owner).summary

    assert summary.endswith("The chest holds 17 gc, 3 wyrdstone, Light armour, 2 × Gem.")
    assert (pile(reavers).gold_crowns, pile(reavers).wyrdstone) == (17, 2 + 3)
    stored = pile(reavers).stored_items.order_by("name")
    assert [(s.name, s.item.key) for s in stored] == [
        ("Gem", "gem"), ("Gem", "gem"), ("Light armour", "light_armour"),
    ]  # fmt: skip
    notes = set(
        LedgerEntry.objects.filter(battle=battle, step=3, warband=reavers, reason="income")
        .exclude(note="exploration")
        .values_list("note", flat=True)
    )
    assert notes == {"scenario: Hidden Treasure chest"}
    assert not treasury.ledger_mismatches()
    sequences.complete_step(sequence, actor=reavers.owner, step=3)

    beaten = play_to(sequence_of(battle, scourge), 3, scourge.owner)
    sequences.prepare(beaten)
    assert not beaten.tasks.filter(kind="treasure_chest").exists()


def without_empty_containers(state):
    """``roster_state`` but its empty containers (the unstored pile stays, made on first use)."""
    return {**state, "containers": [c for c in state["containers"] if any(c[3:])]}


def test_undoing_step_3_takes_the_chest_back(duel):
    reavers = duel["reavers"]
    battle = in_scenario(battle_of(duel), "hidden_treasure")
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    before = (gold(reavers), roster_state(reavers))
    roll(sequence, task_of(sequence, "exploration"), [1, 2, 4], reavers.owner)
    roll(sequence, task_of(sequence, "treasure_chest"), [3, 3, 3, 1, 4, 3, 5, 1], reavers.owner)
    assert gold(reavers) == before[0] + 9
    sequences.complete_step(sequence, actor=reavers.owner, step=3)

    sequences.undo_last_step(sequence, actor=reavers.owner, step=3)

    assert gold(reavers) == before[0]
    assert without_empty_containers(roster_state(reavers)) == without_empty_containers(before[1])
    assert not treasury.ledger_mismatches()


def test_the_page_says_the_scenarios_income_and_lists_the_chest(duel, client):
    reavers = duel["reavers"]
    battle = in_scenario(battle_of(duel), "hidden_treasure")
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    client.force_login(reavers.owner)

    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()

    assert "Hidden Treasure has its own income: The winner opens the chest" in page
    assert "Hidden Treasure: the chest (3D6 gc, then a D6 for each find)" in page
