"""Exploration, the wyrdstone price table and rarity, entry by entry against FACTS.md sections
4 to 6, with scripted dice."""

import pytest

from battles.rules import exploration as rules
from battles.rules.tasks import NeedsAnswer
from core.dice import DiceError, ScriptedDice
from warbands.rules.families import counted_family


def dice(*faces):
    return ScriptedDice(faces)


# --- The dice and the shards ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("heroes", "won", "extra", "expected"),
    [(0, False, 0, 0), (3, False, 0, 3), (3, True, 0, 4), (2, True, 1, 4), (6, True, 0, 7)],
)
def test_one_die_per_hero_standing_one_more_for_winning(heroes, won, extra, expected):
    assert rules.exploration_dice(heroes_standing=heroes, won=won, extra=extra) == expected


def test_six_dice_are_kept_as_they_fall():
    result = rules.explore(
        dice(1, 2, 3, 4, 5, 6), rules.ExplorationSetup(heroes_standing=5, won=True)
    )
    assert result.faces == [1, 2, 3, 4, 5, 6]


def test_seven_dice_or_more_are_all_rolled_and_the_player_keeps_the_six_he_chooses():
    """FACTS.md section 4, keep at most six: every die is rolled, and the player sets aside
    the dice he does not keep, one question each, after the roll."""
    setup = rules.ExplorationSetup(heroes_standing=7, won=True)  # eight dice
    faces = (6, 6, 1, 2, 6, 3, 4, 5)
    with pytest.raises(NeedsAnswer) as asked:
        rules.explore(dice(*faces), setup)
    question = asked.value.question
    assert question.key == "set_aside_0" and len(question.options) == 8
    assert question.options[2] == ("2", "die 3 (showing 1)")
    with pytest.raises(NeedsAnswer) as asked:
        rules.explore(dice(*faces), setup, {"set_aside_0": "2"})
    assert asked.value.question.key == "set_aside_1" and len(asked.value.question.options) == 7

    # He sets aside the 1, then the 2, and keeps three sixes: Returning a Favour.
    result = rules.explore(dice(*faces), setup, {"set_aside_0": "2", "set_aside_1": "2"})
    assert result.faces == [6, 6, 6, 3, 4, 5]
    assert (result.shards, result.location) == (5, "Returning a Favour")
    assert result.detail == ["8 dice rolled, six kept: set aside 1, 2"]

    # Another player keeps the low dice: his choice, not the best total.
    result = rules.explore(dice(*faces), setup, {"set_aside_0": "0", "set_aside_1": "0"})
    assert result.faces == [1, 2, 6, 3, 4, 5] and result.multiple is None


def test_the_stragglers_die_comes_on_top_of_seven_and_six_are_still_kept():
    setup = rules.ExplorationSetup(heroes_standing=6, won=True, straggler=True)
    faces = (1, 2, 3, 4, 5, 6, 2, 6)  # seven dice, then the Straggler's
    with pytest.raises(NeedsAnswer) as asked:
        rules.explore(dice(*faces), setup, {"discard": "0"})
    assert asked.value.question.key == "set_aside_0"
    result = rules.explore(dice(*faces), setup, {"discard": "0", "set_aside_0": "0"})
    assert result.faces == [3, 4, 5, 6, 2, 6]


# FACTS.md section 4: the shard table, at both edges of every band.
@pytest.mark.parametrize(
    ("total", "shards"),
    [
        (1, 1), (5, 1), (6, 2), (11, 2), (12, 3), (17, 3), (18, 4), (24, 4),
        (25, 5), (30, 5), (31, 6), (35, 6), (36, 7),
    ],
)  # fmt: skip
def test_shards_by_total(total, shards):
    assert rules.shards_for(total) == shards


