"""A capacity refusal says where the treasure would fit, or what works when nothing has room
(``warbands.treasury.room``): room in another container, no room anywhere, wyrdstone too."""

import pytest

from tests.helpers import container, refused
from warbands import treasury
from warbands.models import LedgerEntry, StorageContainer
from warbands.treasury import room

pytestmark = pytest.mark.django_db
Reason = LedgerEntry.Reason


def sacks(warband) -> list[StorageContainer]:
    return list(warband.containers.filter(kind="large_sack", status="held").order_by("pk"))


def test_a_full_container_names_the_others_with_room_and_how_much(warband):
    """Mustered: the chest holds 100 gc, the sacks 50, 50, 50 and 27."""
    pile = treasury.loose_pile(warband)
    treasury.add_treasure(pile, gold=30, reason=Reason.INCOME)
    first, *_, last = sacks(warband)

    refused(
        warband,
        lambda: treasury.store_pile(pile, first, actor=warband.owner, gold=30),
        r"Only 50 gc fit in the Large Sack 1 \(that would make 80\)\. "
        r"Room left: Large Sack 4 23 gc\.$",
    )
    assert str(last) == "Large Sack 4"


def test_a_move_counts_the_room_its_source_makes(warband):
    chest = container(warband, "treasure_chest")
    first, second, *_ = sacks(warband)

    refused(
        warband,
        lambda: treasury.move_treasure(chest, first, actor=warband.owner, gold=10),
        r"Room left: Treasure Chest 10 gc, Large Sack 4 23 gc\.$",
    )
    assert second.gold_crowns == 50


def test_no_room_anywhere_on_the_treasury_page_says_what_works(warband):
    pile = treasury.loose_pile(warband)
    last = sacks(warband)[-1]
    treasury.add_treasure(pile, gold=40, reason=Reason.INCOME)

    refused(
        warband,
        lambda: treasury.store_pile(pile, last, actor=warband.owner, gold=40),
        r"Only 50 gc fit in the Large Sack 4 \(that would make 67\)\. No other container has "
        r"room for it: leave it where it is, or buy another container .*store the rest in it\.$",
    )


def test_no_room_anywhere_in_a_post_battle_step_says_keep_it_unstored(warband):
    pile = treasury.loose_pile(warband)
    last = sacks(warband)[-1]
    treasury.add_treasure(pile, gold=40, reason=Reason.INCOME)
    context = treasury.Context(actor=warband.owner, step=3)

    refused(
        warband,
        lambda: treasury.store_pile(pile, last, actor=warband.owner, gold=40, context=context),
        r"No other container has room for it: keep it not stored yet, spend it in steps 6 to "
        r"8, or buy a container in step 9, then store the rest\. Whatever is still not stored "
        r"when the sequence ends is lost\.$",
    )


def test_wyrdstone_names_the_room_for_shards(warband):
    chest = container(warband, "treasure_chest")
    first, second, *_ = sacks(warband)
    treasury.add_treasure(chest, wyrdstone=20, reason=Reason.INCOME)
    treasury.add_treasure(second, wyrdstone=4, reason=Reason.INCOME)
    pile = treasury.loose_pile(warband)
    treasury.add_treasure(pile, wyrdstone=12, reason=Reason.INCOME)

    refused(
        warband,
        lambda: treasury.store_pile(pile, first, actor=warband.owner, wyrdstone=12),
        r"Only 10 wyrdstone fit in the Large Sack 1 \(that would make 12\)\. Room left: "
        r"Large Sack 2 6 wyrdstone, Large Sack 3 10 wyrdstone, Large Sack 4 10 wyrdstone\.$",
    )


def test_wyrdstone_with_no_room_anywhere_says_sell_it_in_step_4(warband):
    containers = [container(warband, "treasure_chest"), *sacks(warband)]
    for box in containers:
        treasury.add_treasure(box, wyrdstone=box.spec.capacity.wyrdstone, reason=Reason.INCOME)
    pile = treasury.loose_pile(warband)
    treasury.add_treasure(pile, wyrdstone=1, reason=Reason.INCOME)
    context = treasury.Context(actor=warband.owner, step=3)

    refused(
        warband,
        lambda: treasury.store_pile(
            pile, containers[0], actor=warband.owner, wyrdstone=1, context=context
        ),
        r"Only 20 wyrdstone fit .* keep it not stored yet, sell it in step 4, or buy a "
        r"container in step 9",
    )


def test_the_sale_of_step_4_is_told_to_sell_into_not_stored_yet():
    assert room.way_out("gold_crowns", 4, Reason.SALE).startswith(
        "No other container has room for it: sell into “not stored yet” instead, spend it"
    )
    assert "sell it in step 4" not in room.way_out("wyrdstone", 5, None)
    assert "warrior who can use it" in room.way_out("item_count", 3, None)


def test_a_pouch_holding_shards_has_no_room_for_gold():
    pouch = StorageContainer(kind="pouch", wyrdstone=1)
    assert room.room_of(pouch) == {"gold_crowns": 0, "wyrdstone": 0, "item_count": 0}
    assert room.room_of(StorageContainer(kind="pouch"))["gold_crowns"] == 6


def test_selling_a_container_that_holds_something_says_how_to_empty_it(warband):
    first, second, *_ = sacks(warband)

    refused(
        warband,
        lambda: treasury.sell_container(first, actor=warband.owner, proceeds_to=second),
        r"Empty the Large Sack 1 before selling it: move its 50 gc into another container "
        r"\(or to “not stored yet”\) first\.$",
    )
