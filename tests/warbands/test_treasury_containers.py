"""Buying, selling, loading and capturing storage containers (MiM), and losing unstored
treasure: balances and both warbands' ledgers agree."""

import pytest

from tests.factories import (
    mustered_warband,
)
from tests.helpers import container, item, refused
from warbands import services, treasury
from warbands.models import (
    LedgerEntry,
    StorageContainer,
)

pytestmark = pytest.mark.django_db
Reason = LedgerEntry.Reason


# --- Buying, selling and loading -----------------------------------------------------------


def test_buying_a_container_pays_from_the_chosen_container_with_a_purchase_entry(warband):
    chest = container(warband, "treasure_chest")

    backpack = treasury.buy_container(warband, "backpack", actor=warband.owner, pay_from=chest)

    chest.refresh_from_db()
    assert (backpack.kind, chest.gold_crowns) == ("backpack", 96)
    entry = LedgerEntry.objects.latest("pk")
    assert (entry.container_id, entry.amount, entry.reason) == (chest.pk, -4, "purchase")


def test_buying_without_enough_gold_in_the_container_is_refused(warband):
    empty = treasury.buy_container(
        warband, "backpack", actor=warband.owner, pay_from=container(warband, "treasure_chest")
    )

    refused(
        warband,
        lambda: treasury.buy_container(warband, "large_sack", actor=warband.owner, pay_from=empty),
        "holds 0 gc",
    )


def test_any_container_with_enough_pays_from_the_fullest(warband):
    """The mustered warband's chest holds 100 gc, its sacks 50, 50, 50 and 27."""
    chest = container(warband, "treasure_chest")

    treasury.buy_container(warband, "large_sack", actor=warband.owner)

    chest.refresh_from_db()
    assert chest.gold_crowns == 98
    assert LedgerEntry.objects.latest("pk").container_id == chest.pk


def test_any_container_with_enough_refuses_when_none_holds_the_price(warband):
    chest = container(warband, "treasure_chest")
    treasury.buy_container(warband, "backpack", actor=warband.owner, pay_from=chest)
    StorageContainer.objects.filter(warband=warband).update(gold_crowns=1)

    refused(
        warband,
        lambda: treasury.buy_container(warband, "large_sack", actor=warband.owner),
        "no container holds that much",
    )


@pytest.mark.parametrize(
    ("kind", "paid", "sold_for"),
    [("backpack", 4, 2), ("large_sack", 2, 1), ("treasure_chest", 10, 5)],
)
def test_selling_an_empty_container_pays_half_rounded_down(warband, kind, paid, sold_for):
    chest = container(warband, "treasure_chest")
    bought = treasury.buy_container(warband, kind, actor=warband.owner, pay_from=chest)

    treasury.sell_container(bought, actor=warband.owner, proceeds_to=chest)

    chest.refresh_from_db()
    bought.refresh_from_db()
    assert chest.gold_crowns == 100 - paid + sold_for
    assert bought.status == "sold"
    assert treasury.ledger_mismatches() == []


def test_a_container_must_be_empty_to_be_sold(warband):
    refused(
        warband,
        lambda: treasury.sell_container(
            container(warband, "large_sack"),
            actor=warband.owner,
            proceeds_to=container(warband, "treasure_chest"),
        ),
        "Empty the Large Sack",
    )


def test_loading_a_pack_mule_and_its_limits(warband):
    mule = StorageContainer.objects.create(warband=warband, kind="pack_mule")
    chest = container(warband, "treasure_chest")
    second_chest = treasury.buy_container(warband, "treasure_chest", actor=warband.owner,
                                          pay_from=chest)  # fmt: skip
    third_chest = treasury.buy_container(warband, "treasure_chest", actor=warband.owner,
                                         pay_from=chest)  # fmt: skip

    treasury.place_container(chest, mule, actor=warband.owner)
    treasury.place_container(second_chest, mule, actor=warband.owner)

    refused(
        warband,
        lambda: treasury.place_container(third_chest, mule, actor=warband.owner),
        "at most 2 Treasure Chest",
    )
    backpack = treasury.buy_container(warband, "backpack", actor=warband.owner, pay_from=chest)
    refused(
        warband,
        lambda: treasury.place_container(backpack, mule, actor=warband.owner),
        "carries only",
    )
    treasury.place_container(chest, None, actor=warband.owner)
    chest.refresh_from_db()
    assert chest.parent is None


