"""The campaign's page shows a bounded part of each long list, with a link to the rest
(``league.lists``): its size does not grow with the league."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle
from league import lists, views
from tests.factories import CampaignFactory, MembershipFactory, WarbandFactory
from tests.sharing import built_once
from warbands.models import RatingSnapshot

pytestmark = pytest.mark.django_db
WARBANDS = lists.TABLE_PAGE + 3  # more than the campaign page's head and a table page
BATTLES = lists.BATTLES_PAGE + 3
CHARTED = views.CHARTED + 2


def build_big_league() -> dict:
    """``WARBANDS`` warbands being mustered (each with its owner, a member), ``BATTLES``
    battles and ratings charted for ``CHARTED`` of the warbands, the highest the last."""
    campaign = CampaignFactory(name="The Long League")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    bands = [WarbandFactory(campaign=campaign, name=f"Band {n:02d}") for n in range(WARBANDS)]
    start = datetime.date(2026, 1, 1)
    Battle.objects.bulk_create(
        Battle(campaign=campaign, scenario=f"Fight {n:02d}", reported_by=organiser,
               fought_on=start + datetime.timedelta(days=n))
        for n in range(BATTLES)
    )  # fmt: skip
    now = timezone.now()
    RatingSnapshot.objects.bulk_create(
        RatingSnapshot(warband=band, rating=100 + 10 * n + step, taken_at=now
                       + datetime.timedelta(hours=step))
        for n, band in enumerate(bands[:CHARTED]) for step in range(3)
    )  # fmt: skip
    return {"campaign": campaign, "organiser": organiser, "bands": bands}


@pytest.fixture(scope="module")
def _big_league_built(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, build_big_league)


@pytest.fixture
def big_league(_big_league_built, db):
    return _big_league_built


def table_rows(page: str) -> list[tuple[int, str]]:
    """The league table's (rank, warband) rows in a page."""
    table = page[page.index('<div id="league-table"') :]
    table = table[: table.index("</table>")]
    return [(int(rank), name) for rank, name in re.findall(
        r'<tr>\s*<td>(\d+)</td>\s*<td><a href="/warbands/\d+/">([^<]+)</a>', table)]  # fmt: skip


def get(client, name, campaign, **query) -> str:
    response = client.get(reverse(name, args=[campaign.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_campaign_page_shows_the_head_of_the_table_and_links_to_the_whole(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    page = get(client, "campaign_detail", campaign)

    assert len(table_rows(page)) == lists.TABLE_TOP
    whole = reverse("campaign_table", args=[campaign.pk])
    assert f'href="{whole}?sort=points&amp;dir=desc"' in page
    assert f"The whole league table ({WARBANDS} warbands)" in page


def test_the_league_table_pages_hold_every_warband_once_ranked_across_pages(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    first = table_rows(get(client, "campaign_table", campaign, sort="warband", dir="asc"))
    second = table_rows(get(client, "campaign_table", campaign, sort="warband", dir="asc",
                            page=2))  # fmt: skip

    assert len(first) == lists.TABLE_PAGE
    assert len(second) == WARBANDS - lists.TABLE_PAGE
    assert [name for _, name in first + second] == [f"Band {n:02d}" for n in range(WARBANDS)]
    assert [rank for rank, _ in first + second] == list(range(1, WARBANDS + 1))


def test_a_league_table_page_past_the_end_or_not_a_number_shows_a_real_page(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    assert len(table_rows(get(client, "campaign_table", campaign, page=99))) == 3
    assert len(table_rows(get(client, "campaign_table", campaign, page="x"))) == lists.TABLE_PAGE


def test_sorting_the_league_table_page_through_htmx_swaps_the_table_only(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    response = client.get(
        reverse("campaign_table", args=[campaign.pk]),
        {"sort": "warband", "dir": "desc", "page": 2},
        headers={"HX-Request": "true", "HX-Target": "league-table"},
    )

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="league-table"')
    assert [name for _, name in table_rows(body)] == ["Band 02", "Band 01", "Band 00"]
    assert "sort=warband&amp;dir=desc&amp;page=1" in body


def test_the_campaign_page_shows_the_latest_battles_and_links_to_every_battle(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    page = get(client, "campaign_detail", campaign)

    shown = re.findall(r">Fight (\d+)</a>", page)
    assert shown == [f"{n:02d}" for n in range(BATTLES - 1, BATTLES - 1 - views.RECENT, -1)]
    assert f'href="{reverse("campaign_battles", args=[campaign.pk])}"' in page


def test_the_battles_pages_hold_every_battle_newest_first(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    first = re.findall(r">Fight (\d+)</a>", get(client, "campaign_battles", campaign))
    second = re.findall(r">Fight (\d+)</a>", get(client, "campaign_battles", campaign, page=2))

    assert len(first) == lists.BATTLES_PAGE
    assert [int(n) for n in first + second] == list(range(BATTLES - 1, -1, -1))


def test_the_campaign_page_shows_the_first_members_and_links_to_every_member(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    page = get(client, "campaign_detail", campaign)
    members = page[page.index('<ul class="members">') :]
    members = members[: members.index("</ul>")]

    assert members.count("<li>") == views.MEMBERS_SHOWN
    assert "(organiser)" in members  # organisers first
    assert f'href="{reverse("campaign_members", args=[campaign.pk])}"' in page


def test_the_members_pages_hold_every_member(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    page = get(client, "campaign_members", campaign)

    names = re.findall(r"<li>([^<]+?)(?: <small|</li>)", page[page.index('<ul class="members">') :])
    expected = [big_league["organiser"].username] + [b.owner.username for b in big_league["bands"]]
    assert len(expected) <= lists.MEMBERS_PAGE
    assert names[: len(expected)] == expected


def test_the_rating_chart_draws_and_tabulates_the_highest_rated_only(client, big_league):
    campaign = big_league["campaign"]
    client.force_login(big_league["organiser"])

    page = get(client, "campaign_detail", campaign)
    chart = page[page.index('<figure class="rating-chart">') : page.index("</figure>")]

    charted = [f"Band {n:02d}" for n in range(CHARTED - views.CHARTED, CHARTED)]
    assert sorted(re.findall(r'class="series-label">([^<]+)</text>', chart)) == charted
    assert sorted(re.findall(r"<tr><td>(Band \d+)</td>", chart)) == charted
    assert f"The chart shows the {views.CHARTED} highest-rated of {CHARTED} warbands" in chart


def test_a_small_league_shows_everything_without_links(client):
    campaign = CampaignFactory()
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    WarbandFactory(campaign=campaign, name="Lone Band")
    client.force_login(organiser)

    page = get(client, "campaign_detail", campaign)

    assert [name for _, name in table_rows(page)] == ["Lone Band"]
    assert reverse("campaign_table", args=[campaign.pk]) not in page
    assert reverse("campaign_members", args=[campaign.pk]) not in page