@pytest.mark.parametrize(("faces", "shards"), [((3, 3, 5), 3), ((1,), 2), ((6, 6, 6), 5)])
def test_incomparable_miners_find_one_more_shard(faces, shards):
    """Dwarf Treasure Hunters and Dwarf Rangers, Incomparable Miners: +1 to the pieces found
    (3 + 3 + 5 = 11 finds two by the chart, three for Dwarfs)."""
    setup = rules.ExplorationSetup(heroes_standing=len(faces), shard_bonus=1)
    found = rules.explore(dice(*faces), setup, {})
    assert found.shards == shards
    assert "Incomparable Miners: 1 more shard" in found.detail


def test_incomparable_miners_find_nothing_without_a_search():
    setup = rules.ExplorationSetup(heroes_standing=0, shard_bonus=1)
    assert rules.explore(dice(), setup, {}).shards == 0


def test_no_dice_find_nothing():
    result = rules.explore(dice(), rules.ExplorationSetup(heroes_standing=0))
    assert (result.faces, result.shards, result.multiple) == ([], 0, None)


@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        ([1, 2, 3], None),
        ([3, 3, 5], (3, 2)),
        ([1, 1, 3, 3], (3, 2)),  # two doubles: the higher
        ([6, 6, 2, 2, 2], (2, 3)),  # a triple beats a double, even of sixes
        ([4, 4, 4, 5, 5, 5], (5, 3)),  # two triples: the higher
        ([2, 2, 2, 2, 6, 6], (2, 4)),
        ([5, 5, 5, 5, 5], (5, 5)),
        ([6, 6, 6, 6, 6, 6], (6, 6)),
    ],
)
def test_the_largest_set_wins_and_ties_go_to_the_higher_number(faces, expected):
    assert rules.multiple(faces) == expected


def test_a_roll_reads_shards_and_location():
    result = rules.explore(dice(3, 3, 5), rules.ExplorationSetup(heroes_standing=2, won=True))
    assert (result.shards, result.multiple, result.location) == (2, (3, 2), "Corpse")


def test_the_augur_rolls_two_and_the_player_keeps_one():
    setup = rules.ExplorationSetup(heroes_standing=2, augur=True)
    with pytest.raises(NeedsAnswer) as asked:
        rules.explore(dice(2, 6, 4), setup)
    assert asked.value.question.key == "augur"
    result = rules.explore(dice(2, 6, 4), setup, {"augur": "1"})
    assert result.faces == [6, 4]


def test_the_straggler_adds_a_die_and_one_is_discarded():
    setup = rules.ExplorationSetup(heroes_standing=2, straggler=True)
    with pytest.raises(NeedsAnswer):
        rules.explore(dice(1, 5, 6), setup)
    result = rules.explore(dice(1, 5, 6), setup, {"discard": "0"})
    assert result.faces == [5, 6]
    assert "discarded 1" in result.detail[0]


def test_each_re_roll_changes_one_die_and_the_second_result_stands():
    setup = rules.ExplorationSetup(
        heroes_standing=2, rerolls=("Wyrdstone Hunter (Karl)", "Entrance to the catacombs")
    )
    with pytest.raises(NeedsAnswer) as asked:
        rules.explore(dice(1, 4), setup)
    assert "Wyrdstone Hunter" in asked.value.question.text
    result = rules.explore(dice(1, 4, 2), setup, {"reroll_0": "0", "reroll_1": "none"})
    assert result.faces == [2, 4]  # the re-rolled 2 stands even though it is low
    result = rules.explore(dice(1, 4, 4, 4), setup, {"reroll_0": "0", "reroll_1": "0"})
    assert result.faces == [4, 4] and result.location == "Straggler"


# --- Wyrdstone prices (FACTS.md section 5), every cell -------------------------------------

PRICES = {
    1: (45, 40, 35, 30, 30, 25),
    2: (60, 55, 50, 45, 40, 35),
    3: (75, 70, 65, 60, 55, 50),
    4: (90, 80, 70, 65, 60, 55),
    5: (110, 100, 90, 80, 70, 65),
    6: (120, 110, 100, 90, 80, 70),
    7: (145, 130, 120, 110, 100, 90),
    8: (155, 140, 130, 120, 110, 100),
}
BANDS = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 40))


