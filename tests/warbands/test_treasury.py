"""The treasury services: every move is a balance change plus its ledger entries."""

import importlib

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    MembershipFactory,
    WarbandFactory,
    finish,
    hire,
    mustered_warband,
)
from warbands import services, treasury
from warbands.models import (
    Item,
    LedgerEntry,
    StorageContainer,
    StoredItem,
    VesselItem,
    WarbandType,
    WarriorItem,
)
from warbands.rules import RuleViolation

pytestmark = pytest.mark.django_db
Reason = LedgerEntry.Reason


def state(warband) -> tuple:
    """All the treasury a refused action must leave untouched."""
    return (
        sorted(
            StorageContainer.objects.filter(warband=warband).values_list(
                "pk", "kind", "status", "parent", "gold_crowns", "wyrdstone", "item_count"
            )
        ),
        sorted(
            StoredItem.objects.filter(container__warband=warband).values_list("pk", "container")
        ),
        LedgerEntry.objects.count(),
        sorted(WarriorItem.objects.filter(warrior__warband=warband).values_list("pk", flat=True)),
    )


def refused(warband, action, reason: str) -> None:
    before = state(warband)
    with pytest.raises(RuleViolation, match=reason):
        action()
    assert state(warband) == before


@pytest.fixture
def warband():
    return mustered_warband()


def container(warband, kind: str) -> StorageContainer:
    return warband.containers.filter(kind=kind, status="held").order_by("pk").first()


def item(key: str) -> Item:
    return Item.objects.get(key=key)


# --- Mustering -----------------------------------------------------------------------------


def test_a_new_warband_gets_its_free_treasure_chest():
    membership = MembershipFactory()
    warband = services.create_warband(
        actor=membership.user,
        campaign=membership.campaign,
        warband_type=WarbandType.objects.get(key="skaven"),
        name="Rats",
    )

    assert list(warband.containers.values_list("kind", "gold_crowns")) == [("treasure_chest", 0)]


def test_finishing_the_muster_stores_the_purse_chest_first_with_ledger_entries(warband):
    chest = container(warband, "treasure_chest")
    sacks = list(warband.containers.filter(kind="large_sack").order_by("pk"))

    assert warband.gold_crowns == 0
    assert chest.gold_crowns == 100
    assert sorted(s.gold_crowns for s in sacks) == [27, 50, 50, 50]
    entries = LedgerEntry.objects.filter(warband=warband)
    assert set(entries.values_list("reason", flat=True)) == {Reason.STARTING_TREASURY}
    assert sum(entries.values_list("amount", flat=True)) == 277
    assert treasury.ledger_mismatches() == []


def test_the_muster_cannot_finish_while_the_purse_does_not_fit():
    draft = WarbandFactory()
    hire(draft, "mercenary_captain")
    hire(draft, "warrior", models=2)

    with pytest.raises(RuleViolation, match="390 gc are left but the containers hold only 100"):
        services.finish_muster(draft, actor=draft.owner)
    draft.refresh_from_db()
    assert draft.status == "draft"
    assert not LedgerEntry.objects.exists()


def test_common_containers_are_bought_from_the_purse_while_mustering():
    draft = WarbandFactory()
    captain = hire(draft, "mercenary_captain")

    treasury.buy_container(draft, "large_sack", actor=draft.owner)
    treasury.buy_container(draft, "pouch", actor=draft.owner, holder=captain)
    draft.refresh_from_db()

    assert draft.gold_crowns == 500 - 60 - 2 - 2
    assert sorted(draft.containers.values_list("kind", flat=True)) == [
        "large_sack",
        "pouch",
        "treasure_chest",
    ]
    assert not LedgerEntry.objects.exists()  # the purse is not yet the treasury


def test_rare_containers_need_a_rarity_roll():
    draft = WarbandFactory()

    for kind, rarity in [("saddle_bags", 6), ("cart_horse", 8), ("opulent_coach", 10)]:
        refused(
            draft,
            lambda kind=kind: treasury.buy_container(draft, kind, actor=draft.owner),
            f"Rare {rarity}",
        )


def test_a_pouch_is_for_heroes_only():
    draft = WarbandFactory()
    group = hire(draft, "warrior", models=2)

    refused(
        draft,
        lambda: treasury.buy_container(draft, "pouch", actor=draft.owner, holder=group),
        "Only heroes may use a Pouch",
    )
    refused(draft, lambda: treasury.buy_container(draft, "pouch", actor=draft.owner), "hero")


