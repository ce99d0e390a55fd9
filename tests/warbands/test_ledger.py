"""The ledger is append-only (Django, the admin and the database refuse changes) and
``check_ledgers`` finds a balance changed behind its back."""

import pytest
from django.contrib import admin
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction

from core.errors import RuleViolation
from tests.helpers import container
from warbands import treasury
from warbands.models import (
    LedgerEntry,
)

pytestmark = pytest.mark.django_db


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
    assert str(failure.value).startswith("2 problem(s)")  # the container's and the warband's


def test_a_reversal_the_unstored_pile_can_no_longer_pay_is_refused(warband):
    """Gold that came into the pile and was moved on since cannot go back out of it: a
    refusal, not the database's negative-balance constraint (a 500)."""
    pile = treasury.loose_pile(warband)
    treasury.add_treasure(pile, gold=10, reason=LedgerEntry.Reason.INCOME)
    came = LedgerEntry.objects.filter(container=pile).latest("pk")
    sack = warband.containers.filter(kind="large_sack").order_by("gold_crowns").first()
    treasury.add_treasure(sack, gold=-sack.gold_crowns, reason=LedgerEntry.Reason.LOSS)
    treasury.move_treasure(pile, sack, actor=warband.owner, gold=10)

    with pytest.raises(RuleViolation, match="no longer holds what is to go back"):
        treasury.reverse_entry(came, actor=warband.owner)
    assert not treasury.conservation_problems()