@pytest.mark.parametrize("shards", range(1, 9))
@pytest.mark.parametrize("band", range(6))
def test_wyrdstone_price_every_cell_at_both_edges(shards, band):
    low, high = BANDS[band]
    assert rules.wyrdstone_price(shards, low) == PRICES[shards][band]
    assert rules.wyrdstone_price(shards, high) == PRICES[shards][band]


def test_more_than_eight_shards_use_the_eight_row_and_none_sell_for_nothing():
    assert rules.wyrdstone_price(12, 5) == 140
    assert rules.wyrdstone_price(0, 5) == 0


# --- Rarity and prices (FACTS.md section 6) ------------------------------------------------


@pytest.mark.parametrize(
    ("streetwise", "bonus", "gems", "expected"),
    [(False, 0, False, 0), (True, 0, False, 2), (False, 1, False, 1), (False, 0, True, 1),
     (True, 1, True, 4)],
)  # fmt: skip
def test_rarity_modifiers(streetwise, bonus, gems, expected):
    assert (
        rules.rarity_modifier(streetwise=streetwise, warband_bonus=bonus, kept_gems=gems)
        == expected
    )


@pytest.mark.parametrize(
    ("price_dice", "faces", "expected"),
    [("", (), 15), ("D6", (4,), 19), ("2D6", (3, 5), 23), ("3D6", (1, 2, 3), 21),
     ("D6x10", (4,), 55), ("D6x25", (2,), 65)],
)  # fmt: skip
def test_variable_prices_add_their_dice(price_dice, faces, expected):
    assert rules.variable_price(dice(*faces), 15, price_dice, "relic") == expected


# --- The special locations, each with scripted dice ----------------------------------------

KARL = rules.Hero(1, "Karl", T=3, Ld=8)
OTTO = rules.Hero(2, "Otto", T=4, Ld=6)
MERCENARIES = rules.LocationContext(family="Mercenaries", heroes=(KARL, OTTO), leader=KARL)


def at(face, count, *faces, context=MERCENARIES, answers=None, family=None):
    if family is not None:
        context = rules.LocationContext(
            family=family, heroes=context.heroes, leader=context.leader,
            prisoner_groups=context.prisoner_groups,
        )  # fmt: skip
    scripted = dice(*faces)
    find = rules.resolve_location(scripted, face, count, context=context, answers=answers)
    assert not scripted.remaining, "every scripted die is used"
    return find


def test_every_multiple_names_its_location():
    names = {
        (face, count): rules.location(face, count) for face in range(1, 7) for count in range(2, 7)
    }
    assert len(set(names.values())) == 30
    assert names[(1, 2)] == "Well" and names[(6, 6)] == "Noble's Villa"
    assert (
        rules.location(4, 3) == "Fletcher" and rules.location(6, 5) == "Entrance to the Catacombs"
    )


def test_well_asks_for_a_hero_who_tests_toughness():
    with pytest.raises(NeedsAnswer):
        at(1, 2)
    assert at(1, 2, 4, answers={"hero": "2"}).shards == 1  # 4 ≤ T4
    find = at(1, 2, 4, answers={"hero": "1"})  # 4 > T3
    assert (find.shards, find.miss_game) == (0, [1])


def test_shop_gives_a_lucky_charm_on_a_one():
    assert (at(2, 2, 4).gold, at(2, 2, 4).items) == (4, [])
    find = at(2, 2, 1)
    assert (find.gold, find.items) == (1, [("lucky_charm", "Lucky charm", 1)])


@pytest.mark.parametrize(
    ("faces", "gold", "item"),
    [((1, 5), 5, None), ((2, 3), 3, None), ((3,), 0, "dagger"), ((4,), 0, "axe"),
     ((5,), 0, "sword"), ((6,), 0, "light_armour")],
)  # fmt: skip
def test_corpse(faces, gold, item):
    find = at(3, 2, *faces)
    assert find.gold == gold
    assert [key for key, _, _ in find.items] == ([item] if item else [])


