"""The pairing rules, pure: round robin by the circle method, closest rating without repeats,
games by hand; small and odd leagues, no repeats while another way exists, the same answer
every time."""

from itertools import combinations

import pytest

from battles.rules.pairings import Entrant, by_hand, closest_rating, round_robin
from core.errors import RuleViolation


def league(n, *, met=None, ratings=None):
    met = met or {}
    ratings = ratings or {}
    return [
        Entrant(i, ratings.get(i, 100 + 10 * i), f"W{i}", frozenset(met.get(i, ())))
        for i in range(1, n + 1)
    ]


def in_games(pairing):
    return [w for game in pairing.games for w in game]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_meets_everybody_once_in_a_cycle(n):
    entrants = league(n)
    rounds = n - 1 if n % 2 == 0 else n
    met = []
    byes = []
    for r in range(rounds):
        pairing = round_robin(entrants, r)
        assert sorted(in_games(pairing) + ([pairing.bye] if pairing.bye else [])) == list(
            range(1, n + 1)
        )
        met += [frozenset(g) for g in pairing.games]
        byes.append(pairing.bye)
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(1, n + 1), 2)), key=sorted
    )
    if n % 2:
        assert sorted(byes) == list(range(1, n + 1))  # the bye turns: each sits out once
    else:
        assert byes == [None] * rounds


def test_round_robin_of_four_first_round_is_the_circle():
    assert round_robin(league(4), 0).games == ((1, 4), (2, 3))
    assert round_robin(league(4), 1).games == ((1, 3), (4, 2))


def test_round_robin_with_three_way_puts_the_bye_in_a_game():
    pairing = round_robin(league(5), 0, three_way=True)
    assert pairing.bye is None
    assert sorted(len(g) for g in pairing.games) == [2, 3]
    assert sorted(in_games(pairing)) == [1, 2, 3, 4, 5]


def test_closest_rating_pairs_neighbours_highest_first():
    pairing = closest_rating(league(4))
    assert pairing.games == ((4, 3), (2, 1))
    assert pairing.bye is None
    assert pairing.repeats == ()


def test_closest_rating_odd_gives_the_bye_to_the_lowest():
    pairing = closest_rating(league(5))
    assert pairing.games == ((5, 4), (3, 2))
    assert pairing.bye == 1


def test_closest_rating_avoids_a_repeat_when_another_way_exists():
    pairing = closest_rating(league(4, met={4: {3}, 3: {4}}))
    assert pairing.repeats == ()
    assert {frozenset(g) for g in pairing.games} == {frozenset((4, 2)), frozenset((3, 1))}


def test_closest_rating_repeats_only_when_no_other_way_and_says_so():
    pairing = closest_rating(league(2, met={1: {2}, 2: {1}}))
    assert pairing.games == ((2, 1),)
    assert pairing.repeats == ((2, 1),)


def test_closest_rating_a_warband_who_met_everybody_repeats_once():
    met = {1: {2, 3, 4}, 2: {1}, 3: {1}, 4: {1}}
    pairing = closest_rating(league(4, met=met))
    assert len(pairing.repeats) == 1


@pytest.mark.parametrize("n", [4, 6, 7, 9])
def test_closest_rating_no_repeats_while_possible_over_rounds(n):
    """Played round after round, closest rating never repeats until every pair has met."""
    met: dict[int, set[int]] = {}
    rounds = n - 1 if n % 2 == 0 else n
    for _ in range(rounds // 2):
        pairing = closest_rating(league(n, met=met))
        assert pairing.repeats == ()
        for a, b in pairing.games:
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)


def test_closest_rating_is_deterministic_and_ties_go_by_name():
    ratings = {1: 100, 2: 100, 3: 100, 4: 100}
    first = closest_rating(league(4, ratings=ratings))
    assert first == closest_rating(list(reversed(league(4, ratings=ratings))))
    assert first.games == ((1, 2), (3, 4))


def test_closest_rating_three_way_joins_the_nearest_game():
    pairing = closest_rating(league(5), three_way=True)
    assert pairing.bye is None
    assert pairing.games == ((5, 4), (3, 2, 1))


def test_by_hand_checks_each_game():
    entrants = league(5)
    assert by_hand([[1, 2], [3, 4, 5]], entrants).games == ((1, 2), (3, 4, 5))
    for games in ([[1]], [[1, 2, 3, 4, 5]], [[1, 1]], [[1, 9]], [[1, 2], [2, 3]]):
        with pytest.raises(RuleViolation):
            by_hand(games, entrants)


def test_by_hand_reports_repeats():
    assert by_hand([[1, 2]], league(2, met={1: {2}})).repeats == ((1, 2),)


def test_a_league_of_one_is_refused():
    with pytest.raises(RuleViolation):
        closest_rating(league(1))
    with pytest.raises(RuleViolation):
        round_robin(league(1), 0)
