"""No answer is kept by a cache unless its view says so (``PrivateAnswersMiddleware``).

Every answer of the whole URLconf, walked as the owner of everything in it and as an anonymous
visitor (GET, htmx GET and htmx POST), is ``private, no-store`` and varies on the session
cookie and ``HX-Request``: ``tests/test_url_matrix.py`` checks it, on the URL matrix's crawl
that it reads anyway. Here, an answer replayed to a form posted twice is private too.

The app keeps no page cache of its own (a page cache that loses ``Vary: Cookie`` would hand
one user's page to another); the last two tests put Django's own page cache in
front of the app to show that it keeps no secret page, and that what a view lets it keep is
kept per cookie and apart from its htmx partial.
"""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.core.cache import caches
from django.http import HttpResponse
from django.urls import path, reverse
from django.views.decorators.cache import cache_control

from tests.factories import mustered_warband
from tests.matrix_answers import private, varies
from warbands import treasury

HTMX = {"HX-Request": "true"}


@pytest.mark.django_db
def test_a_replayed_answer_to_a_form_posted_twice_is_private_too(client):
    warband = mustered_warband()
    client.force_login(warband.owner)
    chest = warband.containers.get(kind="treasure_chest")
    sack = warband.containers.filter(kind="large_sack").order_by("gold_crowns").first()
    data = {"source": chest.pk, "target": sack.pk, "gold": 1, "form_token": str(uuid.uuid4())}
    url = reverse("treasury_move", args=[warband.pk])

    first = client.post(url, data, headers=HTMX)
    replayed = client.post(url, data, headers=HTMX)

    assert first.status_code == replayed.status_code == 200
    assert replayed["X-Replayed"] == "1"
    assert private(replayed) and {"cookie", "hx-request"} <= varies(replayed)


# --- Django's page cache in front of the app --------------------------------------------------


@login_not_required
@cache_control(max_age=60)
def kept_view(request):
    """A view that lets caches keep its answer, and answers htmx with a partial."""
    return HttpResponse(f"partial {uuid.uuid4()}" if request.htmx else f"page {uuid.uuid4()}")


urlpatterns = [path("kept/", kept_view)]


@pytest.fixture
def page_cache(settings):
    """Django's whole-page cache around every other middleware, in a cache of its own."""
    pages = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pages"}
    settings.CACHES = {**settings.CACHES, "pages": pages}
    settings.CACHE_MIDDLEWARE_ALIAS = "pages"
    settings.CACHE_MIDDLEWARE_SECONDS = 60
    settings.MIDDLEWARE = [
        "django.middleware.cache.UpdateCacheMiddleware",
        *settings.MIDDLEWARE,
        "django.middleware.cache.FetchFromCacheMiddleware",
    ]
    caches["pages"].clear()
    yield caches["pages"]
    caches["pages"].clear()


@pytest.mark.django_db
def test_behind_a_page_cache_a_secret_partial_is_drawn_afresh_every_time(client, page_cache):
    """The ledger's partial carries no CSRF token (a page that does renews the CSRF cookie,
    and Django's cache keeps no answer that sets a cookie): only ``private`` keeps it out."""
    warband = mustered_warband()
    client.force_login(warband.owner)
    url = reverse("warband_treasury", args=[warband.pk])
    ledger = {**HTMX, "HX-Target": "ledger"}
    before = client.get(url, headers=ledger)

    treasury.add_treasure(treasury.loose_pile(warband), gold=9, reason="income")
    after = client.get(url, headers=ledger)

    assert private(before) and before.status_code == after.status_code == 200
    assert after.content.decode().count("<tr>") == before.content.decode().count("<tr>") + 1


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_behind_a_page_cache_a_kept_answer_keeps_its_vary_headers(client, page_cache):
    page = client.get("/kept/")
    again = client.get("/kept/")
    partial = client.get("/kept/", headers=HTMX)
    client.cookies[settings.SESSION_COOKIE_NAME] = "another-browser"
    elsewhere = client.get("/kept/")

    assert page["Cache-Control"] == "max-age=60"  # the view's own choice stands
    assert {"cookie", "hx-request"} <= varies(page) and {"cookie", "hx-request"} <= varies(again)
    assert again.content == page.content  # kept...
    assert partial.content.startswith(b"partial")  # ...but not for htmx
    assert elsewhere.content != page.content  # ...nor for another session cookie
