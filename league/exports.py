"""A campaign's battle history and its standings as CSV, to keep or work on elsewhere.

Only what every member already reads on the battle pages and the league table: the date,
scenario and status of each battle, and for each warband its player, result, whether and in
which order it routed, and its rating before the battle (the organisers' file); each
warband's rank, points and figures in the campaign's ranking, and the awards it holds
(every member's file). Never a treasury value, a dice roll or a container: the files may be
handed round the league. The richest warband's award is named only once the campaign is
over (``league.awards``), and without its gold.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator

from django.db.models import Prefetch
from django.utils.text import slugify

from battles.models import Battle, Participant
from campaign.models import Campaign
from league.awards import awards
from league.standings import league_table

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


STANDINGS_HEADER = (
    "Rank",
    "Warband",
    "Warband list",
    "Player",
    "Points",
    "Played",
    "Won",
    "Drawn",
    "Lost",
    "Enemies out of action",
    "Rating",
    "Experience",
    "Awards",
)


def filename(campaign: Campaign, what: str = "battles") -> str:
    """``<campaign>-<what>.csv`` in plain ASCII letters, digits, dashes and underscores, so
    that the Content-Disposition header needs no escaping."""
    slug = slugify(campaign.name)[:50].strip("-_") or "campaign"
    return f"{slug}-{what}.csv"


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


def standings_rows(campaign: Campaign) -> Iterator[tuple]:
    """The league table in the campaign's ranking, one row per warband, the header first;
    each row names the awards its warband holds."""
    table = league_table(campaign)
    held: dict[int, list[str]] = {}
    for award in awards(campaign, table):
        for warband in award.warbands:
            held.setdefault(warband.pk, []).append(award.title)
    yield STANDINGS_HEADER
    for row in table:
        warband = row.warband
        yield (
            row.rank,
            safe_cell(warband.name),
            safe_cell(warband.warband_type.name),
            safe_cell(warband.owner.username),
            row.points,
            row.played,
            row.won,
            row.drawn,
            row.lost,
            row.enemies_ooa,
            row.rating,
            row.experience,
            "; ".join(held.get(warband.pk, [])),
        )


def standings_csv(campaign: Campaign) -> bytes:
    """The standings file, in UTF-8 with a byte order mark, like the battles'."""
    out = io.StringIO()
    csv.writer(out).writerows(standings_rows(campaign))
    return out.getvalue().encode("utf-8-sig")
