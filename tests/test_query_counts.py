"""Fast by construction: a page's SQL statements do not grow with the league.

Three leagues built by the benchmark's generator: 4 warbands of 3 warriors, 40 warbands of 3,
and 4 warbands of 15 (five heroes, three henchmen groups, 20 containers, a long ledger). Every
main page, and the htmx writes the benchmark drives, costs the same number of queries in all
three; every page costs at most 15 (session, user and membership included), every write at
most what ``WRITE_QUERIES`` says. Pages are drawn here without their cached fragments
(``tests/conftest.py``): what a page costs the first time it is seen after a change.

The three leagues are built once for the module (``tests.sharing.built_once``) and each test
starts from them as built: every test here only reads them, or writes and is rolled back.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.generate import generate
from bench.plan import typed_dice
from tests.sharing import built_once
from warbands.models import StorageContainer

pytestmark = pytest.mark.django_db
MAX_QUERIES = 15
# Each write's statements, uncached (a write draws its answer afresh): its service's locking
# reads and writes, its ledger and step records, and the part of the page it draws again.
WRITE_QUERIES = {
    "treasury move": 11,
    "step 9 move": 20,
    "buy a container": 24,
    "sell a container": 24,
    "injury roll": 20,
    "finish a step": 15,
    # The undo runs in a savepoint (2 queries) so that a refusal is explained against the
    # sequence as it was (battles.aftermath.reopening.explain); the step 8 page it draws asks
    # once whether a hero may still haggle (battles.aftermath.haggle.haggler).
    "undo a step": 27,
}
# Django notes the transaction's BEGIN and COMMIT among the queries; psycopg sends them with
# the connection's own calls, and the benchmark (X-Queries) does not count them either.
TRANSACTION = ("BEGIN", "COMMIT")
HTMX = {"HX-Request": "true"}


def pages(league) -> dict[str, str]:
    return {
        "dashboard": "/",
        "roster": f"/warbands/{league.warband_id}/",
        "treasury": f"/warbands/{league.warband_id}/treasury/",
        "ledger page 2": f"/warbands/{league.warband_id}/treasury/?page=2",
        "campaign page": f"/campaigns/{league.campaign_id}/",
        "league table": f"/campaigns/{league.campaign_id}/table/",
        "battles": f"/campaigns/{league.campaign_id}/battles/",
        "members": f"/campaigns/{league.campaign_id}/members/",
        "campaign feed": f"/campaigns/{league.campaign_id}/feed/",
        "battle": f"/battles/{league.battle_id}/",
        "sequence": f"/sequences/{league.sequence_id}/",
    }


def count(client, method, path, data=None) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path) if method == "GET" else client.post(path, data, headers=HTMX)
    return response.status_code, sum(q["sql"] not in TRANSACTION for q in captured)


def counts(client, league) -> dict[str, int]:

    client.force_login(get_user_model().objects.get(username=league.player))
    found = {}
    for name, path in pages(league).items():
        client.get(path)  # the first visit may create the session's cached bits
        status, found[name] = count(client, "GET", path)
        assert status == 200, name
    a, z = league.move
    status, found["treasury move"] = count(
        client,
        "POST",
        f"/warbands/{league.warband_id}/treasury/move/",
        {"source": a, "target": z, "gold": 1, "wyrdstone": 0},
    )
    assert status == 200
    status, found["step 9 move"] = count(
        client,
        "POST",
        f"/sequences/{league.sequence_id}/act/",
        {"step": 9, "action": "move", "source": z, "target": a, "gold": 1, "wyrdstone": 0},
    )
    assert status == 200
    found.update(other_writes(client, league))
    return found


def other_writes(client, league) -> dict[str, int]:
    """The bench's other writes, each by a player of its own (bench/plan.py)."""

    def as_player(username):
        client.force_login(get_user_model().objects.get(username=username))

    found = {}
    as_player(league.player)
    treasury = f"/warbands/{league.warband_id}/treasury/"
    chest = league.move[0]  # a box with gold in it
    status, found["buy a container"] = count(
        client, "POST", f"{treasury}buy/", {"kind": "large_sack", "pay_from": chest}
    )
    assert status == 200
    sack = StorageContainer.objects.filter(warband=league.warband_id).latest("pk")
    status, found["sell a container"] = count(
        client, "POST", f"{treasury}sell/", {"container": sack.pk, "proceeds_to": chest}
    )
    assert status == 200
    roll = league.rolls[0]
    as_player(roll["username"])
    path = f"/sequences/{roll['sequence_id']}/tasks/{roll['task_id']}/"
    status, found["injury roll"] = count(
        client, "POST", path, {"step": 1, "dice": typed_dice(roll["dice"])}
    )
    assert status == 200
    step8 = league.step8[0]
    as_player(step8["username"])
    sequence = f"/sequences/{step8['sequence_id']}/"
    status, found["finish a step"] = count(client, "POST", f"{sequence}complete/", {"step": 8})
    assert status == 200
    status, found["undo a step"] = count(client, "POST", f"{sequence}undo/", {"step": 8})
    assert status == 200
    return found


