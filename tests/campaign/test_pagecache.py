"""The page cache (campaign.pagecache): a page is served again only while nothing changed, to
the same session, and never to anyone else; requests run outside a transaction, as in
production, so the cache is on."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import CampaignFactory, MembershipFactory, hide_secrets, mustered_warband
from warbands import treasury
from warbands.models import LedgerEntry

TOKEN = re.compile(r'name="form_token" value="([0-9a-f-]{36})"')


@pytest.fixture
def league(reference_data):
    caches["pages"].clear()
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    return {"campaign": campaign, "organiser": organiser, "reavers": reavers, "scourge": scourge}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    client.get("/")  # the first page sets the CSRF cookie (a response with a cookie is not kept)
    return client


def get(client, path, **headers):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, headers=headers)
    return response, len(queries)


def test_a_page_is_served_again_with_one_query_while_nothing_changes(league):
    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/treasury/"
    first, drawn = get(owner, path)
    second, served = get(owner, path)
    assert first.status_code == second.status_code == 200
    assert "X-Page-Cache" not in first and second["X-Page-Cache"] == "hit"
    assert drawn > 3 and served == 1  # the snapshot only: no session, user or page queries
    strip = lambda r: TOKEN.sub("", r.content.decode())  # noqa: E731
    assert strip(first) == strip(second)
    assert second["Content-Type"] == first["Content-Type"]
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]


def test_drawing_a_page_for_the_cache_costs_no_extra_query(league):
    """On a miss the session row comes with the snapshot, so the page costs what it costs
    drawn afresh (Cache-Control: no-cache), where no snapshot is read."""
    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/treasury/"
    _, fresh = get(owner, path, cache_control="no-cache")
    missed, drawn = get(owner, path)
    assert "X-Page-Cache" not in missed and drawn == fresh


def test_a_session_that_expires_is_not_served_though_nothing_was_written(league):
    import time

    owner = client_for(league["reavers"].owner)
    session = owner.session
    session.set_expiry(4)
    session.save()
    path = f"/warbands/{league['reavers'].pk}/"
    get(owner, path)
    assert get(owner, path)[0]["X-Page-Cache"] == "hit"
    time.sleep(4.2)  # the session expires; no write, so the snapshot is the same
    response, _ = get(owner, path)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_every_served_page_holds_fresh_form_tokens(league):
    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/treasury/"
    pages = [get(owner, path)[0].content.decode() for _ in range(3)]
    tokens = [TOKEN.findall(page) for page in pages]
    assert tokens[0] and all(len(t) == len(tokens[0]) for t in tokens)
    flat = [token for page in tokens for token in page]
    assert len(set(flat)) == len(flat)


def test_any_write_draws_the_page_again(league):
    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/treasury/"
    get(owner, path)
    chest = league["reavers"].containers.get(kind="treasure_chest")
    treasury.add_treasure(chest, gold=-chest.gold_crowns + 41, reason=LedgerEntry.Reason.INCOME)
    response, _ = get(owner, path)
    assert "X-Page-Cache" not in response
    assert "41 gc" in response.content.decode() or ">41<" in response.content.decode()
    assert get(owner, path)[0]["X-Page-Cache"] == "hit"


def test_a_hard_reload_draws_the_page_again(league):
    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/"
    get(owner, path)
    response, queries = get(owner, path, cache_control="no-cache")
    assert "X-Page-Cache" not in response and queries > 1


def test_the_opponent_never_gets_the_owners_page(league):
    secrets = [str(s) for s in hide_secrets(league["reavers"])]
    path = f"/warbands/{league['reavers'].pk}/treasury/"
    owner = client_for(league["reavers"].owner)
    opponent = client_for(league["scourge"].owner)  # both logged in: no write from here on
    page = get(owner, path)[0].content.decode()
    assert str(secrets[0]) in page  # the owner sees his 37 gc
    assert get(owner, path)[0]["X-Page-Cache"] == "hit"
    for _ in range(2):
        response, _ = get(opponent, path)
        assert "X-Page-Cache" not in response or response.status_code != 200
        body = response.content.decode()
        assert not re.search(rf"\b{re.escape(secrets[0])} gc", body)


def test_a_logged_out_session_is_not_served(league):
    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/treasury/"
    get(owner, path)
    assert get(owner, path)[0]["X-Page-Cache"] == "hit"
    stolen = dict(owner.cookies.items())
    owner.post("/accounts/logout/")
    thief = Client()
    for name, morsel in stolen.items():
        thief.cookies[name] = morsel.value
    response, _ = get(thief, path)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_only_pages_that_ask_for_it_are_kept(league):
    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/muster/"
    get(owner, path)
    response, queries = get(owner, path)
    assert "X-Page-Cache" not in response and queries > 1


def test_refusals_are_not_kept(league):
    stranger = client_for(get_user_model().objects.create_user("stranger", password="x"))
    path = f"/warbands/{league['reavers'].pk}/treasury/"
    statuses = [get(stranger, path)[0] for _ in range(2)]
    assert all("X-Page-Cache" not in r for r in statuses)
    assert statuses[0].status_code in (403, 404)


def test_inside_a_transaction_nothing_is_cached(league):
    from django.db import transaction

    owner = client_for(league["reavers"].owner)
    path = f"/warbands/{league['reavers'].pk}/"
    with transaction.atomic():
        get(owner, path)
        response, queries = get(owner, path)
    assert "X-Page-Cache" not in response and queries > 1