def test_a_cart_shrinks_its_open_capacity_for_each_container_in_it(warband):
    cart = StorageContainer.objects.create(warband=warband, kind="cart_horse")
    chest = container(warband, "treasure_chest")
    treasury.move_treasure(chest, cart, actor=warband.owner, gold=100)
    for sack in warband.containers.filter(kind="large_sack"):
        treasury.move_treasure(sack, cart, actor=warband.owner, gold=sack.gold_crowns)
    cart.refresh_from_db()
    assert cart.gold_crowns == 277

    treasury.place_container(chest, cart, actor=warband.owner)  # 400 gc openly now
    extra = [
        treasury.buy_container(warband, "treasure_chest", actor=warband.owner, pay_from=cart)
        for _ in range(2)
    ]
    treasury.place_container(extra[0], cart, actor=warband.owner)  # 300 gc openly
    refused(
        warband,
        lambda: treasury.place_container(extra[1], cart, actor=warband.owner),
        "Only 200 gc fit openly in the Cart",
    )
    refused(
        warband,
        lambda: (
            treasury.move_treasure(chest, cart, actor=warband.owner, gold=0, wyrdstone=0)
            if False
            else treasury.add_treasure(cart, gold=50, reason=Reason.INCOME)
        ),
        "Only 300 gc fit openly",
    )


# --- Capture and loss ----------------------------------------------------------------------


def test_capture_moves_the_container_with_its_contents_and_both_ledgers_agree(warband):
    captor = mustered_warband(campaign=warband.campaign)
    sack = container(warband, "large_sack")
    treasury.add_treasure(sack, wyrdstone=3, reason=Reason.INCOME)
    treasury.add_item(sack, item=item("elven_cloak"), reason=Reason.INCOME)
    gold = sack.gold_crowns

    captured = treasury.capture_container(sack, captor)

    assert captured.warband == captor
    assert (captured.gold_crowns, captured.wyrdstone, captured.item_count) == (gold, 3, 1)
    loser_entries = LedgerEntry.objects.filter(warband=warband, reason="capture")
    captor_entries = LedgerEntry.objects.filter(warband=captor, reason="capture")
    assert sorted(loser_entries.values_list("kind", "amount")) == [
        ("gold", -gold), ("item", -1), ("wyrdstone", -3),
    ]  # fmt: skip
    assert sorted(captor_entries.values_list("kind", "amount")) == [
        ("gold", gold), ("item", 1), ("wyrdstone", 3),
    ]  # fmt: skip
    assert treasury.ledger_mismatches() == []
    assert treasury.totals(warband)["gold"] == 277 - gold


def test_a_captured_cart_takes_the_containers_in_it(warband):
    captor = mustered_warband(campaign=warband.campaign)
    cart = StorageContainer.objects.create(warband=warband, kind="cart_mule")
    chest = container(warband, "treasure_chest")
    treasury.place_container(chest, cart, actor=warband.owner)

    treasury.capture_container(cart, captor)

    chest.refresh_from_db()
    assert (chest.warband, chest.parent) == (captor, cart)
    assert treasury.ledger_mismatches() == []


def test_a_pouch_cannot_be_captured(warband):
    captor = mustered_warband(campaign=warband.campaign)
    pouch = treasury.buy_container(
        warband, "pouch", actor=warband.owner, pay_from=container(warband, "treasure_chest"),
        holder=warband.warriors.get(is_leader=True),
    )  # fmt: skip

    refused(warband, lambda: treasury.capture_container(pouch, captor), "lost only with its hero")


def test_settling_unstored_treasure_loses_it_with_loss_entries(warband):
    pile = treasury.loose_pile(warband)
    treasury.add_treasure(pile, gold=12, wyrdstone=2, reason=Reason.INCOME)
    treasury.add_item(pile, item=item("sword"), reason=Reason.INCOME)

    lost = treasury.settle_unstored_treasure(warband)

    assert lost == {"gold": 12, "wyrdstone": 2, "items": ["Sword"]}
    pile.refresh_from_db()
    assert pile.is_empty
    assert sorted(LedgerEntry.objects.filter(reason="loss").values_list("kind", "amount")) == [
        ("gold", -12),
        ("item", -1),
        ("wyrdstone", -2),
    ]
    assert treasury.ledger_mismatches() == []


def test_settling_loses_nothing_when_everything_is_stored(warband):
    before = LedgerEntry.objects.count()

    assert treasury.settle_unstored_treasure(warband) == {"gold": 0, "wyrdstone": 0, "items": []}
    assert LedgerEntry.objects.count() == before


def test_a_dismissed_warriors_equipment_stays_unstored(warband):
    champion = warband.warriors.get(warrior_type__key="champion")

    services.dismiss_warrior(champion, actor=warband.owner)

    pile = treasury.loose_pile(warband)
    assert sorted(pile.stored_items.values_list("name", flat=True)) == ["Axe", "Dagger"]
    assert treasury.ledger_mismatches() == []
