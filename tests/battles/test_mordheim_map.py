"""The Mordheim map: its D6 is rolled when it is bought in step 6 (typed after the price dice,
logged) and gives re-rolls at the next exploration (Vague 1, Accurate 3) or for good while a
hero carrying it explores (Master map); Fake and Catacomb map tell the players who chooses
the next scenario."""

import pytest

from battles import aftermath as sequences
from battles.aftermath import forms as step_forms
from battles.dice import dice_for
from battles.models import DiceRoll
from battles.rules.mordheim_map import map_roll
from core.dice import DiceError
from tests.helpers import act, at_step, roll, task_of, warriors
from warbands.models import Warband

pytestmark = pytest.mark.django_db


def bought_map(duel, faces):
    """Captain Adler rolls 9 for rarity and buys a Mordheim map (20 + 4D6) to carry."""
    captain, _, _ = warriors(duel["reavers"])
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior=captain)
    roll(sequence, task, [5, 4], owner)
    return act(sequence, "buy_rare", owner, faces, task=task.pk, goods="item:mordheim_map",
               to=f"warrior:{captain.pk}")  # fmt: skip


@pytest.mark.parametrize(
    ("face", "name", "rerolls", "master"),
    [(1, "Fake", 0, False), (2, "Vague", 1, False), (3, "Vague", 1, False),
     (4, "Catacomb map", 0, False), (5, "Accurate", 3, False), (6, "Master map", 0, True)],
)  # fmt: skip
def test_the_maps_d6(face, name, rerolls, master):
    found = map_roll(face)
    assert (found.name, found.rerolls, found.master) == (name, rerolls, master)
    assert bool(found.told) == (face in (1, 4))


def test_a_map_bought_rolls_its_d6_and_an_accurate_one_gives_three_rerolls(duel):
    said = bought_map(duel, [1, 1, 1, 1, 5])

    assert "Mordheim map for 24 gc" in said and "is Accurate" in said
    reavers = Warband.objects.get(pk=duel["reavers"].pk)
    assert (reavers.map_rerolls, reavers.master_map) == (3, False)


def test_the_maps_d6_is_typed_after_the_price_dice_and_logged(duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior=captain)
    roll(sequence, task, [5, 4], owner)
    battle = sequence.participant.battle
    values = step_forms.clean_action(6, "buy_rare", {
        "task": task.pk, "goods": "item:mordheim_map", "to": f"warrior:{captain.pk}",
    }, warband=reavers)  # fmt: skip
    with pytest.raises(DiceError, match="needs 5 dice"):
        sequences.act(sequence, actor=owner, step=6, action="buy_rare", values=values,
                      dice=dice_for(battle, entered="1 1 1 1"))  # fmt: skip

    sequences.act(sequence, actor=owner, step=6, action="buy_rare", values=values,
                  dice=dice_for(battle, entered="1 1 1 1 2", warband=reavers))  # fmt: skip

    logged = DiceRoll.objects.get(battle=battle, purpose__contains="what it is")
    assert logged.faces == [2] and logged.source == "entered"
    assert Warband.objects.get(pk=reavers.pk).map_rerolls == 1  # Vague


def test_a_fake_map_tells_who_chooses_the_next_scenario(duel):
    said = bought_map(duel, [1, 1, 1, 1, 1])
    assert "opponent may choose the next scenario" in said
    reavers = Warband.objects.get(pk=duel["reavers"].pk)
    assert (reavers.map_rerolls, reavers.master_map) == (0, False)


def test_a_vague_maps_reroll_is_offered_at_the_next_exploration_only(duel):
    Warband.objects.filter(pk=duel["reavers"].pk).update(map_rerolls=1)
    sequence, owner = at_step(duel, 3)
    task = task_of(sequence, "exploration")

    roll(sequence, task, [1, 2, 3], owner)
    task.refresh_from_db()
    assert "Mordheim map (1 of 1)" in task.question["text"]
    roll(sequence, task, [6], owner, answers={"reroll_0": "0"})
    task.refresh_from_db()
    assert task.result["faces"] == [6, 2, 3]
    assert Warband.objects.get(pk=duel["reavers"].pk).map_rerolls == 0


def test_a_master_map_rerolls_while_its_carrier_explores(duel):
    captain, _, _ = warriors(duel["reavers"])
    bought_map(duel, [1, 1, 1, 1, 6])
    assert Warband.objects.get(pk=duel["reavers"].pk).master_map
    sequence, owner = at_step(duel, 3)  # the next battle: the captain stands
    task = task_of(sequence, "exploration")

    roll(sequence, task, [1, 2, 3], owner)
    task.refresh_from_db()
    assert f"Master map ({captain.name})" in task.question["text"]
