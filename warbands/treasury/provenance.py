"""Value that came through corrections: what each warband got from them, and the problems of
the conservation audit they can cause.

A correction moves no treasure, but what it gives has worth: an item (its list price), and
experience, characteristics, skills, spells and healed injuries. ``correction_report`` lists it
per warband for the organisers and ``manage.py check_ledgers``. An item a correction added was
never paid for, found or mustered, so it may bring no gold: ``provenance_problems`` finds gold
from selling one (the sale's ledger entry names the correction, ``LedgerEntry.correction``),
stored items whose provenance their ledger does not explain, and rows that name a correction
which added no item.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum

from warbands.models import Correction, LedgerEntry, StoredItem, WarriorItem

Kind = Correction.Kind


@dataclass
class CorrectionValue:
    """What one warband got through corrections that applied."""

    warband_id: int
    warband: str
    items: list[tuple[str, int]] = field(default_factory=list)  # name, list price per model
    experience: int = 0
    characteristics: int = 0
    skills: int = 0
    spells: int = 0
    injuries_written: int = 0
    injuries_healed: int = 0
    proceeds: int = 0  # gold from selling what corrections added: 0 unless minted

    def __str__(self) -> str:
        parts = []
        if self.items:
            names = ", ".join(name for name, _ in self.items)
            worth = sum(price for _, price in self.items)
            parts.append(f"{len(self.items)} item(s) ({names}: {worth} gc at list price)")
        for amount, what in ((self.experience, "experience"),
                             (self.characteristics, "characteristic point(s)")):  # fmt: skip
            if amount:
                parts.append(f"{amount:+d} {what}")
        for count, what in ((self.skills, "skill(s)"), (self.spells, "spell(s)"),
                            (self.injuries_written, "injury(ies) written down"),
                            (self.injuries_healed, "injury(ies) healed")):  # fmt: skip
            if count:
                parts.append(f"{count} {what}")
        said = ", ".join(parts) or "nothing"
        return (
            f"{self.warband} (warband {self.warband_id}): {said}; "
            f"{self.proceeds} gc from selling them"
        )


def correction_report() -> list[CorrectionValue]:
    """Per warband, what the corrections that applied gave it (taking away gives nothing),
    and the gold that selling their items brought. Two queries."""
    report: dict[int, CorrectionValue] = {}
    applied = (
        Correction.objects.filter(status=Correction.Status.APPLIED)
        .select_related("warband", "item")
        .order_by("warband", "pk")
    )
    for correction in applied:
        value = report.setdefault(
            correction.warband_id,
            CorrectionValue(correction.warband_id, correction.warband.name),
        )
        kind, before = correction.kind, correction.before
        if kind == Kind.ITEM_ADDED and correction.item is not None:
            value.items.append((correction.item.name, correction.item.price))
        elif kind == Kind.EXPERIENCE and before is not None:
            value.experience += correction.value - before
        elif kind == Kind.CHARACTERISTIC and before is not None and correction.value > before:
            value.characteristics += correction.value - before
        elif kind == Kind.SKILL_ADDED:
            value.skills += 1
        elif kind == Kind.SPELL_ADDED:
            value.spells += 1
        elif kind == Kind.INJURY_ADDED:
            value.injuries_written += 1
        elif kind == Kind.INJURY_REMOVED:
            value.injuries_healed += 1
    proceeds = (
        LedgerEntry.objects.filter(kind=LedgerEntry.Kind.GOLD, correction__isnull=False)
        .values("warband", "warband__name")
        .annotate(total=Sum("amount"))
    )
    for row in proceeds:
        value = report.setdefault(
            row["warband"], CorrectionValue(row["warband"], row["warband__name"])
        )
        value.proceeds = row["total"]
    return [report[pk] for pk in sorted(report)]


@dataclass(frozen=True)
class Unsourced:
    """Value the audit finds no source for, through an item a correction added."""

    warband_id: int
    what: str

    def __str__(self) -> str:
        return f"warband {self.warband_id}: {self.what}"


def provenance_problems() -> list[Unsourced]:
    """Gold from selling items corrections added (net of reversals, per correction and
    warband: it must be nothing); a container whose stored items of a correction its item
    entries do not add up to (provenance lost or forged on the way); and an item that names a
    correction which added none."""
    problems = []
    proceeds = (
        LedgerEntry.objects.filter(kind=LedgerEntry.Kind.GOLD, correction__isnull=False)
        .values("warband", "correction", "correction__new_value")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .order_by("warband", "correction")
    )
    for row in proceeds:
        problems.append(Unsourced(
            row["warband"],
            f"{row['total']} gc from selling {row['correction__new_value']}, which correction "
            f"{row['correction']} added and nobody paid for, found or mustered",
        ))  # fmt: skip
    entries = _item_entries()
    stored = (
        StoredItem.objects.filter(correction__isnull=False)
        .values("container", "correction", "container__warband")
        .annotate(n=Count("pk"))
    )
    rows = {
        (row["container"], row["correction"]): (row["container__warband"], row["n"])
        for row in stored
    }
    for key in sorted(set(entries) | set(rows)):
        holder, held = rows.get(key, (None, 0))
        warband, ledger = entries.get(key, (holder, 0))
        if held != ledger:
            problems.append(Unsourced(
                warband,
                f"container {key[0]} holds {held} item(s) of correction {key[1]}, "
                f"its ledger says {ledger}",
            ))  # fmt: skip
    items = Q(kind=Kind.ITEM_ADDED, status=Correction.Status.APPLIED)
    for model, warband in ((WarriorItem, "warrior__warband"), (StoredItem, "container__warband")):
        strays = (
            model.objects.filter(correction__isnull=False)
            .exclude(correction__in=Correction.objects.filter(items))
            .values_list(warband, "correction")
        )
        for warband_id, correction_id in strays:
            problems.append(Unsourced(
                warband_id, f"an item names correction {correction_id}, which added no item"
            ))  # fmt: skip
    return problems


def _item_entries() -> dict[tuple[int, int], tuple[int, int]]:
    """{(container, correction): (its warband, the sum of its item entries)}."""
    rows = (
        LedgerEntry.objects.filter(kind=LedgerEntry.Kind.ITEM, correction__isnull=False)
        .values("container", "correction", "container__warband")
        .annotate(total=Sum("amount"))
    )
    return {
        (row["container"], row["correction"]): (row["container__warband"], row["total"])
        for row in rows
    }
