"""The treasury's conservation audit: every balance equals the sum of the ledger entries that
explain it (the ledger is append-only, so a balance changed any other way shows here).

Run by ``manage.py check_ledgers`` and by the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Sum

from warbands.models import LedgerEntry, StorageContainer, StoredItem


@dataclass(frozen=True)
class LedgerMismatch:
    """One balance of a container that its ledger entries do not add up to."""

    container_id: int
    kind: str
    balance: int
    ledger: int

    def __str__(self) -> str:
        return (
            f"container {self.container_id}: {self.kind} balance {self.balance}, "
            f"ledger says {self.ledger}"
        )


def ledger_mismatches(containers: Iterable[StorageContainer] | None = None) -> list[LedgerMismatch]:
    """Every container whose balances differ from the sum of its ledger entries, and every
    container whose item count differs from its stored items."""
    queryset = StorageContainer.objects.all() if containers is None else containers
    sums = {
        (row["container"], row["kind"]): row["total"]
        for row in LedgerEntry.objects.values("container", "kind").annotate(total=Sum("amount"))
    }
    stored = dict(
        StoredItem.objects.values("container").annotate(n=Count("pk")).values_list("container", "n")
    )
    mismatches = []
    for container in queryset:
        for kind, balance in (
            (LedgerEntry.Kind.GOLD, container.gold_crowns),
            (LedgerEntry.Kind.WYRDSTONE, container.wyrdstone),
            (LedgerEntry.Kind.ITEM, container.item_count),
        ):
            ledger = sums.get((container.pk, kind), 0)
            if ledger != balance:
                mismatches.append(LedgerMismatch(container.pk, kind, balance, ledger))
        if stored.get(container.pk, 0) != container.item_count:
            mismatches.append(
                LedgerMismatch(
                    container.pk,
                    "stored item rows",
                    container.item_count,
                    stored.get(container.pk, 0),
                )
            )
    # Each warband's own entries for a container add up to the balance while it holds it and
    # to nothing once it has lost it (sold, lost or captured by an enemy).
    balances = {
        c.pk: (
            c.warband_id,
            {"gold": c.gold_crowns, "wyrdstone": c.wyrdstone, "item": c.item_count},
        )
        for c in queryset
    }
    per_warband = LedgerEntry.objects.values("warband", "container", "kind").annotate(
        total=Sum("amount")
    )
    for row in per_warband:
        if row["container"] not in balances:
            continue
        holder, balance = balances[row["container"]]
        expected = balance[row["kind"]] if row["warband"] == holder else 0
        if row["total"] != expected:
            mismatches.append(
                LedgerMismatch(row["container"], f"{row['kind']} (warband {row['warband']})",
                               expected, row["total"])
            )  # fmt: skip
    return mismatches
