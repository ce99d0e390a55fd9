"""Fast by construction: a page's SQL statements do not grow with the league (issue 10).

Three leagues built by the benchmark's generator: 4 warbands of 3 warriors, 40 warbands of 3,
and 4 warbands of 15 (five heroes, three henchmen groups, 20 containers, a long ledger). Every
main page, and the two htmx writes the benchmark drives, costs the same number of queries in
all three, and every one of them costs at most 12 (session and user included).
"""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.generate import generate

pytestmark = pytest.mark.django_db
MAX_QUERIES = 12
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
        assert queries <= MAX_QUERIES, f"{name}: {queries} queries"


def test_the_bench_counts_queries_only_when_asked(client, settings):
    league = generate(warbands=2, warriors=3, containers=3, ledger=4, battles=3, played=1,
                      progress=lambda m: None)  # fmt: skip
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username=league.player))
    assert "X-Queries" not in client.get("/")
    settings.MIDDLEWARE = ["campaign.middleware.QueryCountMiddleware", *settings.MIDDLEWARE]
    client = Client()  # a client loads the middleware once
    client.force_login(get_user_model().objects.get(username=league.player))
    _, queries = count(client, "GET", "/")
    response = client.get("/")
    assert re.fullmatch(r"\d+", response["X-Queries"])
    assert int(response["X-Queries"]) == queries


def test_the_write_floor_is_a_logged_in_post_with_a_one_time_token_only_for_the_bench(
    settings,
):
    """bench/run.py measures the cheapest write beside the ceiling: it must pass the checks
    every write passes (log-in, CSRF, one-time token), and exist only for the benchmark."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("floor", password="x")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # the CSRF cookie
    csrf = {"X-CSRFToken": client.cookies["csrftoken"].value, "HX-Request": "true"}
    token = {"form_token": "5f0c6a1e-2d3b-4c5d-8e9f-0a1b2c3d4e5f"}
    url = reverse("bench_write_floor")
    elsewhere = {"form_token": "0e1d2c3b-4a59-4687-9a8b-7c6d5e4f3a2b"}
    assert client.post(url, elsewhere, headers=csrf).status_code == 404

    settings.MORDHEIM_BENCH = True
    no_csrf = {"form_token": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"}
    assert client.post(url, no_csrf).status_code == 403
    first = client.post(url, token, headers=csrf)
    assert first.status_code == 200 and first.content == b"<p>Nothing changed.</p>"
    again = client.post(url, token, headers=csrf)
    assert again["X-Replayed"] == "1"  # the one-time token was taken by the first
    assert Client().post(url, token).status_code == 302  # anonymous: to the log-in page


def test_the_move_floor_moves_gold_of_the_users_own_warband_only_for_the_bench(settings):
    """The move floor (bench/run.py: the least a move can cost) must really move: both
    balances and two ledger entries that sum to nothing, in one transaction with the token;
    only between two held containers of the user's own warband, never more than is there."""
    from django.contrib.auth import get_user_model

    from tests.factories import mustered_warband
    from warbands.models import LedgerEntry, StorageContainer

    warband = mustered_warband()
    other = mustered_warband(campaign=warband.campaign)
    chest = warband.containers.get(kind="treasure_chest")
    sack = StorageContainer.objects.create(warband=warband, kind="large_sack", number=1)
    theirs = other.containers.get(kind="treasure_chest")
    start = chest.gold_crowns  # the muster's leftover
    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(pk=warband.owner_id))
    client.get("/")
    headers = {"X-CSRFToken": client.cookies["csrftoken"].value, "HX-Request": "true"}
    url = reverse("bench_move_floor", args=[warband.pk])

    def post(source, target, gold, token="1b0c6a1e-2d3b-4c5d-8e9f-0a1b2c3d4e5f"):
        data = {"source": source.pk, "target": target.pk, "gold": gold, "form_token": token}
        return client.post(url, data, headers=headers)

    assert post(chest, sack, 3).status_code == 404
    settings.MORDHEIM_BENCH = True
    before = LedgerEntry.objects.count()
    moved = post(chest, sack, 3, "2b0c6a1e-2d3b-4c5d-8e9f-0a1b2c3d4e5f")

    assert moved.status_code == 200
    assert f'id="gold-{chest.pk}" hx-swap-oob="true">{start - 3}<' in moved.content.decode()
    chest.refresh_from_db(), sack.refresh_from_db()
    assert (chest.gold_crowns, sack.gold_crowns) == (start - 3, 3)
    entries = LedgerEntry.objects.order_by("pk")[before:]
    assert [(e.container_id, e.amount, e.reason) for e in entries] == [
        (chest.pk, -3, "transfer"), (sack.pk, 3, "transfer")
    ]  # fmt: skip
    for refused in (post(chest, sack, start - 2, "3b0c6a1e-2d3b-4c5d-8e9f-0a1b2c3d4e5f"),
                    post(chest, theirs, 1, "4b0c6a1e-2d3b-4c5d-8e9f-0a1b2c3d4e5f"),
                    post(chest, chest, 1, "5b0c6a1e-2d3b-4c5d-8e9f-0a1b2c3d4e5f")):  # fmt: skip
        assert refused.status_code == 422
    chest.refresh_from_db()
    assert chest.gold_crowns == start - 3 and LedgerEntry.objects.count() == before + 2
