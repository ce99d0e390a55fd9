"""Containers of one kind are numbered in the order they came; names are the owner's."""

import importlib

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied

from core.errors import RuleViolation
from tests.factories import (
    WarbandFactory,
    mustered_warband,
)
from tests.helpers import container, state
from warbands import treasury
from warbands.models import (
    LedgerEntry,
    StorageContainer,
)

pytestmark = pytest.mark.django_db
Reason = LedgerEntry.Reason


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