# --- Moving treasure -----------------------------------------------------------------------


def test_moving_gold_and_wyrdstone_writes_a_pair_of_transfer_entries(warband):
    chest, sack = container(warband, "treasure_chest"), container(warband, "large_sack")
    treasury.add_treasure(chest, wyrdstone=5, reason=Reason.INCOME)
    before = LedgerEntry.objects.count()

    treasury.move_treasure(chest, sack, actor=warband.owner, gold=0, wyrdstone=5)

    chest.refresh_from_db()
    sack.refresh_from_db()
    assert (chest.wyrdstone, sack.wyrdstone) == (0, 5)
    new = LedgerEntry.objects.order_by("pk")[before:]
    assert [(e.container_id, e.kind, e.amount, e.reason) for e in new] == [
        (chest.pk, "wyrdstone", -5, "transfer"),
        (sack.pk, "wyrdstone", 5, "transfer"),
    ]
    assert treasury.ledger_mismatches() == []


def test_moving_more_than_fits_is_refused(warband):
    chest, sack = container(warband, "treasure_chest"), container(warband, "large_sack")

    refused(
        warband,
        lambda: treasury.move_treasure(chest, sack, actor=warband.owner, gold=1),
        "Only 50 gc fit in the Large Sack",
    )


def test_moving_more_than_the_source_holds_is_refused(warband):
    chest, sack = container(warband, "treasure_chest"), container(warband, "large_sack")

    refused(
        warband,
        lambda: treasury.move_treasure(sack, chest, actor=warband.owner, wyrdstone=1),
        "holds only 0 wyrdstone",
    )
    pile = treasury.loose_pile(warband)
    with pytest.raises(RuleViolation) as refusal:
        treasury.move_treasure(pile, chest, actor=warband.owner, gold=1)
    assert str(refusal.value) == "The unstored treasure holds only 0 gc."
    with pytest.raises(RuleViolation) as refusal:
        treasury.move_treasure(sack, chest, actor=warband.owner, gold=1000)
    assert str(refusal.value).startswith("The Large Sack 1 holds only ")


@pytest.mark.parametrize(("gold", "wyrdstone"), [(0, 0), (-5, 0), (0, -1)])
def test_moving_nothing_or_negative_amounts_is_refused(warband, gold, wyrdstone):
    chest, sack = container(warband, "treasure_chest"), container(warband, "large_sack")

    refused(
        warband,
        lambda: treasury.move_treasure(
            chest, sack, actor=warband.owner, gold=gold, wyrdstone=wyrdstone
        ),
        "Say how many",
    )


def test_a_pouch_holds_gold_or_wyrdstone_not_both(warband):
    captain = warband.warriors.get(is_leader=True)
    pouch = treasury.buy_container(
        warband, "pouch", actor=warband.owner, pay_from=container(warband, "treasure_chest"),
        holder=captain,
    )  # fmt: skip
    chest = container(warband, "treasure_chest")
    treasury.add_treasure(chest, wyrdstone=2, reason=Reason.INCOME)
    treasury.move_treasure(chest, pouch, actor=warband.owner, gold=6)

    refused(
        warband,
        lambda: treasury.move_treasure(chest, pouch, actor=warband.owner, wyrdstone=1),
        "not both",
    )


def test_another_warbands_container_cannot_be_used(warband):
    other = mustered_warband(campaign=warband.campaign)

    refused(
        warband,
        lambda: treasury.move_treasure(
            container(warband, "treasure_chest"),
            container(other, "treasure_chest"),
            actor=warband.owner,
            gold=5,
        ),
        "same warband",
    )


def test_only_the_owner_moves_treasure(warband):
    opponent = MembershipFactory(campaign=warband.campaign).user
    before = state(warband)

    with pytest.raises(PermissionDenied):
        treasury.move_treasure(
            container(warband, "treasure_chest"),
            container(warband, "large_sack"),
            actor=opponent,
            gold=5,
        )
    assert state(warband) == before


# --- Items ---------------------------------------------------------------------------------


