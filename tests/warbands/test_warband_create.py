"""The new-warband page as a place to browse 50 lists: grouped by grade, each with its leader,
price of entry and starting gold, filtered by name (a GET form, and htmx as one types), at a
number of queries that does not grow with the lists."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import MembershipFactory
from warbands.models import Warband, WarbandType, WarriorType

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true", "HX-Target": "warband-lists"}
PROFILE = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


@pytest.fixture
def player(client):
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def url(membership, query: str = "") -> str:
    return reverse("warband_create", args=[membership.campaign.pk]) + query


def new_list(key: str, name: str, grade: str, *, leader: str = "Captain", cost: int = 70):
    """A list of ``grade`` with a leader and a henchman, as the loader would make it."""
    warband_type = WarbandType.objects.create(
        key=key, name=name, family=name, grade=grade, starting_gold=500, max_warriors=15
    )
    WarriorType.objects.create(
        warband_type=warband_type, key="leader", name=leader, kind="hero", is_leader=True,
        cost=cost, max_count=1, **PROFILE,
    )  # fmt: skip
    WarriorType.objects.create(
        warband_type=warband_type, key="henchman", name="Henchman", kind="henchman",
        cost=25, group_max=5, order=1, **PROFILE,
    )  # fmt: skip
    return warband_type


def section(page: str, grade: str) -> str:
    """The part of the page under one grade's heading."""
    start = f'<section class="grade-group" aria-labelledby="grade-{grade}">'
    found = re.search(re.escape(start) + ".*?</section>", page, re.DOTALL)
    return found.group(0) if found else ""


def graded(grade: str) -> int:
    return WarbandType.objects.filter(grade=grade).count()


def test_the_lists_are_grouped_under_their_grades_headings(client, player):
    WarbandType.objects.filter(grade="1c").delete()
    new_list("qwerty_guard", "Qwerty Guard", "1b", leader="Mercenary Captain")

    page = client.get(url(player)).content.decode()

    assert '<h2 id="grade-1a">Grade 1a</h2>' in page
    assert '<h2 id="grade-1b">Grade 1b</h2>' in page
    assert 'id="grade-1c"' not in page  # no Grade 1c list: no heading
    assert "Qwerty Guard" in section(page, "1b") and "Qwerty Guard" not in section(page, "1a")
    assert section(page, "1a").count('type="radio"') == graded("1a") == 15
    assert section(page, "1b").count('type="radio"') == graded("1b")
    assert page.index('id="grade-1a"') < page.index('id="grade-1b"')
    assert "tested in play by the community" in section(page, "1b")


def test_each_list_shows_its_leader_price_of_entry_and_starting_gold(client, player):
    page = client.get(url(player)).content.decode()

    row = re.search(r'data-testid="list-marienburg">(.*?)</label>', page, re.DOTALL).group(1)
    assert "<strong>Marienburg Mercenaries</strong>" in row
    assert "Leader: Mercenary Captain (60 gc, the price of entry) · starting gold 600 gc" in row
    assert "Grade 1a</span>" in row
    undead = re.search(r'data-testid="list-undead">(.*?)</label>', page, re.DOTALL).group(1)
    assert "Leader: Vampire (110 gc, the price of entry) · starting gold 500 gc" in undead


def test_the_search_filters_by_name_whatever_the_case(client, player):
    page = client.get(url(player, "?q=sKAVen of CLAN eshin")).content.decode()

    assert 'data-testid="list-skaven"' in page
    assert page.count('type="radio"') == 1
    assert "1 list matches “sKAVen of CLAN eshin”." in page
    assert 'value="sKAVen of CLAN eshin"' in page  # the search box keeps the text
    # a refused post keeps the filter
    assert f'action="{url(player)}?q=sKAVen%20of%20CLAN%20eshin"' in page


