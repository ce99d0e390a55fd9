"""The league table, computed from confirmed battles in one statement.

Public figures only: rating, battles, results, enemies put out of action, experience gained.
Never the treasury (gold and wyrdstone are secret).

The statement is written by hand: one pass over the campaign's confirmed participations,
grouped by warband, and one over its warriors for the ratings, joined to the warbands and
sorted by PostgreSQL (so names sort by the database's collation, as everywhere else). Written
with Django's ORM it took seven correlated subqueries, one per figure, that Django took longer
to build than PostgreSQL took to run (on the benchmark's league: about 29 ms against 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection

from battles.models import Battle, Participant, WarriorOutcome
from campaign.models import Campaign
from warbands.models import Warband, WarbandType, Warrior, WarriorType

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
# column key → what the statement sorts by
_ORDER = {
    "warband": "w.name",
    "player": "u.username",
    "type": "t.name",
    "rating": "current_rating",
    "played": "played",
    "won": "won",
    "drawn": "drawn",
    "lost": "lost",
    "enemies_ooa": "enemies_ooa",
    "experience": "experience_gained",
}
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


def _statement(order: str) -> str:
    """The league table's statement, sorted by ``order`` (built from ``_ORDER`` only)."""
    models = (Warband, WarbandType, Battle, Participant, WarriorOutcome, Warrior, WarriorType)
    table = {model.__name__: model._meta.db_table for model in models}
    user = get_user_model()._meta.db_table
    # The rating is the rulebook's (rules.warband_rating; services.rating_expression says the
    # same for the ORM): group size × (5, or 20 for large creatures, + experience) over the
    # warriors on the roster. tests/campaign/test_standings.py checks it against the roster.
    return f"""
        SELECT w.id, w.name, w.status, w.owner_id, w.warband_type_id, u.username, t.name,
            COALESCE(r.total, 0) AS current_rating, COALESCE(s.played, 0) AS played,
            COALESCE(s.won, 0) AS won, COALESCE(s.drawn, 0) AS drawn, COALESCE(s.lost, 0) AS lost,
            COALESCE(s.enemies_ooa, 0) AS enemies_ooa,
            COALESCE(s.experience_gained, 0) AS experience_gained
        FROM {table["Warband"]} w
        JOIN {user} u ON u.id = w.owner_id
        JOIN {table["WarbandType"]} t ON t.id = w.warband_type_id
        LEFT JOIN (
            SELECT p.warband_id, count(*) AS played,
                count(*) FILTER (WHERE p.result = %(won)s) AS won,
                count(*) FILTER (WHERE p.result = %(draw)s) AS drawn,
                count(*) FILTER (WHERE p.result = %(lost)s) AS lost,
                sum(p.experience_gained) AS experience_gained,
                sum((SELECT sum(o.enemies_out_of_action) FROM {table["WarriorOutcome"]} o
                     WHERE o.participant_id = p.id)) AS enemies_ooa
            FROM {table["Participant"]} p
            JOIN {table["Battle"]} b ON b.id = p.battle_id
            WHERE b.campaign_id = %(campaign)s AND b.status = %(confirmed)s
            GROUP BY p.warband_id
        ) s ON s.warband_id = w.id
        LEFT JOIN (
            SELECT x.warband_id, sum(x.group_size
                * (CASE WHEN k.is_large THEN 20 ELSE 5 END + x.experience)) AS total
            FROM {table["Warrior"]} x
            JOIN {table["WarriorType"]} k ON k.id = x.warrior_type_id
            WHERE x.status = ANY(%(on_roster)s) AND x.warband_id IN (
                SELECT id FROM {table["Warband"]} WHERE campaign_id = %(campaign)s)
            GROUP BY x.warband_id
        ) r ON r.warband_id = w.id
        WHERE w.campaign_id = %(campaign)s AND w.status = ANY(%(playing)s)
        ORDER BY {order}"""


def league_table(campaign: Campaign, *, sort: str = DEFAULT_SORT, direction: str = "") -> list[Row]:
    """Every warband that plays in the campaign, sorted by ``sort``; ties are broken by wins,
    draws and rating, and rows equal on all of those share a rank (1, 2, 2, 4), listed by
    name. Warbands without battles have zeroes, not gaps."""
    if sort not in COLUMNS:
        sort = DEFAULT_SORT
    direction = direction if direction in ("asc", "desc") else COLUMNS[sort][1]
    ranking = [(sort, direction)]
    ranking += [(key, "desc") for key in _TIE_BREAKERS if key != sort]
    order = ", ".join(f"{_ORDER[key]} {way.upper()}" for key, way in ranking) + ", w.name ASC"
    params = {
        "campaign": campaign.pk,
        "confirmed": Battle.Status.CONFIRMED,
        "won": Participant.Result.WON,
        "draw": Participant.Result.DRAW,
        "lost": Participant.Result.LOST,
        "on_roster": list(Warrior.ON_ROSTER),
        "playing": [Warband.Status.DRAFT, Warband.Status.ACTIVE],
    }
    with connection.cursor() as cursor:
        cursor.execute(_statement(order), params)
        found = cursor.fetchall()
    rows = []
    previous_key, rank = object(), 0
    for position, line in enumerate(found, start=1):
        (pk, name, status, owner_id, type_id, username, type_name, rating, played, won, drawn,
         lost, enemies_ooa, experience) = line  # fmt: skip
        warband = _warband(campaign, pk, name, status, owner_id, type_id, username, type_name)
        figures = {"warband": name, "player": username, "type": type_name, "rating": rating,
                   "played": played, "won": won, "drawn": drawn, "lost": lost,
                   "enemies_ooa": enemies_ooa, "experience": experience}  # fmt: skip
        key = tuple(figures[field] for field, _ in ranking)
        if key != previous_key:
            rank, previous_key = position, key
        rows.append(Row(rank=rank, warband=warband, rating=rating, played=played, won=won,
                        drawn=drawn, lost=lost, enemies_ooa=enemies_ooa,
                        experience=experience))  # fmt: skip
    return rows


def _warband(campaign, pk, name, status, owner_id, type_id, username, type_name) -> Warband:
    """The row's warband with what the table shows of it: its other fields are deferred (read
    only if asked for; the table never does, and its treasury is no business of the table)."""
    warband = _loaded(Warband, id=pk, campaign_id=campaign.pk, name=name, status=status,
                      owner_id=owner_id, warband_type_id=type_id)  # fmt: skip
    warband.campaign = campaign
    warband.owner = _loaded(get_user_model(), id=owner_id, username=username)
    warband.warband_type = _loaded(WarbandType, id=type_id, name=type_name)
    return warband


def _loaded(model, **values):
    """An instance as read from the database with only ``values`` (``from_db`` takes them in
    the order of the model's fields)."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[name] for name in names])


__all__ = ["COLUMNS", "DEFAULT_SORT", "Row", "league_table"]