def test_storing_and_equipping_items_keeps_the_ledger(warband):
    captain = warband.warriors.get(is_leader=True)
    chest = container(warband, "treasure_chest")
    sword = captain.items.get(item__key="sword")

    treasury.store_warrior_item(sword, chest, actor=warband.owner)
    chest.refresh_from_db()
    assert chest.item_count == 1
    assert not captain.items.filter(item__key="sword").exists()

    stored = chest.stored_items.get()
    champion = warband.warriors.get(warrior_type__key="champion")
    treasury.equip_stored_item(stored, champion, actor=warband.owner)

    chest.refresh_from_db()
    assert chest.item_count == 0
    assert champion.items.filter(item__key="sword").exists()
    reasons = list(LedgerEntry.objects.filter(kind="item").values_list("reason", "amount"))
    assert sorted(reasons) == [("equip", -1), ("unequip", 1)]
    assert treasury.ledger_mismatches() == []


def test_an_item_off_the_warriors_list_cannot_be_equipped(warband):
    chest = container(warband, "treasure_chest")
    stored = treasury.add_item(chest, item=item("handgun"), reason=Reason.INCOME)
    captain = warband.warriors.get(is_leader=True)

    refused(
        warband,
        lambda: treasury.equip_stored_item(stored, captain, actor=warband.owner),
        "Handgun is not on Captain Adler's equipment list",
    )


def test_heroes_may_carry_miscellaneous_items_henchmen_may_not(warband):
    chest = container(warband, "treasure_chest")
    rope = treasury.add_item(chest, item=item("rope_and_hook"), reason=Reason.INCOME)
    group = warband.warriors.get(warrior_type__key="warrior")

    refused(
        warband,
        lambda: treasury.equip_stored_item(rope, group, actor=warband.owner),
        "not on Stadtwache's equipment list",
    )
    treasury.equip_stored_item(rope, warband.warriors.get(is_leader=True), actor=warband.owner)


def test_a_henchman_group_needs_one_stored_item_per_model(warband):
    chest = container(warband, "treasure_chest")
    group = warband.warriors.get(warrior_type__key="warrior")
    first = treasury.add_item(chest, item=item("shield"), reason=Reason.INCOME)
    treasury.add_item(chest, item=item("shield"), reason=Reason.INCOME)

    refused(
        warband,
        lambda: treasury.equip_stored_item(first, group, actor=warband.owner),
        "need 3 Shield and the treasury holds 2",
    )
    treasury.add_item(container(warband, "large_sack"), item=item("shield"), reason="income")
    treasury.equip_stored_item(first, group, actor=warband.owner)

    assert not StoredItem.objects.filter(item__key="shield").exists()
    assert group.items.filter(item__key="shield").count() == 1  # one row: each model has one
    assert treasury.ledger_mismatches() == []


def test_storing_a_groups_item_needs_room_for_every_model(warband):
    group = warband.warriors.get(warrior_type__key="warrior")
    captain = warband.warriors.get(is_leader=True)
    backpack = treasury.buy_container(
        warband, "backpack", actor=warband.owner, pay_from=container(warband, "treasure_chest")
    )
    spear = group.items.get(item__key="spear")

    refused(
        warband,
        lambda: treasury.store_warrior_item(spear, backpack, actor=warband.owner),
        "Only 1 stored items fit",
    )
    treasury.store_warrior_item(captain.items.get(item__key="sword"), backpack, actor=warband.owner)


def test_a_mutation_cannot_be_stored():
    draft = WarbandFactory(warband_type=WarbandType.objects.get(key="cult_of_the_possessed"))
    hire(draft, "magister")
    possessed = hire(draft, "possessed", items=["hideous"])
    hire(draft, "brethren", models=1)
    finish(draft)

    refused(
        draft,
        lambda: treasury.store_warrior_item(
            possessed.items.get(item__key="hideous"), container(draft, "treasure_chest"),
            actor=draft.owner,
        ),
        "cannot be stored",
    )  # fmt: skip


def test_moving_a_stored_item_between_containers(warband):
    chest, sack = container(warband, "treasure_chest"), container(warband, "large_sack")
    stored = treasury.add_item(chest, item=item("elven_cloak"), reason=Reason.INCOME)

    treasury.move_stored_item(stored, sack, actor=warband.owner)

    chest.refresh_from_db()
    sack.refresh_from_db()
    assert (chest.item_count, sack.item_count) == (0, 1)
    assert treasury.ledger_mismatches() == []


