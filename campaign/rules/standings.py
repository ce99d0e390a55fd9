"""How a campaign ranks its warbands: points for each result, then the tie-breakers its
organiser chose, in his order. Pure: plain records in, ranked tiers out.

The defaults are the league tools' usual 3 points for a win, 1 for a draw and none for a
loss or for turning up: what players expect from a league table before anyone tells them.

A battle of three or four warbands counts as one result per warband, as each reported it
(the winner won, every other side lost or drew): nothing is split into pairs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

WON, DRAW, LOST = "won", "draw", "lost"  # battles.models.Participant.Result's values

HEAD_TO_HEAD = "head_to_head"
ENEMIES = "enemies_ooa"
RATING = "rating"
PLAYED = "played"
# key → what the organiser reads; every one ranks the higher figure first.
TIE_BREAKERS: dict[str, str] = {
    HEAD_TO_HEAD: "Head-to-head (points in battles among the tied warbands only)",
    ENEMIES: "Enemies put out of action",
    RATING: "Warband rating",
    # More games played ranks higher: a campaign lives on battles fought, and the warband
    # that reached the same points over more of them turned up more often for its league.
    PLAYED: "Games played (more ranks higher)",
}
DEFAULT_TIE_BREAKERS: tuple[str, ...] = (HEAD_TO_HEAD, ENEMIES, RATING, PLAYED)


@dataclass(frozen=True)
class Scoring:
    """Points for each result, and for playing at all (added to every result's)."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    played: int = 0

    def of(self, result: str) -> int:
        """The points one battle's ``result`` brings (none for what is not a result)."""
        by_result = {WON: self.win, DRAW: self.draw, LOST: self.loss}
        return by_result[result] + self.played if result in by_result else 0


@dataclass(frozen=True)
class Record:
    """A warband's figures in the campaign's confirmed battles (``key``: its id)."""

    key: int
    name: str
    won: int = 0
    drawn: int = 0
    lost: int = 0
    enemies_ooa: int = 0
    rating: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    def points(self, scoring: Scoring) -> int:
        return (
            self.won * scoring.win
            + self.drawn * scoring.draw
            + self.lost * scoring.loss
            + self.played * scoring.played
        )


# One confirmed battle: each warband that fought it and its result.
Meeting = dict[int, str]


def head_to_head(tied: Iterable[Record], meetings: Iterable[Meeting], scoring: Scoring) -> dict:
    """The mini-table of ``tied``: each warband's points in the battles that two or more of
    them fought, counting only their own results."""
    keys = {record.key for record in tied}
    points = dict.fromkeys(keys, 0)
    for meeting in meetings:
        among = keys.intersection(meeting)
        if len(among) < 2:
            continue
        for key in among:
            points[key] += scoring.of(meeting[key])
    return points


def _split(group: list[Record], figure: Callable[[Record], int]) -> list[list[Record]]:
    """``group`` in groups of equal ``figure``, the highest first."""
    by_figure: dict[int, list[Record]] = defaultdict(list)
    for record in group:
        by_figure[figure(record)].append(record)
    return [by_figure[value] for value in sorted(by_figure, reverse=True)]


def _break(
    group: list[Record],
    breakers: Sequence[str],
    meetings: Sequence[Meeting],
    scoring: Scoring,
) -> list[list[Record]]:
    """``group`` (equal so far) in tiers by the first tie-breaker, each tier still tied
    broken by the next ones. Head-to-head is read among the warbands tied when it is
    reached; those it leaves tied go on to the next tie-breaker, not to a second mini-table."""
    if len(group) < 2 or not breakers:
        return [group]
    first, rest = breakers[0], breakers[1:]
    if first == HEAD_TO_HEAD:
        mini = head_to_head(group, meetings, scoring)
        parts = _split(group, lambda record: mini[record.key])
    else:
        parts = _split(group, lambda record: getattr(record, first))
    return [tier for part in parts for tier in _break(part, rest, meetings, scoring)]


def standings(
    records: Iterable[Record],
    *,
    scoring: Scoring,
    tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
    meetings: Sequence[Meeting] = (),
) -> list[list[Record]]:
    """The warbands in tiers, best first: by points, then each tie-breaker in order. Warbands
    no tie-breaker separates share a tier (and a rank), listed by name without regard to
    case: the name orders the list but ranks nobody above anybody."""
    unknown = [key for key in tie_breakers if key not in TIE_BREAKERS]
    if unknown or len(set(tie_breakers)) != len(tie_breakers):
        raise ValueError(f"tie-breakers must be distinct, from {sorted(TIE_BREAKERS)}")
    by_name = sorted(records, key=lambda record: (record.name.casefold(), record.key))
    tiers = []
    for group in _split(by_name, lambda record: record.points(scoring)):
        tiers += _break(group, tie_breakers, meetings, scoring)
    return tiers


def ranks(tiers: Sequence[Sequence[Record]]) -> dict[int, int]:
    """Each warband's rank: shared within a tier, the next tier's after the places taken
    (1, 2, 2, 4)."""
    found, position = {}, 1
    for tier in tiers:
        for record in tier:
            found[record.key] = position
        position += len(tier)
    return found


def parse_tie_breakers(stored: str) -> tuple[str, ...]:
    """The stored order ("head_to_head,rating") as keys; unknown or repeated keys are dropped,
    so a row written by an older version still ranks."""
    keys: list[str] = []
    for key in stored.split(","):
        key = key.strip()
        if key in TIE_BREAKERS and key not in keys:
            keys.append(key)
    return tuple(keys)


__all__ = [
    "DEFAULT_TIE_BREAKERS",
    "DRAW",
    "ENEMIES",
    "HEAD_TO_HEAD",
    "LOST",
    "PLAYED",
    "RATING",
    "TIE_BREAKERS",
    "WON",
    "Meeting",
    "Record",
    "Scoring",
    "head_to_head",
    "parse_tie_breakers",
    "ranks",
    "standings",
]
