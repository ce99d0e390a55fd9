"""The league table, its page and its CSV file under the campaign's own points and
tie-breakers, the awards beside it, and the treasury's secret kept from both while the
campaign runs."""

import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import services as campaign_services
from campaign.standings import set_standings_rules
from league.standings import league_table
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    change_secrets,
    hide_secrets,
    mustered_warband,
    record,
)
from tests.league.test_campaign_lists import table_rows
from tests.league.test_standings import league
from tests.secrets import assert_unchanged_by_secrets, contains_value
from tests.sharing import per_test, shared_per_module
from warbands.treasury import totals

pytestmark = pytest.mark.django_db


def enemies(warband, n):
    """``n`` enemies put out of action by the warband's captain."""
    return [(warband.warriors.order_by("pk").first(), False, n)]


def build() -> dict:
    """Reavers, Scourge and Templars, each beaten once by another, then a battle of the three
    the Reavers won: Reavers 6 points, Scourge and Templars 3. Between those two, the Scourge
    won their head-to-head; the Templars put more enemies out of action (5 to 1)."""
    campaign = CampaignFactory(name="Three Towers")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    templars = mustered_warband(campaign=campaign, name="Templars")
    record(
        campaign,
        organiser,
        [(reavers, "won", False), (scourge, "lost", True)],
        outcomes={reavers: enemies(reavers, 2), scourge: enemies(scourge, 1)},
    )
    record(
        campaign,
        organiser,
        [(scourge, "won", False), (templars, "lost", True)],
        outcomes={templars: enemies(templars, 2)},
    )
    record(
        campaign,
        organiser,
        [(templars, "won", False), (reavers, "lost", True)],
        outcomes={templars: enemies(templars, 3)},
    )
    record(campaign, organiser, [(reavers, "won", False), (scourge, "lost", True),
                                 (templars, "lost", True)])  # fmt: skip
    return {"campaign": campaign, "organiser": organiser, "reavers": reavers,
            "scourge": scourge, "templars": templars}  # fmt: skip


@pytest.fixture(scope="module")
def _three_built(request, django_db_setup, django_db_blocker):
    yield from shared_per_module(request, django_db_blocker, build)


@pytest.fixture
def three(_three_built, db):
    return per_test(_three_built, build)