def test_held_containers_bring_their_stored_items_in_one_more_query(warband):
    """The pages read the containers and then all their stored items in one query, whatever
    the number of containers: the same rows a query per container would read, by name."""

    chest, sack = container(warband, "treasure_chest"), container(warband, "large_sack")
    for key, into in (("sword", chest), ("elven_cloak", chest), ("dagger", sack)):
        treasury.add_item(into, item=item(key), reason=Reason.INCOME)
    treasury.add_item(sack, item=None, name="Holy relic", reason=Reason.INCOME)

    with CaptureQueriesContext(connection) as captured:
        held = treasury.held_containers(warband)
        got = {
            c.pk: [(s.pk, s.item_id, s.name, s.created_at, s.container_id) for s in c.stored_list]
            for c in held
        }
    assert len(captured) == 2
    fields = ("pk", "item_id", "name", "created_at", "container_id")
    assert got == {
        c.pk: list(
            StoredItem.objects.filter(container=c).order_by("name", "pk").values_list(*fields)
        )
        for c in held
    }
    chest_names = [name for _, _, name, _, _ in got[chest.pk]]
    assert len(chest_names) == 2 and chest_names == sorted(chest_names)
    assert "Holy relic" in [name for _, _, name, _, _ in got[sack.pk]]


def test_a_move_from_an_old_copy_uses_the_balance_read_under_the_lock(warband):
    """The move re-reads both containers under their locks: a copy read before another change
    never decides what may move."""
    chest, sack = container(warband, "treasure_chest"), container(warband, "large_sack")
    for box, keep in ((chest, 10), (sack, 0)):  # room to add some
        if box.gold_crowns > keep:
            treasury.add_treasure(box, gold=keep - box.gold_crowns, reason=Reason.PURCHASE)
    treasury.add_treasure(chest, gold=5, reason=Reason.INCOME)
    old_chest = StorageContainer.objects.get(pk=chest.pk)
    treasury.add_treasure(chest, gold=5, reason=Reason.INCOME)
    now = old_chest.gold_crowns + 5

    treasury.move_treasure(old_chest, sack, actor=warband.owner, gold=now - 2)
    chest.refresh_from_db()
    assert chest.gold_crowns == 2  # the old copy holds less than that: it would have refused
    refused(
        warband,
        lambda: treasury.move_treasure(old_chest, sack, actor=warband.owner, gold=3),
        "holds only 2 gc",
    )
    assert treasury.ledger_mismatches() == []


# --- Dark Artefacts and Loyalty Symbols ----------------------------------------------------


def test_a_dark_artefact_never_goes_into_a_storage_container(warband):
    artefact = VesselItem.objects.create(warband=warband, kind="dark_artefact", name="Eye of Zar")

    for kind in ("treasure_chest", "large_sack"):
        refused(
            warband,
            lambda kind=kind: treasury.place_vessel_item(
                artefact, container(warband, kind), actor=warband.owner
            ),
            "cannot be placed in storage containers",
        )
    artefact.refresh_from_db()
    assert artefact.coach is None


def test_an_opulent_coach_carries_dark_artefacts_inside(warband):
    chest = container(warband, "treasure_chest")
    treasury.add_treasure(chest, gold=0, wyrdstone=0, reason=Reason.INCOME) if False else None
    coach = (
        treasury.buy_container(
            warband, "opulent_coach", actor=warband.owner, pay_from=chest, rarity_passed=True
        )
        if chest.gold_crowns >= 250
        else StorageContainer.objects.create(warband=warband, kind="opulent_coach")
    )
    symbol = VesselItem.objects.create(warband=warband, kind="loyalty_symbol", name="Banner")

    treasury.place_vessel_item(symbol, coach, actor=warband.owner)

    symbol.refresh_from_db()
    assert symbol.coach == coach


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


# --- The ledger is append-only -------------------------------------------------------------


def test_ledger_entries_cannot_be_changed_or_deleted_through_django(warband):
    entry = LedgerEntry.objects.first()

    entry.amount = 1_000
    with pytest.raises(TypeError, match="append-only"):
        entry.save()
    with pytest.raises(TypeError, match="append-only"):
        entry.delete()
    with pytest.raises(TypeError, match="append-only"):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=5)
    with pytest.raises(TypeError, match="append-only"):
        LedgerEntry.objects.all().delete()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE warbands_ledgerentry SET amount = 999",
        "DELETE FROM warbands_ledgerentry",
    ],
)
def test_the_database_refuses_to_change_ledger_rows(warband, sql):
    count = LedgerEntry.objects.count()

    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql)

    assert LedgerEntry.objects.count() == count


def test_the_admin_cannot_add_change_or_delete_ledger_entries(rf, admin_user):

    model_admin = admin.site.get_model_admin(LedgerEntry)
    request = rf.get("/")
    request.user = admin_user

    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


