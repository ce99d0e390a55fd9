"""Who plays whom in a round: pure pairing rules over (warband id, rating, name, past
opponents). No ORM, no randomness: the order is always rating, then name, then id, so the same
league gives the same pairings every time.

Three ways to pair (the organiser picks one for each round):
- ``round_robin``: the circle method, one warband fixed and the others turning one place a
  round; with an odd number a bye turns with them, so every warband sits out once per cycle;
- ``closest_rating``: each warband against the nearest in rating that it has not met yet, a
  repeat only when no pairing without one exists (the result says which games repeat);
- ``by_hand``: the organiser's own games, checked (two to four warbands each, none twice).

With an odd number the organiser may ask for one game of three instead of a bye
(``three_way``): the warband that would sit out joins a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.errors import RuleViolation

MOST_IN_A_GAME = 4
#: How many choices the search for a pairing without repeats tries before it allows one more
#: repeat: the leagues are small, and a search that gives up early still finds a pairing.
SEARCH_LIMIT = 20_000


@dataclass(frozen=True)
class Entrant:
    """A warband as the pairing rules see it."""

    id: int
    rating: int
    name: str = ""
    met: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Pairing:
    """The games of a round (warband ids, each game in the order drawn), who sits out (the
    bye, or None) and the pairs in it that met before."""

    games: tuple[tuple[int, ...], ...]
    bye: int | None = None
    repeats: tuple[tuple[int, int], ...] = ()


def ordered(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Highest rating first, then by name, then by id: the one order every rule starts from."""
    return sorted(entrants, key=lambda e: (-e.rating, e.name, e.id))


def _check(entrants: Sequence[Entrant]) -> None:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise RuleViolation("A warband is in the round twice.")
    if len(ids) < 2:
        raise RuleViolation("A round needs at least two warbands to pair.")


def repeats_in(games: Sequence[Sequence[int]], entrants: Sequence[Entrant]) -> tuple:
    """The pairs of warbands in the same game that met before."""
    met = {e.id: e.met for e in entrants}
    found = []
    for game in games:
        for i, first in enumerate(game):
            for second in game[i + 1 :]:
                if second in met.get(first, ()) or first in met.get(second, ()):
                    found.append((first, second))
    return tuple(found)


def _with_three(games: list[list[int]], bye: int | None, entrants, *, nearest: bool):
    """The bye joins a game: the one nearest its rating (``nearest``), or else the first."""
    if bye is None:
        return games, None
    if not games:
        raise RuleViolation("A game of three needs at least three warbands.")
    if nearest:
        rating = {e.id: e.rating for e in entrants}
        index = min(
            range(len(games)),
            key=lambda i: (abs(sum(rating[w] for w in games[i]) / 2 - rating[bye]), i),
        )
    else:
        index = 0
    games[index] = [*games[index], bye]
    return games, None


def round_robin(entrants: Sequence[Entrant], round_index: int, *, three_way=False) -> Pairing:
    """Round ``round_index`` (0 for the first) of the circle method. The circle is laid out in
    the order of the warbands' ids (the order they joined), not by rating, so that the
    rounds of one cycle stay a cycle while ratings change: over ``n - 1`` rounds (``n`` for
    an odd number) every warband meets every other once."""
    _check(entrants)
    circle: list[int | None] = sorted(e.id for e in entrants)
    if len(circle) % 2:
        circle.append(None)  # the bye
    n = len(circle)
    turn = round_index % (n - 1)
    rest = circle[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    seats = [circle[0], *rest]
    games, bye = [], None
    for i in range(n // 2):
        first, second = seats[i], seats[n - 1 - i]
        if first is None or second is None:
            bye = second if first is None else first
            continue
        games.append([first, second])
    if three_way:
        games, bye = _with_three(games, bye, entrants, nearest=False)
    return Pairing(tuple(map(tuple, games)), bye, repeats_in(games, entrants))


def closest_rating(entrants: Sequence[Entrant], *, three_way=False) -> Pairing:
    """Each warband, highest rating first, against the nearest in rating it has not met; the
    first full pairing found in that order with the fewest repeats. With an odd number the
    bye goes to the lowest-rated warband that leaves such a pairing."""
    _check(entrants)
    order = ordered(entrants)
    met = {e.id: e.met for e in order}
    rank = {e.id: i for i, e in enumerate(order)}
    rating = {e.id: e.rating for e in order}
    odd = len(order) % 2 == 1
    for allowed in range(len(order) // 2 + 1):
        budget = [SEARCH_LIMIT]
        found = _search([e.id for e in order], met, rating, rank, allowed, odd, budget)
        if found is not None:
            games, bye = found
            break
    else:  # pragma: no cover - the last pass allows a repeat in every game
        raise RuleViolation("No pairing was found.")
    games = [list(g) for g in games]
    if three_way:
        games, bye = _with_three(games, bye, entrants, nearest=True)
    return Pairing(tuple(map(tuple, games)), bye, repeats_in(games, entrants))


def _search(left, met, rating, rank, allowed, bye_open, budget):
    """Depth first: the first warband left pairs with the nearest in rating (ties to the
    higher rated), or takes the bye; ``allowed`` repeats at most. (games, bye) or None."""
    if not left:
        return [], None
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, others = left[0], left[1:]
    partners = sorted(others, key=lambda o: (abs(rating[first] - rating[o]), rank[o]))
    # the bye is tried before any repeat, lowest rated first, for the last warbands down
    for partner in partners:
        repeat = partner in met[first] or first in met[partner]
        if repeat and not allowed:
            continue
        rest = [w for w in others if w != partner]
        found = _search(rest, met, rating, rank, allowed - repeat, bye_open, budget)
        if found is not None:
            return [(first, partner), *found[0]], found[1]
    if bye_open:
        found = _search(others, met, rating, rank, allowed, False, budget)
        if found is not None:
            return found[0], first
    return None


def by_hand(games: Sequence[Sequence[int]], entrants: Sequence[Entrant]) -> Pairing:
    """The organiser's games, checked: each of two to four of the round's warbands, none in
    two games. Whoever is in no game sits out; repeats are allowed and reported."""
    known = {e.id for e in entrants}
    seen: set[int] = set()
    for game in games:
        if not 2 <= len(game) <= MOST_IN_A_GAME:
            raise RuleViolation(f"A game is between two and {MOST_IN_A_GAME} warbands.")
        if len(set(game)) != len(game):
            raise RuleViolation("A warband cannot play against itself.")
        if not set(game) <= known:
            raise RuleViolation("Choose warbands of this campaign that are playing.")
        if seen & set(game):
            raise RuleViolation("A warband is already in another game of this round.")
        seen |= set(game)
    return Pairing(tuple(tuple(g) for g in games), None, repeats_in(games, entrants))
