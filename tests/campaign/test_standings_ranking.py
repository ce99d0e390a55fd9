"""The pure ranking of a league table (``campaign.rules.standings``), entry by entry: the
points for each result, each tie-breaker alone and in every order, head-to-head among three,
and ties nothing breaks."""

import itertools

import pytest

from campaign.rules.standings import (
    DEFAULT_TIE_BREAKERS,
    ENEMIES,
    HEAD_TO_HEAD,
    PLAYED,
    RATING,
    TIE_BREAKERS,
    Record,
    Scoring,
    head_to_head,
    parse_tie_breakers,
    ranks,
    standings,
)

DEFAULT = Scoring()


def names(tiers) -> list[list[str]]:
    return [[record.name for record in tier] for tier in tiers]


def order(tiers) -> list[str]:
    return [record.name for tier in tiers for record in tier]


# --- Points ---------------------------------------------------------------------------------


def test_the_default_points_are_the_league_tools_three_one_nothing():
    assert (DEFAULT.win, DEFAULT.draw, DEFAULT.loss, DEFAULT.played) == (3, 1, 0, 0)
    assert DEFAULT_TIE_BREAKERS == (HEAD_TO_HEAD, ENEMIES, RATING, PLAYED)


@pytest.mark.parametrize(
    ("result", "points"), [("won", 5 + 2), ("draw", 2 + 2), ("lost", 1 + 2), ("other", 0)]
)
def test_each_result_brings_its_points_and_playing_adds_to_every_one(result, points):
    assert Scoring(win=5, draw=2, loss=1, played=2).of(result) == points


def test_a_record_sums_its_results_points_and_its_battles_played():
    record = Record(1, "Reavers", won=2, drawn=1, lost=3)

    assert record.played == 6
    assert record.points(DEFAULT) == 7
    assert record.points(Scoring(win=2, draw=1, loss=0, played=1)) == 2 * 2 + 1 + 6


def test_points_rank_first_whatever_the_tie_breakers():
    leader = Record(1, "Zealots", won=3, enemies_ooa=0, rating=50)
    second = Record(2, "Avengers", won=2, drawn=2, enemies_ooa=30, rating=500)

    for breakers in itertools.permutations(TIE_BREAKERS):
        assert order(standings([second, leader], scoring=DEFAULT, tie_breakers=breakers)) == [
            "Zealots", "Avengers"]  # fmt: skip


# --- Each tie-breaker alone, and in every order ---------------------------------------------

# Four warbands on 6 points each (3 for a win, 1 for a draw). Among themselves: A beat B and D,
# B beat D, B and C drew: head-to-head A 6, B 4, C 1, D 0.
A = Record(1, "A", won=2, drawn=0, lost=0, enemies_ooa=3, rating=120)  # played 2
B = Record(2, "B", won=1, drawn=3, lost=2, enemies_ooa=9, rating=100)  # played 6
C = Record(3, "C", won=1, drawn=3, lost=0, enemies_ooa=7, rating=200)  # played 4
D = Record(4, "D", won=2, drawn=0, lost=3, enemies_ooa=5, rating=150)  # played 5
MEETINGS = [
    {1: "won", 2: "lost"},
    {1: "won", 4: "lost"},
    {2: "won", 4: "lost"},
    {2: "draw", 3: "draw"},
    {3: "won", 9: "lost"},  # against a warband outside the tie: not head-to-head
]
BY = {
    HEAD_TO_HEAD: ["A", "B", "C", "D"],
    ENEMIES: ["B", "C", "D", "A"],
    RATING: ["C", "D", "A", "B"],
    PLAYED: ["B", "D", "C", "A"],  # more games played ranks higher
}


def test_the_four_are_level_on_points():
    assert {record.points(DEFAULT) for record in (A, B, C, D)} == {6}


@pytest.mark.parametrize("breaker", list(TIE_BREAKERS))
def test_each_tie_breaker_alone_orders_the_level_warbands(breaker):
    tiers = standings([D, C, B, A], scoring=DEFAULT, tie_breakers=[breaker], meetings=MEETINGS)

    assert names(tiers) == [[name] for name in BY[breaker]]


@pytest.mark.parametrize("breakers", list(itertools.permutations(TIE_BREAKERS)))
def test_every_order_of_the_tie_breakers_ranks_by_the_first_that_parts_them(breakers):
    tiers = standings([A, B, C, D], scoring=DEFAULT, tie_breakers=breakers, meetings=MEETINGS)

    assert order(tiers) == BY[breakers[0]]


def test_a_later_tie_breaker_parts_what_an_earlier_leaves_level():
    first = Record(1, "First", won=1, enemies_ooa=4, rating=90)
    second = Record(2, "Second", won=1, enemies_ooa=4, rating=110)
    third = Record(3, "Third", won=1, enemies_ooa=2, rating=300)

    tiers = standings([first, second, third], scoring=DEFAULT, tie_breakers=[ENEMIES, RATING])

    assert names(tiers) == [["Second"], ["First"], ["Third"]]


