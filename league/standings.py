"""The league table, computed from confirmed battles.

Public figures only: rating, battles, results, enemies put out of action, experience gained.
Never the treasury (gold and wyrdstone are secret).

Four grouped queries whatever the league's size (results per warband, enemies put out of
action per warband, ratings per warband, the warbands themselves); the rows are joined and
sorted in Python, text columns without regard to case.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import Count, F, Q, Sum

from battles.models import Battle, Participant, WarriorOutcome
from campaign.models import Campaign
from warbands.models import RATING_BASE, Warband, Warrior

# column key → (heading, default direction, full name when the heading is abbreviated)
COLUMNS: dict[str, tuple[str, str, str]] = {
    "warband": ("Warband", "asc", ""),
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
DEFAULT_SORT = "won"
_TIE_BREAKERS = ("won", "drawn", "rating")  # all descending, then the name


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

    def figure(self, column: str):
        """The value the table sorts ``column`` by (text without regard to case)."""
        if column == "warband":
            return self.warband.name.casefold()
        if column == "player":
            return self.warband.owner.username.casefold()
        if column == "type":
            return self.warband.warband_type.name.casefold()
        return getattr(self, column)


def _figures(campaign: Campaign) -> tuple[dict, dict, dict]:
    """Per warband: its results in confirmed battles, the enemies its warriors put out of
    action in them, and its rating now."""
    confirmed = Participant.objects.filter(
        battle__campaign=campaign, battle__status=Battle.Status.CONFIRMED
    )
    results = {
        row["warband"]: row
        for row in confirmed.values("warband").annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(result=Participant.Result.WON)),
            drawn=Count("pk", filter=Q(result=Participant.Result.DRAW)),
            lost=Count("pk", filter=Q(result=Participant.Result.LOST)),
            experience=Sum("experience_gained"),
        )
    }
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
    return results, enemies, ratings


def league_table(campaign: Campaign, *, sort: str = DEFAULT_SORT, direction: str = "") -> list[Row]:
    """Every warband that plays in the campaign, sorted by ``sort``; ties are broken by wins,
    draws and rating, and rows equal on all of those share a rank (1, 2, 2, 4), listed by
    name. Warbands without battles have zeroes, not gaps."""
    if sort not in COLUMNS:
        sort = DEFAULT_SORT
    direction = direction if direction in ("asc", "desc") else COLUMNS[sort][1]
    ranking = [(sort, direction)]
    ranking += [(key, "desc") for key in _TIE_BREAKERS if key != sort]
    results, enemies, ratings = _figures(campaign)
    warbands = (
        Warband.objects.filter(
            campaign=campaign, status__in=[Warband.Status.DRAFT, Warband.Status.ACTIVE]
        )
        .select_related("owner", "warband_type")
        .only("name", "status", "campaign", "owner__username", "warband_type__name")
    )
    rows = []
    for warband in warbands:
        warband.campaign = campaign
        found = results.get(warband.pk, {})
        rows.append(
            Row(
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
        )
    # Sorted by the name first, then by each key from the last to the first (sorts are stable).
    rows.sort(key=lambda row: row.figure("warband"))
    for key, way in reversed(ranking):
        rows.sort(key=lambda row, key=key: row.figure(key), reverse=way == "desc")
    ranked = []
    previous_key, rank = object(), 0
    for position, row in enumerate(rows, start=1):
        key = tuple(row.figure(column) for column, _ in ranking)
        if key != previous_key:
            rank, previous_key = position, key
        ranked.append(replace(row, rank=rank))
    return ranked


__all__ = ["COLUMNS", "DEFAULT_SORT", "Row", "league_table"]