def test_straggler_by_warband():
    assert at(4, 2, 3, 4, family="Skaven").gold == 7
    assert at(4, 2, family="Cult of the Possessed").experience == {1: 1}
    carnival = counted_family("Carnival of Chaos", [{"effect": "counts_as_possessed"}])
    assert at(4, 2, family=carnival).experience == {1: 1}  # it counts as the Possessed
    assert at(4, 2, family="Undead").zombies == 1
    assert at(4, 2).straggler is True


@pytest.mark.parametrize(
    ("faces", "gold", "items"),
    [
        ((1,), 0, ["mordheim_map"]),
        ((3, 2, 6), 8, []),
        ((5,), 0, ["jewelled_sword", "jewelled_dagger"]),
    ],
)
def test_overturned_cart(faces, gold, items):
    find = at(5, 2, *faces)
    assert find.gold == gold and [k for k, _, _ in find.items] == items


def test_ruined_hovels_and_market_hall_and_townhouse_and_moneylender():
    assert at(6, 2, 5).gold == 5
    assert at(5, 3, 6, 6).gold == 12
    assert at(3, 4, 1, 2, 3).gold == 6
    assert at(1, 5, 4).gold == 40


def test_tavern_leadership_test_and_automatic_passes():
    assert at(1, 3, 4, 4, 1, 2, 3, 4).gold == 10  # Ld test 8 ≤ 8: 4D6
    assert at(1, 3, 5, 4, 6).gold == 6  # 9 > 8: D6
    assert at(1, 3, 1, 1, 1, 1, family="Undead").gold == 4  # no test
    assert at(1, 3, 6, 6, 6, 6, family="Sisters of Sigmar").gold == 24
    nobody = rules.LocationContext(family="Mercenaries")
    assert at(1, 3, 3, context=nobody).gold == 3  # no leader: failed


@pytest.mark.parametrize(
    ("faces", "gold", "item", "count"),
    [((1,), 0, "sword", 1), ((2,), 0, "double_handed_weapon", 1), ((3,), 0, "flail", 1),
     ((4, 5), 0, "halberd", 3), ((5,), 0, "lance", 1), ((6, 2, 3), 5, None, 0)],
)  # fmt: skip
def test_smithy(faces, gold, item, count):
    find = at(2, 3, *faces)
    assert find.gold == gold
    assert find.items == ([(item, find.items[0][1], count)] if item else [])


def test_prisoners_by_warband():
    with pytest.raises(NeedsAnswer):
        at(3, 3, 5, family="Cult of the Possessed")
    find = at(3, 3, 5, family="Cult of the Possessed",
              answers={"xp_1": "1", "xp_2": "2", "xp_3": "2"})  # fmt: skip
    assert find.experience == {1: 1, 2: 2}
    assert at(3, 3, 3, family="Undead").zombies == 2
    assert at(3, 3, 1, 2, 3, family="Skaven").gold == 6
    assert at(3, 3, 4, 5).gold == 9 and at(3, 3, 4, 5).prisoner_joins is None  # no human group
    groups = rules.LocationContext(
        family="Mercenaries", heroes=(KARL,), prisoner_groups=((7, "Guards"),)
    )
    with pytest.raises(NeedsAnswer):
        at(3, 3, 4, 5, context=groups)
    assert at(3, 3, 4, 5, context=groups, answers={"group": "7"}).prisoner_joins == 7
    assert at(3, 3, 4, 5, context=groups, answers={"group": "none"}).prisoner_joins is None


@pytest.mark.parametrize(
    ("faces", "item", "count"),
    [((1, 6), "short_bow", 3), ((2, 1), "short_bow", 1), ((3, 3), "bow", 2),
     ((4, 2), "long_bow", 1), ((5,), "hunting_arrows", 1), ((6, 6), "crossbow", 3)],
)  # fmt: skip
def test_fletcher(faces, item, count):
    assert [(k, n) for k, _, n in at(4, 3, *faces).items] == [(item, count)]


def test_returning_a_favour_brings_a_free_hired_sword():
    assert at(6, 3).free_hired_sword is True


