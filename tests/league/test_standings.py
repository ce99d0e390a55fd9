"""The league table against figures computed independently from the factory's battles."""

import itertools
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle, Participant
from league.standings import COLUMNS, league_table
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband, record
from warbands import rules, services
from warbands.models import Warband

pytestmark = pytest.mark.django_db


def league(warbands: int, battles: int, seed: int = 7):
    """A campaign of ``warbands`` warbands and ``battles`` confirmed battles between random
    pairs, with random outcomes; plus one battle still waiting for confirmation, which must
    not count. Returns the campaign and the expected figures, computed here in Python."""
    rng = random.Random(seed)
    campaign = CampaignFactory()
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    bands = [mustered_warband(campaign=campaign, name=f"Band {n:02d}") for n in range(warbands)]
    expected = {
        w.pk: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "enemies_ooa": 0} for w in bands
    }
    for _ in range(battles):
        first, second = rng.sample(bands, 2)
        outcome = rng.choice(["first", "second", "draw"])
        results = {
            "first": [(first, "won", False), (second, "lost", True)],
            "second": [(first, "lost", True), (second, "won", False)],
            "draw": [(first, "draw", False), (second, "draw", False)],
        }[outcome]
        outcomes = {}
        for warband in (first, second):
            warriors = list(warband.warriors.all())
            lines = [(w, rng.random() < 0.3, rng.randint(0, 2)) for w in warriors]
            outcomes[warband] = lines
            expected[warband.pk]["enemies_ooa"] += sum(line[2] for line in lines)
        record(campaign, organiser, results, outcomes=outcomes)
        for warband, result, _ in results:
            figures = expected[warband.pk]
            figures["played"] += 1
            figures[{"won": "won", "draw": "drawn", "lost": "lost"}[result]] += 1
    for warband in bands:
        Participant.objects.filter(warband=warband).update(experience_gained=rng.randint(0, 9))
        expected[warband.pk]["experience"] = sum(
            Participant.objects.filter(warband=warband).values_list("experience_gained", flat=True)
        )
        expected[warband.pk]["rating"] = rules.warband_rating(
            w.rated for w in services.roster(warband)
        )
    # A battle nobody confirmed yet counts for nothing.
    pending = Battle.objects.create(campaign=campaign, scenario="Pending", reported_by=organiser)
    Participant.objects.create(battle=pending, warband=bands[0], result="won", rating_before=1)
    Participant.objects.create(battle=pending, warband=bands[1], result="lost", rating_before=1)
    return campaign, expected


def test_league_table_figures_are_computed_from_confirmed_battles():
    campaign, expected = league(warbands=6, battles=15)

    table = league_table(campaign)

    assert len(table) == 6
    for row in table:
        figures = expected[row.warband.pk]
        assert (row.played, row.won, row.drawn, row.lost) == (
            figures["played"],
            figures["won"],
            figures["drawn"],
            figures["lost"],
        ), row.warband.name
        assert row.enemies_ooa == figures["enemies_ooa"]
        assert row.experience == figures["experience"]
        assert row.rating == figures["rating"]
    assert sum(row.played for row in table) == 30
    # What the table shows of each warband is the warband's own (read with the figures).
    for row in table:
        stored = Warband.objects.select_related("owner", "warband_type").get(pk=row.warband.pk)
        shown = row.warband
        assert (shown.name, shown.status, shown.is_draft, shown.campaign_id) == (
            stored.name, stored.status, stored.is_draft, stored.campaign_id)  # fmt: skip
        assert (shown.owner.username, shown.warband_type.name) == (
            stored.owner.username, stored.warband_type.name)  # fmt: skip
    assert sum(row.won for row in table) == sum(row.lost for row in table)


def test_the_default_order_is_points_then_the_tie_breakers_and_ties_share_a_rank():
    campaign, _ = league(warbands=6, battles=15)
    campaign.tie_breakers = "enemies_ooa,rating"
    campaign.save(update_fields=["tie_breakers"])

    table = league_table(campaign)

    keys = [(row.points, row.enemies_ooa, row.rating) for row in table]
    assert keys == sorted(keys, reverse=True)
    assert [row.points for row in table] == [3 * r.won + r.drawn for r in table]
    for before, after in itertools.pairwise(table):
        same = (before.points, before.enemies_ooa, before.rating) == (
            after.points, after.enemies_ooa, after.rating)  # fmt: skip
        assert (after.rank == before.rank) is same
        if same:
            assert before.warband.name.casefold() < after.warband.name.casefold()


def test_every_column_sorts_both_ways():
    campaign, _ = league(warbands=5, battles=8, seed=3)

    for column in COLUMNS:
        attribute = {"warband": "name", "player": "owner", "type": "warband_type"}.get(column)
        for direction in ("asc", "desc"):
            table = league_table(campaign, sort=column, direction=direction)

            if attribute:
                values = [str(getattr(row.warband, attribute)) for row in table]
            else:
                values = [getattr(row, column) for row in table]
            assert values == sorted(values, reverse=direction == "desc"), (column, direction)
            assert [row.rank for row in table] == sorted(row.rank for row in table)


def test_an_unknown_sort_falls_back_to_the_campaigns_ranking():
    campaign, _ = league(warbands=3, battles=3)

    assert [r.warband for r in league_table(campaign, sort="gold; drop table")] == [
        r.warband for r in league_table(campaign)
    ]


def test_warbands_without_battles_show_zeroes_and_removed_ones_are_left_out():
    campaign, _ = league(warbands=3, battles=0)
    archived = mustered_warband(campaign=campaign)
    archived.status = "archived"
    archived.save()

    table = league_table(campaign)

    assert len(table) == 3
    assert {(r.played, r.won, r.enemies_ooa, r.experience) for r in table} == {(0, 0, 0, 0)}
    assert {r.rank for r in table} <= {1, 2, 3}


def test_the_campaign_page_query_count_does_not_grow_with_warbands(client):
    def queries(campaign) -> int:
        user = MembershipFactory(campaign=campaign).user
        client.force_login(user)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 200
        return len(captured)

    small, _ = league(warbands=6, battles=6, seed=1)
    large, _ = league(warbands=30, battles=6, seed=1)

    assert queries(small) == queries(large)


def test_sorting_through_htmx_swaps_the_table_only(client):
    campaign, _ = league(warbands=4, battles=4)
    client.force_login(MembershipFactory(campaign=campaign).user)

    response = client.get(
        reverse("campaign_detail", args=[campaign.pk]),
        {"sort": "rating", "dir": "asc"},
        headers={"HX-Request": "true", "HX-Target": "league-table"},
    )

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="league-table"')
    assert 'aria-sort="ascending"' in body
