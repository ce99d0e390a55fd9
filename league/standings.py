"""The league table, computed from confirmed battles and ranked by the campaign's own rules
(points per result, then the organiser's tie-breakers, on the campaign's row; ranked by the
pure ``campaign.rules.standings``).

Public figures only: rating, battles, results, points, enemies put out of action, experience
gained. Never the treasury (gold and wyrdstone are secret).

Four queries whatever the league's size: results per warband, enemies put out of action per
warband, ratings per warband, the warbands themselves. When head-to-head is a tie-breaker
the results are read instead as one row per warband in each confirmed battle (the pairs the
mini-tables need) and counted here: the same number of queries. The rows are joined and
sorted in Python, text columns without regard to case.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from django.db.models import Count, F, Q, Sum

from battles.models import Battle, Participant, WarriorOutcome
from campaign.models import Campaign
from campaign.rules import standings as ranking
from warbands.models import RATING_BASE, Warband, Warrior

# column key → (heading, default direction, full name when the heading is abbreviated)
COLUMNS: dict[str, tuple[str, str, str]] = {
    "warband": ("Warband", "asc", ""),
    "points": ("Pts", "desc", "Points"),  # beside the name: a phone shows both unscrolled
    "player": ("Player", "asc", ""),
    "type": ("Type", "asc", ""),
    "rating": ("Rating", "desc", ""),
    "played": ("P", "desc", "Battles played"),
    "won": ("W", "desc", "Won"),
    "drawn": ("D", "desc", "Drawn"),
    "lost": ("L", "desc", "Lost"),
    "enemies_ooa": ("OOA", "desc", "Enemies taken out of action"),
    "experience": ("XP", "desc", "Experience gained"),
}
DEFAULT_SORT = "points"  # the campaign's ranking: points, then its tie-breakers


@dataclass(frozen=True)
class Row:
    rank: int
    warband: Warband
    rating: int
    played: int
    won: int
    drawn: int
    lost: int
    enemies_ooa: int
    experience: int
    points: int = 0
    tier: int = 0  # its place in the campaign's ranking (rows no tie-breaker parts share one)

    def figure(self, column: str):
        """The value the table sorts ``column`` by (text without regard to case)."""
        if column == "warband":
            return self.warband.name.casefold()
        if column == "player":
            return self.warband.owner.username.casefold()
        if column == "type":
            return self.warband.warband_type.name.casefold()
        return getattr(self, column)


def _confirmed(campaign: Campaign):
    return Participant.objects.filter(
        battle__campaign=campaign, battle__status=Battle.Status.CONFIRMED
    )


def _results(campaign: Campaign) -> dict:
    """Per warband: its battles played, won, drawn and lost, and the experience gained."""
    return {
        row["warband"]: row
        for row in _confirmed(campaign)
        .values("warband")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(result=Participant.Result.WON)),
            drawn=Count("pk", filter=Q(result=Participant.Result.DRAW)),
            lost=Count("pk", filter=Q(result=Participant.Result.LOST)),
            experience=Sum("experience_gained"),
        )
    }


_COUNTED = {"won": "won", "draw": "drawn", "lost": "lost"}


def results_and_meetings(campaign: Campaign) -> tuple[dict, list[ranking.Meeting]]:
    """``_results`` and each confirmed battle's results warband by warband (head-to-head's
    mini-tables), from one query of a row per warband in each battle."""
    results: dict[int, dict] = {}
    found: dict[int, dict[int, str]] = defaultdict(dict)
    for battle, warband, result, experience in _confirmed(campaign).values_list(
        "battle", "warband", "result", "experience_gained"
    ):
        found[battle][warband] = result
        row = results.setdefault(
            warband, {"played": 0, "won": 0, "drawn": 0, "lost": 0, "experience": 0}
        )
        row["played"] += 1
        row[_COUNTED[result]] += 1
        row["experience"] += experience or 0
    return results, list(found.values())


def _figures(campaign: Campaign, *, head_to_head: bool) -> tuple[dict, dict, dict, list]:
    """Per warband: its results in confirmed battles, the enemies its warriors put out of
    action in them, and its rating now; and, for ``head_to_head``, each battle's results."""
    confirmed = _confirmed(campaign)
    if head_to_head:
        results, meetings = results_and_meetings(campaign)
    else:
        results, meetings = _results(campaign), []
    enemies = dict(
        WarriorOutcome.objects.filter(participant__in=confirmed)
        .values("participant__warband")
        .annotate(n=Sum("enemies_out_of_action"))
        .values_list("participant__warband", "n")
    )
    # The rulebook's rating (rules.warband_rating; services.rating_expression says the same
    # for one warband): group size × (5, 20 for large creatures or a hired sword's own value,
    # + experience) over the
    # warriors fighting for it (a captive leaves it while held). tests/league/test_standings.py
    # checks it against the roster.
    per_warrior = RATING_BASE
    ratings = dict(
        Warrior.objects.fighting()
        .filter(warband__campaign=campaign)
        .values("warband")
        .annotate(total=Sum(F("group_size") * (per_warrior + F("experience"))))
        .values_list("warband", "total")
    )
    return results, enemies, ratings, meetings