@pytest.mark.parametrize(
    ("faces", "item", "count"),
    [((1,), "blunderbuss", 1), ((2,), "brace_of_pistols", 1),
     ((3,), "brace_of_duelling_pistols", 1), ((4, 3), "handgun", 2),
     ((5, 5), "superior_blackpowder", 3), ((6,), "hochland_long_rifle", 1)],
)  # fmt: skip
def test_gunsmith(faces, item, count):
    assert [(k, n) for k, _, n in at(1, 4, *faces).items] == [(item, count)]


def test_shrine_blesses_a_weapon_only_for_the_pious():
    assert at(2, 4, 1, 2, 3).gold == 6 and not at(2, 4, 1, 2, 3).notes
    pious = at(2, 4, 1, 2, 3, family="Witch Hunters")
    assert pious.gold == 6 and "blessed" in pious.notes[0]


@pytest.mark.parametrize(
    ("faces", "item", "count"),
    [((3, 3), "helmet", 2), ((4, 4), "light_armour", 2), ((5, 2), "heavy_armour", 1),
     ((6,), "ithilmar_armour", 1)],
)  # fmt: skip
def test_armourer(faces, item, count):
    assert [(k, n) for k, _, n in at(4, 4, *faces).items] == [(item, count)]


@pytest.mark.parametrize(
    ("faces", "choice", "item", "count"),
    [((1, 1), "shield", "shield", 1), ((2, 6), "buckler", "buckler", 3),
     ((1, 4), "buckler", "buckler", 2)],
)  # fmt: skip
def test_the_armourers_one_or_two_gives_shields_or_bucklers_as_the_player_chooses(
    faces, choice, item, count
):
    with pytest.raises(NeedsAnswer) as asked:
        at(4, 4, *faces)
    assert asked.value.question.key == "shields_or_bucklers"
    assert [option for option, _ in asked.value.question.options] == ["shield", "buckler"]
    found = at(4, 4, *faces, answers={"shields_or_bucklers": choice})
    assert [(k, n) for k, _, n in found.items] == [(item, count)]


def test_graveyard():
    find = at(5, 4, 3)
    assert find.gold == 30 and "hates" in find.notes[0]
    pious = at(5, 4, 2, family="Sisters of Sigmar", answers={"xp_1": "1", "xp_2": "1"})
    assert (pious.gold, pious.experience) == (0, {1: 2})


def test_catacombs_is_a_note_for_the_next_battle():
    find = at(6, 4)
    assert find.notes and "deploy" in find.notes[0]


def test_alchemists_laboratory_opens_academic_skills():
    with pytest.raises(NeedsAnswer):
        at(2, 5, 1, 1, 1)
    find = at(2, 5, 1, 1, 1, answers={"hero": "2"})
    assert (find.gold, find.academic_skills) == (3, 2)


@pytest.mark.parametrize(
    ("faces", "value"),
    [((1, 4), 20), ((2, 6), 30), ((3,), 20), ((4,), 20), ((5,), 50), ((6, 2), 30)],
)
def test_jewelsmith_gems_are_sold_or_kept(faces, value):
    sold = at(3, 5, *faces, answers={"keeper": "none"})
    assert (sold.gold, sold.kept_gems) == (value, None)
    kept = at(3, 5, *faces, answers={"keeper": "2"})
    assert (kept.gold, kept.kept_gems) == (0, 2)


def test_merchants_house_double_gives_the_freetraders_symbol():
    assert at(4, 5, 2, 5).gold == 35
    find = at(4, 5, 3, 3, answers={"bearer": str(KARL.id)})
    assert (find.gold, find.items, find.symbol_bearer) == (0, [], KARL.id)
    nobody = rules.LocationContext(family="Mercenaries")
    assert at(4, 5, 3, 3, context=nobody).items[0][0] == "freetraders_symbol"


def test_shattered_building_shards_and_a_wardog_on_a_passed_test():
    find = at(5, 5, 6, 4, 4)  # D3=3, Ld test 8 ≤ 8
    assert (find.shards, find.wardog_for_leader) == (3, True)
    assert at(5, 5, 1, 6, 6).wardog_for_leader is False


