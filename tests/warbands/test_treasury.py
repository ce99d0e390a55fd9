"""The treasury services: every move is a balance change plus its ledger entries."""

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.errors import RuleViolation
from tests.factories import (
    MembershipFactory,
    WarbandFactory,
    finish,
    hire,
    mustered_warband,
)
from tests.helpers import container, item, refused, state
from warbands import services, treasury
from warbands.models import (
    LedgerEntry,
    StorageContainer,
    StoredItem,
    VesselItem,
    WarbandType,
)

pytestmark = pytest.mark.django_db
Reason = LedgerEntry.Reason


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
    assert not LedgerEntry.objects.filter(warband=draft).exists()


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
    # the purse is not yet the treasury
    assert not LedgerEntry.objects.filter(warband=draft).exists()


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