def test_the_search_finds_part_of_a_name_in_any_grade(client, player):
    new_list("qwerty_hunters", "Qwerty Hunters", "1b")
    new_list("sons_of_qwerty", "Sons of Qwerty", "1c")
    new_list("mootlanders_of_test", "Mootlanders of Test", "1b")

    page = client.get(url(player, "?q=QWERTY")).content.decode()

    assert "Qwerty Hunters" in section(page, "1b")
    assert "Sons of Qwerty" in section(page, "1c")
    assert 'id="grade-1a"' not in page and "Mootlanders" not in page
    assert page.count('type="radio"') == 2
    assert "2 lists match “QWERTY”." in page


def test_a_search_that_matches_nothing_says_so_and_how_to_clear_it(client, player):
    page = client.get(url(player, "?q=100%25_")).content.decode()  # % and _ are plain text

    assert 'type="radio"' not in page
    assert "No warband list’s name holds “100%_”." in page
    assert f'<a href="{url(player)}">Clear the search</a>' in page


def test_an_overlong_search_is_refused_beside_its_field_and_every_list_shown(client, player):
    response = client.get(url(player, "?q=" + "x" * 300))

    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="id_q_error"' in page
    assert "search for at most 60 characters of it (you sent 300)" in page
    assert page.count('type="radio"') == WarbandType.objects.count()


def test_a_control_character_in_the_search_is_refused_with_a_reason(client, player):
    response = client.get(url(player, "?q=ska%00ven"))

    assert response.status_code == 400
    assert "invisible control character" in response.content.decode()


def test_a_search_that_is_not_utf_8_reads_as_a_search_for_nothing_known(client, player):
    response = client.get(url(player, "?q=%FF%FE"))

    assert response.status_code == 200
    assert 'data-testid="no-lists"' in response.content.decode()


def test_an_htmx_search_draws_only_the_lists(client, player):
    response = client.get(url(player, "?q=mercen"), headers=HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<fieldset id="warband-lists"')
    assert "<html" not in page and "Warband name" not in page
    assert page.count('type="radio"') == WarbandType.objects.named_like("MERCEN").count() >= 5


def test_an_htmx_search_with_nothing_found_draws_the_empty_state(client, player):
    page = client.get(url(player, "?q=zzz"), headers=HTMX).content.decode()

    assert 'data-testid="no-lists"' in page and "Clear the search" in page


def test_the_page_costs_the_same_queries_for_fifteen_lists_or_fifty(client, player):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(player)).status_code == 200
        return len(queries)

    client.get(url(player))  # the session's first visit
    fifteen = count()
    for n in range(35):
        new_list(f"fan_list_{n}", f"Fan list {n}", "1b" if n % 2 else "1c")
    fifty = count()

    assert WarbandType.objects.count() >= 50
    assert fifteen == fifty
    with CaptureQueriesContext(connection) as htmx:
        client.get(url(player, "?q=fan"), headers=HTMX)
    assert len(htmx) == fifteen


def test_a_list_of_another_grade_can_be_chosen(client, player):
    tileans = new_list("tileans", "Tileans", "1b")

    response = client.post(url(player), {"name": "Sons of Remas", "warband_type": tileans.pk})

    warband = Warband.objects.get()
    assert response["Location"] == reverse("warband_muster", args=[warband.pk])
    assert (warband.warband_type, warband.gold_crowns) == (tileans, 500)


def test_a_refused_post_keeps_the_chosen_list_and_says_why(client, player):
    skaven = WarbandType.objects.get(key="skaven")

    response = client.post(url(player, "?q=ska"), {"name": "", "warband_type": skaven.pk})

    page = response.content.decode()
    assert response.status_code == 422
    assert re.search(rf'value="{skaven.pk}"[^>]*checked', page)
    assert 'id="id_name_error"' in page
    assert not Warband.objects.exists()


def test_posting_no_list_is_refused_beside_the_lists(client, player):
    response = client.post(url(player), {"name": "Nameless"})

    page = response.content.decode()
    assert response.status_code == 422
    assert (
        '<small class="errorlist" id="id_warband_type_error" role="alert">Choose a warband list.'
        in page
    )


def test_a_stranger_cannot_open_the_page(client):
    campaign = MembershipFactory().campaign
    client.force_login(MembershipFactory().user)

    assert client.get(reverse("warband_create", args=[campaign.pk])).status_code == 404