@pytest.mark.parametrize(
    ("sql", "constraint"),
    [
        ("UPDATE warbands_storagecontainer SET gold_crowns = 101 WHERE kind = 'treasure_chest'",
         "treasure_chest_capacity"),
        ("UPDATE warbands_storagecontainer SET wyrdstone = 11 WHERE kind = 'large_sack'",
         "large_sack_capacity"),
        ("UPDATE warbands_storagecontainer SET gold_crowns = -1", "container_not_negative"),
    ],
)  # fmt: skip
def test_the_database_refuses_over_capacity_and_negative_balances(warband, sql, constraint):
    with (
        pytest.raises(IntegrityError, match=constraint),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql)


# --- check_ledgers -------------------------------------------------------------------------


def test_check_ledgers_passes_when_balances_and_entries_agree(warband, capsys):
    call_command("check_ledgers")

    assert "Ledgers agree" in capsys.readouterr().out


def test_check_ledgers_fails_when_a_balance_was_changed_behind_the_ledger(warband):
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE warbands_storagecontainer SET gold_crowns = gold_crowns - 1 WHERE id = %s",
            [container(warband, "treasure_chest").pk],
        )

    with pytest.raises(CommandError) as failure:
        call_command("check_ledgers")

    assert failure.value.returncode == 1
    assert str(failure.value).startswith("2 mismatch(es)")  # the container's and the warband's


# --- Names: containers of one kind are numbered ---------------------------------------------


def names(warband, kind: str) -> list[str]:
    alike = warband.containers.filter(kind=kind, status="held").order_by("pk")
    return [str(c) for c in alike]


def test_containers_of_one_kind_are_numbered_in_the_order_they_came(warband):
    """The four sacks bought at mustering are told apart; the single chest keeps its name."""
    assert names(warband, "large_sack") == [f"Large Sack {n}" for n in (1, 2, 3, 4)]
    assert names(warband, "treasure_chest") == ["Treasure Chest"]
    sack = container(warband, "large_sack")
    with pytest.raises(RuleViolation, match=r"^The Large Sack 1 holds only "):
        treasury.move_treasure(sack, container(warband, "treasure_chest"), actor=warband.owner,
                               gold=sack.gold_crowns + 1)  # fmt: skip


def test_a_number_is_never_given_twice_and_a_players_name_is_kept(warband):
    first, named, _, last = warband.containers.filter(kind="large_sack").order_by("pk")
    StorageContainer.objects.filter(pk=named.pk).update(label="Loot")  # a cart's found name
    treasury.add_treasure(first, gold=-first.gold_crowns, reason=Reason.PURCHASE)
    treasury.sell_container(first, actor=warband.owner, proceeds_to=last)

    bought = treasury.buy_container(warband, "large_sack", actor=warband.owner, pay_from=last)

    # Not 1 again: the ledger's lines of the sold "Large Sack 1" still mean that one.
    assert str(bought) == "Large Sack 5"
    assert names(warband, "large_sack") == [
        "Large Sack “Loot”", "Large Sack 3", "Large Sack 4", "Large Sack 5",
    ]  # fmt: skip


def test_a_captured_container_is_numbered_among_the_captors(warband):
    captor = WarbandFactory(campaign=warband.campaign)
    captor_sack = treasury.buy_container(captor, "large_sack", actor=captor.owner)
    assert str(captor_sack) == "Large Sack"  # the only one of its kind

    captured = treasury.capture_container(container(warband, "large_sack"), captor)

    captor_sack.refresh_from_db()
    assert (str(captor_sack), str(captured)) == ("Large Sack 1", "Large Sack 2")  # it came last
    assert names(warband, "large_sack") == ["Large Sack 2", "Large Sack 3", "Large Sack 4"]


def test_a_captured_container_keeps_its_name_unless_the_captor_has_one_like_it(warband):
    captor = WarbandFactory(campaign=warband.campaign)
    captor_sack = treasury.buy_container(captor, "large_sack", actor=captor.owner)
    treasury.name_container(captor_sack, "Loot", actor=captor.owner)
    first, second, *_ = warband.containers.filter(kind="large_sack").order_by("pk")
    treasury.name_container(first, "LOOT", actor=warband.owner)
    treasury.name_container(second, "Tithes", actor=warband.owner)

    clashing = treasury.capture_container(first, captor)
    kept = treasury.capture_container(second, captor)

    assert (str(clashing), str(kept)) == ("Large Sack 1", "Large Sack “Tithes”")
    assert sorted(names(captor, "large_sack")) == [
        "Large Sack 1", "Large Sack “Loot”", "Large Sack “Tithes”",
    ]  # fmt: skip


