"""A campaign's battle history as CSV, for its organisers to keep or work on elsewhere.

Only what every member already reads on the battle pages: the date, scenario and status of
each battle, and for each warband its player, result, whether and in which order it routed,
and its rating before the battle. Never a treasury value, a dice roll or a container: the
file may be handed round the league.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator

from django.db.models import Prefetch
from django.utils.text import slugify

from battles.models import Battle, Participant
from campaign.models import Campaign

HEADER = (
    "Battle",
    "Date",
    "Scenario",
    "Status",
    "Warband",
    "Warband list",
    "Player",
    "Result",
    "Routed",
    "Rout order",
    "Rating before",
)

# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV
# Injection"); a tab or carriage return before one does the same in some of them.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """A user-typed value as a cell no spreadsheet runs: a leading apostrophe before a
    formula's first character."""
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def filename(campaign: Campaign) -> str:
    """``<campaign>-battles.csv`` in plain ASCII letters, digits, dashes and underscores, so
    that the Content-Disposition header needs no escaping."""
    slug = slugify(campaign.name)[:50].strip("-_") or "campaign"
    return f"{slug}-battles.csv"


def battles_for_export(campaign: Campaign):
    """The campaign's battles, oldest first, each with its participants, their warbands, the
    warbands' lists and players: three queries, however many battles."""
    participants = Participant.objects.select_related(
        "warband__owner", "warband__warband_type"
    ).order_by("pk")
    return (
        Battle.objects.in_campaign(campaign)
        .order_by("fought_on", "pk")
        .prefetch_related(Prefetch("participants", queryset=participants))
    )


def rows(battles: Iterable[Battle]) -> Iterator[tuple]:
    """One row per warband in each battle, the header first."""
    yield HEADER
    for battle in battles:
        for participant in battle.participants.all():
            warband = participant.warband
            yield (
                battle.pk,
                battle.fought_on.isoformat(),
                safe_cell(battle.scenario),
                battle.get_status_display(),
                safe_cell(warband.name),
                safe_cell(warband.warband_type.name),  # organisers may add lists
                safe_cell(warband.owner.username),
                participant.get_result_display(),
                "yes" if participant.routed else "no",
                participant.rout_order or "",
                participant.rating_before,
            )


def battle_history_csv(campaign: Campaign) -> bytes:
    """The whole file, in UTF-8 with a byte order mark (spreadsheets then read names such as
    "Von Carstein’s Get" right): a campaign's history is a few hundred rows at most."""
    out = io.StringIO()
    csv.writer(out).writerows(rows(battles_for_export(campaign)))
    return out.getvalue().encode("utf-8-sig")
