"""Storage containers against mim-carried-items-and-storage-containers.txt, row by row."""

import pytest

from core.errors import RuleViolation
from warbands.rules import containers as rules
from warbands.rules.containers import Capacity, Contents

# (kind, GC, Wyrdstone, Stored Items, Price, Rarity): the text's charts.
CATALOGUE = [
    ("backpack", 25, 3, 1, 4, None),
    ("large_sack", 50, 10, 5, 2, None),
    ("pouch", 6, 1, 0, 2, None),
    ("saddle_bags", 25, 5, 2, 5, 6),
    ("treasure_chest", 100, 20, 10, 10, None),
    ("pack_mule", 0, 0, 0, 20, 7),
    ("pack_horse", 0, 0, 0, 40, 8),
    ("cart_mule", 500, 100, 50, 60, 7),  # open holding: our five-chest reading
    ("cart_horse", 500, 100, 50, 80, 8),
    ("opulent_coach", 0, 0, 0, 250, 10),
    ("warmount", 0, 0, 0, None, None),
]


@pytest.mark.parametrize(("kind", "gold", "wyrdstone", "items", "price", "rarity"), CATALOGUE)
def test_catalogue_row(kind, gold, wyrdstone, items, price, rarity):
    spec = rules.spec(kind)

    assert spec.capacity == Capacity(gold, wyrdstone, items)
    assert (spec.price, spec.rarity) == (price, rarity)


def test_the_catalogue_has_exactly_the_texts_containers():
    assert set(rules.CATALOGUE) == {row[0] for row in CATALOGUE}


@pytest.mark.parametrize(
    ("contents", "heavy"),
    [
        (Contents(49, 9, 4), False),
        (Contents(50, 0, 0), True),
        (Contents(0, 10, 0), True),
        (Contents(0, 0, 5), True),
        (Contents(0, 9, 0), False),
        (Contents(0, 0, 4), False),
    ],
)
def test_heavy_thresholds(contents, heavy):
    assert rules.is_heavy("treasure_chest", contents) is heavy


def test_a_full_large_sack_is_heavy_and_a_full_backpack_is_not():
    assert rules.is_heavy("large_sack", Contents(50, 10, 5))
    assert not rules.is_heavy("backpack", Contents(25, 3, 1))


@pytest.mark.parametrize("kind", ["pouch", "cart_mule", "opulent_coach", "pack_mule", "warmount"])
def test_only_carried_storage_containers_can_be_heavy(kind):
    assert not rules.is_heavy(kind, Contents(500, 100, 50))


def test_each_category_has_its_own_maximum():
    rules.check_contents("treasure_chest", Contents(100, 20, 10))


@pytest.mark.parametrize(
    ("kind", "contents", "reason"),
    [
        ("treasure_chest", Contents(101, 0, 0), "Only 100 gc fit"),
        ("treasure_chest", Contents(0, 21, 0), "Only 20 wyrdstone fit"),
        ("treasure_chest", Contents(0, 0, 11), "Only 10 stored items fit"),
        ("backpack", Contents(26, 0, 0), "Only 25 gc fit"),
        ("backpack", Contents(0, 0, 2), "Only 1 stored items fit"),
        ("large_sack", Contents(0, 11, 0), "Only 10 wyrdstone fit"),
        ("saddle_bags", Contents(0, 0, 3), "Only 2 stored items fit"),
        ("pouch", Contents(7, 0, 0), "Only 6 gc fit"),
        ("pouch", Contents(0, 2, 0), "Only 1 wyrdstone fit"),
        ("pouch", Contents(0, 0, 1), "Only 0 stored items fit"),
        ("pouch", Contents(6, 1, 0), "not both"),
        ("pouch", Contents(1, 1, 0), "not both"),
        ("opulent_coach", Contents(1, 0, 0), "Only 0 gc fit"),
        ("pack_mule", Contents(0, 1, 0), "Only 0 wyrdstone fit"),
        ("treasure_chest", Contents(-1, 0, 0), "does not have that many"),
    ],
)
def test_contents_over_a_maximum_are_refused(kind, contents, reason):
    with pytest.raises(RuleViolation, match=reason):
        rules.check_contents(kind, contents)


def test_a_pouch_holds_six_gold_or_one_shard():
    rules.check_contents("pouch", Contents(6, 0, 0))
    rules.check_contents("pouch", Contents(0, 1, 0))


# --- Carriers --------------------------------------------------------------------------------


def test_a_pack_animal_carries_two_chests_and_four_sacks_at_once():
    siblings: list[str] = []
    for kind in ["treasure_chest", "treasure_chest", *["large_sack"] * 4]:
        rules.check_placement(kind, "pack_mule", siblings)
        siblings.append(kind)

    with pytest.raises(RuleViolation, match="at most 2 Treasure Chest"):
        rules.check_placement("treasure_chest", "pack_mule", siblings)
    with pytest.raises(RuleViolation, match="at most 4 Large Sack"):
        rules.check_placement("large_sack", "pack_horse", siblings)