def test_the_migrations_number_the_containers_already_there(warband):
    """0018 wrote the numbers into the label; 0019 moves them into their own column."""

    numbering = importlib.import_module("warbands.migrations.0018_number_alike_containers")
    splitting = importlib.import_module("warbands.migrations.0019_container_number")
    StorageContainer.objects.filter(warband=warband).update(label="", number=None)
    sacks = list(warband.containers.filter(kind="large_sack").order_by("pk"))
    StorageContainer.objects.filter(pk=sacks[2].pk).update(label="Loot")
    other = mustered_warband(campaign=warband.campaign)
    StorageContainer.objects.filter(warband=other).update(label="", number=None)

    numbering.number_alike(apps, None)
    assert [s.label for s in warband.containers.filter(kind="large_sack").order_by("pk")] == [
        "1", "2", "Loot", "3",
    ]  # fmt: skip
    splitting.numbers_out_of_labels(apps, None)

    assert names(warband, "large_sack") == [
        "Large Sack 1", "Large Sack 2", "Large Sack “Loot”", "Large Sack 3",
    ]  # fmt: skip
    assert [s.number for s in warband.containers.filter(kind="large_sack").order_by("pk")] == [
        1, 2, None, 3,
    ]  # fmt: skip
    assert names(other, "large_sack") == [f"Large Sack {n}" for n in (1, 2, 3, 4)]
    assert names(warband, "treasure_chest") == ["Treasure Chest"]
    splitting.numbers_into_labels(apps, None)  # back: the labels as 0018 left them
    labels = warband.containers.filter(kind="large_sack").order_by("pk")
    assert [s.label for s in labels] == ["1", "2", "Loot", "3"]


def test_a_named_container_keeps_its_number_for_when_the_name_is_cleared(warband):
    first, second, *_ = warband.containers.filter(kind="large_sack").order_by("pk")

    named = treasury.name_container(second, "  Tithes   of  Sigmar ", actor=warband.owner)

    assert str(named) == "Large Sack “Tithes of Sigmar”"
    assert names(warband, "large_sack") == [
        "Large Sack 1", "Large Sack “Tithes of Sigmar”", "Large Sack 3", "Large Sack 4",
    ]  # fmt: skip
    bought = treasury.buy_container(warband, "large_sack", actor=warband.owner, pay_from=first)
    assert str(bought) == "Large Sack 5"  # not 2: the named sack keeps it
    cleared = treasury.name_container(second, "", actor=warband.owner)
    assert str(cleared) == "Large Sack 2"  # its own number again
    treasury.name_container(container(warband, "treasure_chest"), "Hoard", actor=warband.owner)
    treasury.name_container(container(warband, "treasure_chest"), "", actor=warband.owner)
    assert names(warband, "treasure_chest") == ["Treasure Chest"]  # the only one: no number
    assert str(treasury.name_container(first, "Loot", actor=warband.owner)) == "Large Sack “Loot”"


@pytest.mark.parametrize(
    "label, refusal",
    [
        ("7", r"^Give the Large Sack 2 a name with letters: numbers are given by kind\.$"),
        ("loot", r"^The Large Sack “Loot” already has that name\.$"),
        (" LOOT ", r"^The Large Sack “Loot” already has that name\.$"),
    ],
)
def test_a_name_of_digits_or_one_already_given_is_refused(warband, label, refusal):
    first, second, *_ = warband.containers.filter(kind="large_sack").order_by("pk")
    treasury.name_container(first, "Loot", actor=warband.owner)
    before = state(warband), names(warband, "large_sack")

    with pytest.raises(RuleViolation, match=refusal):
        treasury.name_container(second, label, actor=warband.owner)

    assert (state(warband), names(warband, "large_sack")) == before


def test_only_the_owner_names_a_held_container_and_the_pile_has_no_name(warband):
    sack = container(warband, "large_sack")
    with pytest.raises(PermissionDenied):
        treasury.name_container(sack, "Mine now", actor=WarbandFactory().owner)
    pile = treasury.loose_pile(warband)
    with pytest.raises(RuleViolation, match=r"^Only a container the warband holds can be named"):
        treasury.name_container(pile, "Heap", actor=warband.owner)
    sack.refresh_from_db()
    assert (sack.label, sack.number) == ("", 1)