def test_entrance_to_the_catacombs_once_only():
    assert at(6, 5).catacombs_reroll is True
    known = rules.LocationContext(family="Mercenaries", has_catacombs_reroll=True)
    find = at(6, 5, context=known)
    assert find.catacombs_reroll is False and find.notes


def test_the_pit():
    assert at(1, 6, answers={"hero": "none"}).shards == 0
    assert at(1, 6, 1, answers={"hero": "1"}).hero_lost == 1
    find = at(1, 6, 2, 5, answers={"hero": "1"})
    assert (find.hero_lost, find.shards) == (None, 6)


def test_hidden_treasure_rolls_for_each_other_item():
    nothing = at(2, 6, 1, 1, 1, 1, 1, 3, 4, 3, 3, 4, 3, 4)
    assert nothing.gold == 25 and nothing.items == [] and nothing.shards == 0
    everything = at(2, 6, 6, 6, 6, 6, 6, 4, 6, 5, 5, 4, 2, 5, 5, 5, 3)
    assert everything.gold == 150
    assert everything.shards == 3
    assert [k for k, _, _ in everything.items] == [
        "holy_relic", "heavy_armour", "gem", "elven_cloak", "holy_tome", "attlas_plate_mail",
    ]  # fmt: skip
    assert everything.items[2][2] == 1


def test_an_artefact_already_owned_is_rolled_again():
    owned = rules.LocationContext(
        family="Mercenaries", owned_artefacts=frozenset({"bow_of_seeking"})
    )
    find = at(6, 6, 5, 4, 1, context=owned)  # villa: artefact; 4 is owned, roll again: 1
    assert [k for k, _, _ in find.items] == ["boots_rope_of_pieter"]
    every = frozenset(key for key, _ in rules.MAGICAL_ARTEFACTS)
    none_left = at(6, 6, 6, context=rules.LocationContext(owned_artefacts=every))
    assert none_left.items == [] and none_left.notes


@pytest.mark.parametrize(
    ("faces", "name", "count"),
    [((1, 3), "Double-handed axe", 2), ((2, 1), "Heavy armour", 1), ((3,), "Gromril axe", 1),
     ((4,), "Gromril hammer", 1), ((5,), "Gromril double-handed axe", 1),
     ((6,), "Gromril armour", 1)],
)  # fmt: skip
def test_dwarf_smithy(faces, name, count):
    assert [(n, c) for _, n, c in at(3, 6, *faces).items] == [(name, count)]


def test_slaughtered_warband():
    # 3D6 purses, D6 daggers, then each item's roll and, when found in numbers, its D3.
    find = at(4, 6, 2, 2, 2, 3, 4, 6, 5, 4, 5, 4, 3, 1, 1, 4, 2, 1)
    assert find.gold == 30
    assert [(k, n) for k, _, n in find.items] == [
        ("dagger", 3), ("light_armour", 3), ("heavy_armour", 1), ("mordheim_map", 1),
        ("halberd", 2), ("sword", 1), ("bow", 1),
    ]  # fmt: skip
    assert (
        find.notes == at(5, 2, 1).notes == ["Roll for the Mordheim map's effect as its rules say."]
    )
    assert at(4, 6, 1, 1, 1, 1, 1, 3, 1, 3, 1, 1, 1, 1).notes == []  # no map, no roll for it


def test_fighting_arena_and_nobles_villa():
    assert at(5, 6, answers={"reader": "none"}).items[0][0] == "training_manual"
    assert at(6, 6, 2, 3).gold == 30
    assert at(6, 6, 4, 5).items == [("crimson_shade", "Crimson shade", 5)]
    assert at(6, 6, 6, 2).items[0][0] == "count_of_ventimiglias_misericordia"


def test_a_location_needs_its_dice():
    with pytest.raises(DiceError):
        rules.resolve_location(dice(), 2, 2, context=MERCENARIES)