@pytest.mark.parametrize("kind", ["backpack", "saddle_bags", "pouch", "cart_mule"])
def test_a_pack_animal_carries_nothing_else(kind):
    with pytest.raises(RuleViolation, match="carries only Treasure Chest and Large Sack"):
        rules.check_placement(kind, "pack_horse", [])


@pytest.mark.parametrize(
    ("kind", "fits"),
    [("treasure_chest", 5), ("large_sack", 10), ("backpack", 20), ("saddle_bags", 20)],
)
def test_a_cart_holds_five_chests_ten_sacks_or_twenty_backpacks(kind, fits):
    siblings = [kind] * fits
    rules.check_placement(kind, "cart_horse", siblings[:-1])

    with pytest.raises(RuleViolation, match="no room"):
        rules.check_placement(kind, "cart_horse", siblings)


def test_a_cart_mixes_loads_by_space():
    # 3 chests (12 units) + 4 sacks (8 units) = 20: full.
    siblings = ["treasure_chest"] * 3 + ["large_sack"] * 3
    rules.check_placement("large_sack", "cart_mule", siblings)

    with pytest.raises(RuleViolation, match="no room"):
        rules.check_placement("backpack", "cart_mule", [*siblings, "large_sack"])


@pytest.mark.parametrize(
    ("kind", "fits"), [("treasure_chest", 2), ("large_sack", 4), ("backpack", 8)]
)
def test_the_coach_roof_holds_two_chests_four_sacks_or_eight_backpacks(kind, fits):
    siblings = [kind] * fits
    rules.check_placement(kind, "opulent_coach", siblings[:-1])

    with pytest.raises(RuleViolation, match=r"no room .* roof"):
        rules.check_placement(kind, "opulent_coach", siblings)


def test_a_warmount_carries_one_set_of_saddle_bags():
    rules.check_placement("saddle_bags", "warmount", [])

    with pytest.raises(RuleViolation, match="at most 1 Saddle Bags"):
        rules.check_placement("saddle_bags", "warmount", ["saddle_bags"])
    with pytest.raises(RuleViolation, match="carries only Saddle Bags"):
        rules.check_placement("backpack", "warmount", [])


@pytest.mark.parametrize("carrier", ["treasure_chest", "large_sack", "backpack", "pouch"])
def test_containers_do_not_hold_containers(carrier):
    with pytest.raises(RuleViolation, match="Nothing can be put"):
        rules.check_placement("backpack", carrier, [])


def test_carts_do_not_go_into_carts_or_onto_coaches():
    with pytest.raises(RuleViolation, match="cannot go in"):
        rules.check_placement("cart_mule", "cart_horse", [])
    with pytest.raises(RuleViolation, match="cannot go in"):
        rules.check_placement("pack_mule", "opulent_coach", [])


def test_a_carts_open_capacity_shrinks_by_each_containers_maxima():
    assert rules.open_capacity("cart_mule") == Capacity(500, 100, 50)
    assert rules.open_capacity("cart_mule", ["treasure_chest"]) == Capacity(400, 80, 40)
    assert rules.open_capacity("cart_mule", ["large_sack", "backpack"]) == Capacity(425, 87, 44)
    assert rules.open_capacity("cart_mule", ["treasure_chest"] * 5) == Capacity(0, 0, 0)
    assert rules.open_capacity("cart_mule", ["backpack"] * 20) == Capacity(0, 40, 30)


def test_a_container_does_not_fit_a_cart_whose_open_treasure_would_overflow():
    open_treasure = Contents(450, 0, 0)

    rules.check_placement("backpack", "cart_mule", [], open_treasure)  # 475 gc left openly
    with pytest.raises(RuleViolation, match="Only 400 gc fit openly in the Cart"):
        rules.check_placement("treasure_chest", "cart_mule", [], open_treasure)


def test_the_coach_holds_no_treasure_openly():
    assert rules.open_capacity("opulent_coach", ["treasure_chest"]) == Capacity(0, 0, 0)


@pytest.mark.parametrize("kind", ["pack_mule", "cart_mule", "cart_horse", "opulent_coach"])
def test_carts_mules_and_the_coach_are_not_heavy_with_a_heavy_load(kind):
    """The cart moves normally with heavy containers, the coach is a cart and the mule's
    movement is not halved: a heavy load does not make any of them heavy."""
    assert not rules.carrier_is_heavy(kind, load_is_heavy=True)


def test_a_pack_horse_with_a_heavy_load_is_heavy():
    assert rules.carrier_is_heavy("pack_horse", load_is_heavy=True)
    assert not rules.carrier_is_heavy("pack_horse", load_is_heavy=False)
