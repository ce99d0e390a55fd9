"""The conservation audit (``check_ledgers``) on a whole seeded league: it agrees, and each
kind of value minted from nothing, injected by hand behind the services' back, is caught."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection
from django.test import override_settings

from tests.sharing import built_once
from warbands import treasury
from warbands.models import LedgerEntry, StorageContainer, Warband

pytestmark = pytest.mark.django_db


def seed_the_demo() -> None:
    with override_settings(DEBUG=True):  # seed_demo refuses to run without it
        call_command("seed_demo", stdout=io.StringIO())


@pytest.fixture(scope="module")
def league(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, seed_the_demo)


def audit() -> list[str]:
    """What ``check_ledgers`` reports (nothing when all agree)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("check_ledgers", stdout=out, stderr=err)
    except CommandError:
        return err.getvalue().splitlines()
    assert out.getvalue().startswith("Ledgers agree")
    return []


def entry_behind_the_ledger(container, amount, reason, **extra) -> None:
    """A ledger entry with the balance it explains, written by hand as a duplicate post
    would have written it: ``ledger_mismatches`` alone sees nothing wrong."""
    LedgerEntry.objects.create(
        warband_id=container.warband_id, container=container, kind="gold", amount=amount,
        reason=reason, **extra,
    )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE warbands_storagecontainer SET gold_crowns = gold_crowns + %s WHERE id = %s",
            [amount, container.pk],
        )


def test_the_seeded_league_passes_the_audit(league):
    assert LedgerEntry.objects.count() > 50
    assert audit() == []


def test_a_container_sold_twice_is_caught(league):
    warband = Warband.objects.get(name="Reikland Reavers")
    sack = StorageContainer.objects.create(warband=warband, kind="large_sack")
    chest = warband.containers.get(kind="treasure_chest")
    treasury.add_treasure(chest, gold=-chest.gold_crowns, reason="loss")  # room for the price
    treasury.sell_container(sack, actor=warband.owner, proceeds_to=chest)
    assert audit() == []

    entry_behind_the_ledger(chest, 1, "sale", sold_container=sack)

    assert treasury.ledger_mismatches() == []
    assert audit() == [f"warband {warband.pk}: Large Sack sold for 2 gc in all"]


def test_a_starting_treasury_beyond_the_lists_gold_is_caught(league):
    warband = Warband.objects.select_related("warband_type").get(owner__username="bob")
    stored = sum(warband.ledger.filter(reason="starting_treasury").values_list("amount", flat=True))
    extra = warband.warband_type.starting_gold - stored + 1
    pile = treasury.loose_pile(warband)  # it holds any amount

    entry_behind_the_ledger(pile, extra, "starting_treasury")

    assert audit() == [
        f"warband {warband.pk}: a starting treasury of "
        f"{warband.warband_type.starting_gold + 1} gc from {warband.warband_type.starting_gold}"
    ]


def test_a_mustering_purse_given_back_twice_is_caught(league):
    warband = Warband.objects.get(owner__username="carol")
    Warband.objects.filter(pk=warband.pk).update(status="draft", gold_crowns=0)
    assert audit()  # a purse of 0 gc is not what the roster leaves
    spent = treasury.mustering_spent(warband)
    start = warband.warband_type.starting_gold
    Warband.objects.filter(pk=warband.pk).update(gold_crowns=start - spent)
    assert audit() == []

    Warband.objects.filter(pk=warband.pk).update(gold_crowns=start - spent + 2)

    assert audit() == [
        f"warband {warband.pk}: a purse of {start - spent + 2} gc where the muster leaves "
        f"{start - spent}"
    ]


def test_only_a_sale_names_a_container_sold(league):
    warband = Warband.objects.get(owner__username="dave")
    chest = warband.containers.get(kind="treasure_chest")
    with pytest.raises(IntegrityError, match="ledger_sold_container_on_sales"):
        LedgerEntry.objects.create(
            warband=warband, container=chest, kind="gold", amount=5, reason="income",
            sold_container=chest,
        )  # fmt: skip
