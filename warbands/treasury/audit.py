"""The treasury's conservation audit: every balance equals the sum of the ledger entries that
explain it (the ledger is append-only, so a balance changed any other way shows here), and
every entry that brings value in has a source that gives it once: a sale names the container
sold, whose price is paid once; the starting treasury and a mustering purse come from the
list's starting gold, less what was bought with it; what a warband carried in from another
campaign brought is no more than the original held then; an item a correction added brings
nothing (``provenance``, which also reports what corrections gave each warband).

Run by ``manage.py check_ledgers`` and by the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Min, Sum

from warbands.models import LedgerEntry, StorageContainer, StoredItem, Warband
from warbands.treasury.containers import free_chest_pk
from warbands.treasury.provenance import provenance_problems


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


@dataclass(frozen=True)
class Minted:
    """Value the ledger or a purse holds that its sources cannot have given."""

    warband_id: int
    what: str

    def __str__(self) -> str:
        return f"warband {self.warband_id}: {self.what}"


def sale_problems() -> list[Minted]:
    """A container's price is paid out at most once: the net proceeds naming a container
    (``LedgerEntry.sold_container``, reversals included) are nothing while it is not sold, and
    nothing (given back while mustering, into the purse) or half its price once it is."""
    problems = []
    proceeds = (
        LedgerEntry.objects.filter(sold_container__isnull=False)
        .values("sold_container")
        .annotate(total=Sum("amount"))
    )
    paid = {row["sold_container"]: row["total"] for row in proceeds}
    for container in StorageContainer.objects.filter(pk__in=paid):
        total = paid[container.pk]
        sold = container.status == StorageContainer.Status.SOLD
        price = container.spec.price // 2 if container.spec and container.spec.price else 0
        if total not in ((0, price) if sold else (0,)):
            problems.append(Minted(container.warband_id, f"{container} sold for {total} gc in all"))
    return problems


def purse_problems() -> list[Minted]:
    """The gold a warband brought to the campaign is the starting gold it was mustered with (its
    list's, or the house rules'), no more: while mustering the purse is that gold less what the
    roster and the containers cost (the free treasure chest aside); afterwards the starting
    treasury in the ledger is no more than it."""
    problems = []
    starting = dict(
        LedgerEntry.objects.filter(reason=LedgerEntry.Reason.STARTING_TREASURY)
        .values("warband")
        .annotate(total=Sum("amount"))
        .values_list("warband", "total")
    )
    for warband in Warband.objects.select_related("warband_type"):
        start = warband.starting_gold
        if starting.get(warband.pk, 0) > start:
            problems.append(
                Minted(warband.pk, f"a starting treasury of {starting[warband.pk]} gc from {start}")
            )
        if not warband.is_draft:
            continue
        left = start - mustering_spent(warband)
        if warband.gold_crowns != left:
            problems.append(
                Minted(
                    warband.pk,
                    f"a purse of {warband.gold_crowns} gc where the muster leaves {left}",
                )
            )
    return problems


def mustering_spent(warband: Warband) -> int:
    """What a warband being mustered has spent: warriors, their equipment (per model) and
    the containers bought (the free treasure chest is its first)."""
    spent = 0
    for warrior in warband.warriors.on_roster().select_related("warrior_type"):
        spent += warrior.cost_per_model() * warrior.group_size
    free = free_chest_pk(warband.pk)
    for container in StorageContainer.objects.real().filter(warband=warband).exclude(pk=free):
        spent += container.spec.price or 0
    return spent


def carried_problems() -> list[Minted]:
    """A warband carried in from another campaign (``warbands.transfer``) brings of each kind
    no more than the warband it was carried from held before it came (that warband's own
    entries written earlier); a warband that came from nowhere brings nothing."""
    problems = []
    rows = (
        LedgerEntry.objects.filter(reason=LedgerEntry.Reason.CARRIED_IN)
        .values("warband", "warband__carried_from", "kind")
        .annotate(total=Sum("amount"), first=Min("pk"))
    )
    for row in rows:
        source = row["warband__carried_from"]
        if source is None:
            problems.append(Minted(row["warband"], f"{row['kind']} carried in from no warband"))
            continue
        before = LedgerEntry.objects.filter(warband=source, kind=row["kind"], pk__lt=row["first"])
        held = before.aggregate(total=Sum("amount"))["total"] or 0
        if row["total"] > held:
            problems.append(
                Minted(row["warband"], f"{row['total']} {row['kind']} carried in from {held}")
            )
    return problems


def conservation_problems() -> list[object]:
    """Everything the audit finds: balances that their ledger does not explain
    (``ledger_mismatches``) and value minted from nothing (a container sold twice, a purse
    given back more than was spent, gold from selling an item a correction added:
    ``provenance.provenance_problems``)."""
    return [
        *ledger_mismatches(),
        *sale_problems(),
        *purse_problems(),
        *carried_problems(),
        *provenance_problems(),
    ]