def test_head_to_head_counts_only_the_battles_among_the_tied_warbands():
    assert head_to_head([A, B, C, D], MEETINGS, DEFAULT) == {1: 6, 2: 4, 3: 1, 4: 0}
    # Between B and C alone: their draw only.
    assert head_to_head([B, C], MEETINGS, DEFAULT) == {2: 1, 3: 1}


def test_head_to_head_in_a_battle_of_four_counts_each_tied_warbands_own_result():
    meeting = {1: "won", 2: "lost", 3: "lost", 7: "lost"}

    assert head_to_head([B, C], [meeting], DEFAULT) == {2: 0, 3: 0}
    assert head_to_head([A, B], [meeting], Scoring(played=1)) == {1: 4, 2: 1}


# --- Head-to-head among three ---------------------------------------------------------------

X = Record(1, "X", won=2, lost=1, enemies_ooa=2, rating=100)
Y = Record(2, "Y", won=2, lost=1, enemies_ooa=8, rating=100)
Z = Record(3, "Z", won=2, lost=1, enemies_ooa=5, rating=100)
LEADER = Record(4, "Leader", won=4)


def test_a_three_way_head_to_head_ranks_by_the_mini_table_and_the_rest_go_on():
    # X beat Y and Z, Y and Z drew: mini-table X 6, Y 1, Z 1; Y and Z go to enemies.
    meetings = [{1: "won", 2: "lost"}, {1: "won", 3: "lost"}, {2: "draw", 3: "draw"}]

    tiers = standings(
        [X, Y, Z, LEADER], scoring=DEFAULT, tie_breakers=[HEAD_TO_HEAD, ENEMIES], meetings=meetings
    )

    assert names(tiers) == [["Leader"], ["X"], ["Y"], ["Z"]]


def test_a_three_way_head_to_head_it_cannot_break_falls_to_the_next_tie_breaker():
    # Each beat one and lost to one among them: 3 points each. The leader's wins over them
    # are not among the tied warbands' battles.
    meetings = [
        {1: "won", 2: "lost"},
        {2: "won", 3: "lost"},
        {3: "won", 1: "lost"},
        {4: "won", 1: "lost"},
    ]

    tiers = standings(
        [X, Y, Z, LEADER], scoring=DEFAULT, tie_breakers=[HEAD_TO_HEAD, ENEMIES], meetings=meetings
    )

    assert names(tiers) == [["Leader"], ["Y"], ["Z"], ["X"]]


def test_warbands_that_never_met_are_level_head_to_head():
    tiers = standings([X, Y], scoring=DEFAULT, tie_breakers=[HEAD_TO_HEAD, ENEMIES], meetings=[])

    assert names(tiers) == [["Y"], ["X"]]


def test_a_tie_nothing_breaks_shares_a_tier_listed_by_name_without_regard_to_case():
    meetings = [{1: "draw", 2: "draw"}]
    zeal = Record(1, "zealots", won=1, enemies_ooa=3, rating=80)
    ash = Record(2, "Ash Guard", won=1, enemies_ooa=3, rating=80)
    last = Record(3, "Ash Wardens", lost=1)

    tiers = standings(
        [zeal, last, ash], scoring=DEFAULT, tie_breakers=DEFAULT_TIE_BREAKERS, meetings=meetings
    )

    assert names(tiers) == [["Ash Guard", "zealots"], ["Ash Wardens"]]
    assert ranks(tiers) == {2: 1, 1: 1, 3: 3}


def test_with_no_tie_breaker_the_level_share_a_place():
    tiers = standings([X, Y, Z], scoring=DEFAULT, tie_breakers=[])

    assert names(tiers) == [["X", "Y", "Z"]]


def test_ranks_skip_the_places_a_shared_rank_takes():
    one, two, three, four = (Record(n, str(n)) for n in range(1, 5))

    assert ranks([[one], [two, three], [four]]) == {1: 1, 2: 2, 3: 2, 4: 4}


@pytest.mark.parametrize("breakers", [[ENEMIES, ENEMIES], ["gold"], [RATING, "name"]])
def test_a_tie_breaker_twice_or_unknown_is_refused(breakers):
    with pytest.raises(ValueError, match="distinct"):
        standings([X], scoring=DEFAULT, tie_breakers=breakers)


def test_a_stored_order_is_read_back_without_unknown_or_repeated_keys():
    assert parse_tie_breakers("rating, head_to_head,rating,gold,") == (RATING, HEAD_TO_HEAD)
    assert parse_tie_breakers("") == ()