def league_table(
    campaign: Campaign,
    *,
    sort: str = DEFAULT_SORT,
    direction: str = "",
) -> list[Row]:
    """Every warband that plays in the campaign. By default in the campaign's ranking:
    points, then its tie-breakers; rows no tie-breaker parts share a rank (1, 2, 2, 4),
    listed by name. Sorted by another column, rows equal in it keep the ranking's order, and
    share a rank only when the ranking ties them too. Warbands without battles have zeroes,
    not gaps."""
    if sort not in COLUMNS:
        sort = DEFAULT_SORT
    direction = direction if direction in ("asc", "desc") else COLUMNS[sort][1]
    order = campaign.tie_breaker_order
    results, enemies, ratings, meetings = _figures(
        campaign, head_to_head=ranking.HEAD_TO_HEAD in order
    )
    warbands = (
        Warband.objects.filter(
            campaign=campaign, status__in=[Warband.Status.DRAFT, Warband.Status.ACTIVE]
        )
        .select_related("owner", "warband_type")
        .only("name", "status", "campaign", "owner__username", "warband_type__name")
    )
    scoring = campaign.scoring
    rows = {}
    for warband in warbands:
        warband.campaign = campaign
        found = results.get(warband.pk, {})
        row = Row(
            rank=0,
            warband=warband,
            rating=ratings.get(warband.pk) or 0,
            played=found.get("played", 0),
            won=found.get("won", 0),
            drawn=found.get("drawn", 0),
            lost=found.get("lost", 0),
            enemies_ooa=enemies.get(warband.pk) or 0,
            experience=found.get("experience") or 0,
        )
        rows[warband.pk] = replace(row, points=_record(row).points(scoring))
    tiers = ranking.standings(
        (_record(row) for row in rows.values()),
        scoring=scoring,
        tie_breakers=order,
        meetings=meetings,
    )
    ranked = [
        replace(rows[record.key], tier=tier) for tier, group in enumerate(tiers) for record in group
    ]
    if sort == DEFAULT_SORT:
        if direction == "asc":
            ranked.sort(key=lambda row: row.tier, reverse=True)  # stable: names stay in order
        same = lambda row: row.tier  # noqa: E731
    else:
        ranked.sort(key=lambda row: row.figure(sort), reverse=direction == "desc")
        same = lambda row: (row.figure(sort), row.tier)  # noqa: E731
    shown, previous, rank = [], object(), 0
    for position, row in enumerate(ranked, start=1):
        if same(row) != previous:
            rank, previous = position, same(row)
        shown.append(replace(row, rank=rank))
    return shown


def _record(row: Row) -> ranking.Record:
    return ranking.Record(
        key=row.warband.pk,
        name=row.warband.name,
        won=row.won,
        drawn=row.drawn,
        lost=row.lost,
        enemies_ooa=row.enemies_ooa,
        rating=row.rating,
    )


__all__ = ["COLUMNS", "DEFAULT_SORT", "Row", "league_table", "results_and_meetings"]