def table_page(client, campaign, **query) -> str:
    response = client.get(reverse("campaign_table", args=[campaign.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def points_column(page: str) -> list[int]:
    return [int(n) for n in re.findall(r"<td><strong>(\d+)</strong></td>", page)]


def standings_file(client, campaign) -> list[list[str]]:
    response = client.get(reverse("standings_export", args=[campaign.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_by_default_points_then_head_to_head_rank_the_table(three):
    table = league_table(three["campaign"])

    assert [(r.rank, r.warband.name, r.points, r.played) for r in table] == [
        (1, "Reavers", 6, 3), (2, "Scourge", 3, 3), (3, "Templars", 3, 3)]  # fmt: skip
    assert [r.enemies_ooa for r in table] == [2, 1, 5]


def test_the_table_page_and_the_file_follow_the_chosen_order(client, three):
    campaign = three["campaign"]
    set_standings_rules(campaign, actor=three["organiser"], win_points=2, draw_points=1,
                        loss_points=1, played_points=1, tie_breakers=["enemies_ooa"])  # fmt: skip
    client.force_login(three["scourge"].owner)

    page = table_page(client, campaign)
    rows = standings_file(client, campaign)

    assert table_rows(page) == [(1, "Reavers"), (2, "Templars"), (3, "Scourge")]
    assert points_column(page) == [8, 7, 7]
    assert (
        "2 points for a win, 1 for a draw, 1 for a loss, plus 1 for playing; ties broken "
        "by enemies put out of action, then name" in page
    )
    assert [row[:2] + row[3:9] for row in rows[1:]] == [
        ["1", "Reavers", three["reavers"].owner.username, "8", "3", "2", "0", "1"],
        ["2", "Templars", three["templars"].owner.username, "7", "3", "1", "0", "2"],
        ["3", "Scourge", three["scourge"].owner.username, "7", "3", "1", "0", "2"],
    ]
    assert {row[2] for row in rows[1:]} == {"Reikland Mercenaries"}


def test_a_change_of_rules_shows_on_the_table_at_once(
    client, three, fragment_cache, django_capture_on_commit_callbacks
):
    campaign = three["campaign"]
    client.force_login(three["templars"].owner)
    assert table_rows(table_page(client, campaign))[1:] == [(2, "Scourge"), (3, "Templars")]
    assert table_rows(table_page(client, campaign))[1:] == [(2, "Scourge"), (3, "Templars")]

    client.force_login(three["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        saved = client.post(
            reverse("standings_rules", args=[campaign.pk]),
            {"win_points": 3, "draw_points": 1, "loss_points": 0, "played_points": 0},
        )
    assert saved.status_code == 302
    client.force_login(three["templars"].owner)

    assert table_rows(table_page(client, campaign))[1:] == [(2, "Scourge"), (2, "Templars")]


def test_sorting_by_a_column_keeps_working_and_the_points_sort_both_ways(client, three):
    campaign = three["campaign"]
    client.force_login(three["organiser"])

    by_enemies = table_rows(table_page(client, campaign, sort="enemies_ooa", dir="desc"))
    upwards = table_rows(table_page(client, campaign, sort="points", dir="asc"))

    assert [name for _, name in by_enemies] == ["Templars", "Reavers", "Scourge"]
    assert [name for _, name in upwards] == ["Templars", "Scourge", "Reavers"]


def test_the_header_names_the_points_column_and_the_file_keeps_the_figures(client, three):
    client.force_login(three["organiser"])

    page = table_page(client, three["campaign"])
    header = standings_file(client, three["campaign"])[0]

    assert '<abbr title="Points">Pts</abbr>' in page
    assert header[:5] == ["Rank", "Warband", "Warband list", "Player", "Points"]
    assert header[-1] == "Awards"


# --- Awards ---------------------------------------------------------------------------------


def test_the_awards_of_a_running_campaign_leave_out_the_richest(client, three):
    client.force_login(three["reavers"].owner)

    page = table_page(client, three["campaign"])
    rows = {row[1]: row[-1] for row in standings_file(client, three["campaign"])[1:]}

    awards = page[page.index('data-testid="awards"') :]
    assert "<dt>Most enemies put out of action</dt><dd>Templars" in awards
    assert "<dt>Most battles played</dt><dd>Reavers, Scourge, Templars" in awards
    assert "Richest warband</dt>" not in awards
    assert "told once the campaign is closed" in awards
    assert rows == {
        "Reavers": "Most battles played",
        "Scourge": "Most battles played",
        "Templars": "Most enemies put out of action; Most battles played",
    }


@pytest.mark.parametrize("status", ["closed", "archived"])
def test_the_richest_warband_is_told_once_the_campaign_is_over(client, three, status):
    campaign = three["campaign"]
    hide_secrets(three["reavers"])  # the Reavers keep 37 gc in the chest: poorer
    richest = totals(three["scourge"])["gold"]
    campaign_services.set_campaign_status(campaign, actor=three["organiser"], status=status)
    client.force_login(three["reavers"].owner)

    page = table_page(client, campaign)
    rows = {row[1]: row[-1] for row in standings_file(client, campaign)[1:]}

    assert (
        f'<dt>Richest warband</dt><dd>Scourge, Templars <small class="muted">({richest} gc)' in page
    )
    assert "Richest warband" in rows["Scourge"]
    assert "Richest warband" not in rows["Reavers"]
    assert not contains_value(rows["Scourge"], richest)  # the file names the award only


def test_an_opponent_reads_no_treasury_figure_while_the_campaign_runs(client, three):
    campaign = three["campaign"]
    reavers = three["reavers"]
    secrets = hide_secrets(reavers)
    client.force_login(three["scourge"].owner)
    table = reverse("campaign_table", args=[campaign.pk])
    partial = {"HX-Request": "true", "HX-Target": "league-table"}
    fetches = {
        "page": lambda: client.get(table).content.decode(),
        "sorted page": lambda: client.get(table, {"sort": "rating"}).content.decode(),
        "partial": lambda: client.get(table, {"sort": "won"}, headers=partial).content.decode(),
        "csv": lambda: client.get(
            reverse("standings_export", args=[campaign.pk])).content.decode("utf-8-sig"),
    }  # fmt: skip

    for name, fetch in fetches.items():
        body = fetch()
        assert "Richest" not in body.replace("The richest warband is told", ""), name
        assert " gc" not in body and "wyrdstone" not in body, name
        for value in secrets:
            assert not contains_value(body, value), (name, value)
        assert_unchanged_by_secrets(fetch, lambda: change_secrets(reavers))


# --- Queries --------------------------------------------------------------------------------


def test_the_table_page_and_the_file_cost_the_same_queries_in_a_larger_league(client):
    def queries(campaign, name) -> int:
        client.force_login(MembershipFactory(campaign=campaign).user)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse(name, args=[campaign.pk])).status_code == 200
        return len(captured)

    small, _ = league(warbands=3, battles=4, seed=2)
    large, _ = league(warbands=8, battles=12, seed=2)
    for campaign in (small, large):
        campaign_services.set_campaign_status(
            campaign, actor=campaign.memberships.organisers().first().user, status="closed"
        )  # the richest award's query too

    for name in ("campaign_table", "standings_export"):
        assert queries(small, name) == queries(large, name), name


def test_head_to_head_costs_no_query_more(three):
    campaign = three["campaign"]

    with CaptureQueriesContext(connection) as with_it:
        league_table(campaign)
    set_standings_rules(campaign, actor=three["organiser"], win_points=3, draw_points=1,
                        loss_points=0, played_points=0, tie_breakers=["rating"])  # fmt: skip
    with CaptureQueriesContext(connection) as without_it:
        league_table(campaign)

    assert len(with_it) == len(without_it) == 4
