"""Fast by construction: a page's SQL statements do not grow with the league.

Three leagues built by the benchmark's generator: 4 warbands of 3 warriors, 40 warbands of 3,
and 4 warbands of 15 (five heroes, three henchmen groups, 20 containers, a long ledger). Every
main page, and the htmx writes the benchmark drives, costs the same number of queries in all
three; every page costs at most 15 (session and user included), every write at most 20 (its
service's locking reads, the ledger and step records, and the part of the page it draws again).
"""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.generate import generate

pytestmark = pytest.mark.django_db
MAX_QUERIES = 15
MAX_WRITE_QUERIES = 20
WRITES = ("treasury move", "step 9 move")
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
        "league table": f"/campaigns/{league.campaign_id}/",
        "campaign feed": f"/campaigns/{league.campaign_id}/feed/",
        "battle": f"/battles/{league.battle_id}/",
        "sequence": f"/sequences/{league.sequence_id}/",
    }


def count(client, method, path, data=None) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path) if method == "GET" else client.post(path, data, headers=HTMX)
    return response.status_code, sum(q["sql"] not in TRANSACTION for q in captured)


def counts(client, league) -> dict[str, int]:
    from django.contrib.auth import get_user_model

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
    return found


def test_page_queries_do_not_grow_with_the_league_or_the_roster(client):
    quiet = {"progress": lambda message: None, "battles": 8, "played": 1}
    small = generate(warbands=4, warriors=3, containers=3, ledger=120, prefix="s-", **quiet)
    wide = generate(warbands=40, warriors=3, containers=3, ledger=120, prefix="w-", **quiet)
    deep = generate(warbands=4, warriors=15, containers=20, ledger=400, prefix="d-", **quiet)

    base = counts(client, small)
    assert counts(client, wide) == base, "a campaign of 40 warbands costs more queries than 4"
    assert counts(client, deep) == base, "a warband of 15 warriors costs more queries than 3"
    for name, queries in base.items():
        limit = MAX_WRITE_QUERIES if name in WRITES else MAX_QUERIES
        assert queries <= limit, f"{name}: {queries} queries"


def test_the_bench_counts_queries_only_when_asked(client, settings):
    league = generate(warbands=2, warriors=3, containers=3, ledger=4, battles=3, played=1,
                      progress=lambda m: None)  # fmt: skip
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username=league.player))
    assert "X-Queries" not in client.get("/")
    settings.MIDDLEWARE = ["bench.middleware.QueryCountMiddleware", *settings.MIDDLEWARE]
    client = Client()  # a client loads the middleware once
    client.force_login(get_user_model().objects.get(username=league.player))
    _, queries = count(client, "GET", "/")
    response = client.get("/")
    assert re.fullmatch(r"\d+", response["X-Queries"])
    assert int(response["X-Queries"]) == queries