def build_leagues() -> dict:
    """4 warbands of 3 warriors (``small``), 40 of 3 (``wide``) and 4 of 15 with 20 containers
    and a long ledger (``deep``), each with a writer and an injury roll waiting."""
    quiet = {"progress": lambda message: None, "battles": 8, "played": 1, "writers": 1,
             "rolls": 1}  # fmt: skip
    return {
        "small": generate(warbands=4, warriors=3, containers=3, ledger=120, prefix="s-", **quiet),
        "wide": generate(warbands=40, warriors=3, containers=3, ledger=120, prefix="w-", **quiet),
        "deep": generate(warbands=4, warriors=15, containers=20, ledger=400, prefix="d-", **quiet),
    }


def build_analysed() -> dict:
    """``build_leagues``, then the database's statistics taken anew (``ANALYZE``, which counts
    the rows of its own open transaction): on a league's server autovacuum keeps them, but the
    suite's test database had them from whatever earlier modules left, and the planner once
    chose a plan for the league table that read the dead rows of those modules thousands of
    times over (2.5 s a page). The queries counted are the same whatever the plan."""
    built = build_leagues()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return built


@pytest.fixture(scope="module")
def leagues(django_db_setup, django_db_blocker):
    """The three leagues, built once for the module; each test starts from them as built."""
    yield from built_once(django_db_blocker, build_analysed)


def test_page_queries_do_not_grow_with_the_league_or_the_roster(client, leagues):
    small, wide, deep = leagues["small"], leagues["wide"], leagues["deep"]

    base = counts(client, small)
    assert counts(client, wide) == base, "a campaign of 40 warbands costs more queries than 4"
    assert counts(client, deep) == base, "a warband of 15 warriors costs more queries than 3"
    for name, queries in base.items():
        limit = WRITE_QUERIES.get(name, MAX_QUERIES)
        assert queries <= limit, f"{name}: {queries} queries"


def test_the_bench_counts_queries_only_when_asked(client, settings, leagues):
    league = leagues["small"]

    client.force_login(get_user_model().objects.get(username=league.player))
    assert "X-Queries" not in client.get("/")
    settings.MIDDLEWARE = ["bench.middleware.QueryCountMiddleware", *settings.MIDDLEWARE]
    client = Client()  # a client loads the middleware once
    client.force_login(get_user_model().objects.get(username=league.player))
    _, queries = count(client, "GET", "/")
    response = client.get("/")
    assert re.fullmatch(r"\d+", response["X-Queries"])
    assert int(response["X-Queries"]) == queries


def test_pages_kept_in_fragments_cost_a_few_queries_whatever_the_league(
    client, fragment_cache, leagues
):
    """Drawn again while nothing changed: the session, the user, the object the page is
    about and the user's membership (the dashboard: its memberships)."""

    found = {}
    for name in ("small", "deep"):
        league = leagues[name]
        client.force_login(get_user_model().objects.get(username=league.player))
        client.get("/")  # the CSRF cookie, for the sequence page kept per browser
        for page, path in pages(league).items():
            client.get(path)
            status, found[name, page] = count(client, "GET", path)
            assert status == 200, page
    for (name, page), queries in found.items():
        assert queries <= 4, f"{page} ({name}): {queries} queries"
        assert queries == found["small", page], page
