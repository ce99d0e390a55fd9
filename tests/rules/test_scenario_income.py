"""The scenarios' own income, entry by entry with scripted dice: the shards a scenario gives
(capped by its ``most_shards``) and Hidden Treasure's chest (rulebook scenario 7)."""

import pytest

from battles.rules import scenario_income as income
from battles.rules.scenarios import OTHER, scenario
from core.dice import DiceError, ScriptedDice

NOTHING = [1, 1, 1, 1]  # a D6 for each find, each below what it needs


def chest(*faces):
    dice = ScriptedDice(faces)
    opened = income.hidden_treasure_chest(dice)
    assert not dice.remaining  # every die typed was read, none more
    return opened


# --- The scenario's shards -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "entered", "expected"),
    [
        ("wyrdstone_hunt", 2, 2),
        ("wyrdstone_hunt", 4, 4),
        ("wyrdstone_hunt", 5, 4),  # D3+1 counters: four at most
        ("defend_the_find", 3, 3),
        ("defend_the_find", 4, 3),
        ("chance_encounter", 6, 6),
        ("chance_encounter", 7, 6),
        ("skirmish", 2, 0),  # no wyrdstone of its own
        ("hidden_treasure", 1, 0),  # its shards are in the chest
        ("wyrdstone_hunt", 0, 0),
    ],
)
def test_the_scenario_gives_the_shards_entered_up_to_its_most(key, entered, expected):
    assert income.scenario_shards(scenario(key), entered) == expected


def test_an_unlisted_scenario_gives_the_shards_entered_up_to_ten():
    assert income.scenario_shards(OTHER, 5) == 5
    assert income.scenario_shards(OTHER, 0) == 0
    assert income.scenario_shards(OTHER, 11) == 10


# --- Hidden Treasure's chest ---------------------------------------------------------------


def test_the_table_as_the_rulebook_prints_it():
    assert income.CHEST_GOLD_DICE == 3
    assert [(f.key, f.needed, f.d3) for f in income.CHEST] == [
        ("shards", 5, True),
        ("light_armour", 4, False),
        ("sword", 3, False),
        ("gem", 5, True),
    ]


def test_the_gold_is_always_found_even_when_nothing_else_is():
    opened = chest(1, 1, 1, *NOTHING)
    assert (opened.gold, opened.shards, opened.items) == (3, 0, [])
    assert opened.detail[0] == "3D6 1+1+1 = 3 gc"


def test_everything_found_on_sixes():
    opened = chest(6, 6, 6, 6, 6, 6, 6, 6, 6)  # gold, shards + D3, armour, sword, gems + D3
    assert (opened.gold, opened.shards) == (18, 3)
    assert opened.items == [("light_armour", "Light armour", 1), ("sword", "Sword", 1),
                            ("gem", "Gem", 3)]  # fmt: skip


@pytest.mark.parametrize(("face", "found"), [(4, False), (5, True), (6, True)])
def test_shards_on_a_five(face, found):
    faces = [2, 3, 4, face] + ([3] if found else []) + [1, 1, 1]
    opened = chest(*faces)
    assert opened.shards == (2 if found else 0)  # a D3 of 3 or 4 is 2


@pytest.mark.parametrize(("d6", "d3"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_the_d3_of_shards(d6, d3):
    assert chest(1, 1, 1, 5, d6, 1, 1, 1).shards == d3


@pytest.mark.parametrize(("face", "found"), [(3, False), (4, True), (6, True)])
def test_light_armour_on_a_four(face, found):
    opened = chest(1, 1, 1, 1, face, 1, 1)
    assert opened.items == ([("light_armour", "Light armour", 1)] if found else [])


@pytest.mark.parametrize(("face", "found"), [(2, False), (3, True), (6, True)])
def test_a_sword_on_a_three(face, found):
    opened = chest(1, 1, 1, 1, 1, face, 1)
    assert opened.items == ([("sword", "Sword", 1)] if found else [])


@pytest.mark.parametrize(("face", "d6", "gems"), [(4, None, 0), (5, 1, 1), (5, 4, 2), (6, 6, 3)])
def test_gems_on_a_five_d3_of_them(face, d6, gems):
    faces = [1, 1, 1, 1, 1, 1, face] + ([d6] if d6 else [])
    opened = chest(*faces)
    assert opened.items == ([("gem", "Gem", gems)] if gems else [])


def test_the_rolls_are_read_in_the_tables_order_and_said():
    opened = chest(2, 5, 6, 5, 2, 3, 3, 1)
    assert (opened.gold, opened.shards) == (13, 1)
    assert opened.items == [("sword", "Sword", 1)]
    assert opened.detail == [
        "3D6 2+5+6 = 13 gc",
        "wyrdstone (5+): 5, found 1",
        "light armour (4+): 3, none",
        "a sword (3+): 3, found",
        "gems worth 10 gc each (5+): 1, none",
    ]


def test_dice_short_of_the_chest_are_refused():
    with pytest.raises(DiceError):
        income.hidden_treasure_chest(ScriptedDice([3, 3, 3, 6]))
