"""The installed app (``core.offline``): what the server lets a phone keep, and what it tells
the browser to forget.

The service worker keeps only answers marked ``X-Offline-Cache: owner``: the owner's own
roster and printout for the table. Nobody else's (an opponent's, the organiser's, a visitor's),
no partial, no private printout and no treasury page is ever marked. The mark names the user
by an opaque key, never by his name. Logging in, signing up and logging out answer with
``Clear-Site-Data``. The browser side is tests/browser/test_installable.py.
"""

from __future__ import annotations

import json
import struct

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from core.offline import CLEAR_SITE_DATA, KEEP_HEADER, USER_HEADER, user_key
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def png_size(path: str) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    with open(path, "rb") as image:
        head = image.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_app_and_its_icons_which_are_pngs_of_their_sizes(client):
    response = client.get(reverse("manifest"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Mordheim Campaigns" and manifest["short_name"]
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    assert manifest["theme_color"] and manifest["background_color"]
    purposes = set()
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        width, height = png_size(path)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        purposes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes


def test_the_worker_is_served_from_the_root_with_its_shell_and_a_page_for_offline(client, duel):
    client.force_login(duel["reavers"].owner)
    worker = client.get(reverse("service_worker"))
    offline = client.get(reverse("offline"))

    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert reverse("service_worker") == "/sw.js"  # its scope is every page of the site
    source = worker.content.decode()
    shell = json.loads(source.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    assert "/static/js/app.js" in shell and reverse("offline") in shell
    assert 'request.method !== "GET"' in source  # no form's answer is ever looked at
    # The offline page is drawn for nobody: one copy serves every user of the phone.
    page = offline.content.decode()
    assert offline.status_code == 200 and "You are offline" in page
    assert duel["reavers"].owner.username not in page and "csrfmiddlewaretoken" not in page


def test_only_the_owner_of_a_warband_may_keep_its_roster_and_printout(client, duel):
    """The opponent, the organiser and a bystander read the roster and the printout, but
    neither is marked for them; for the owner the mark holds his opaque key, not his name."""
    reavers = duel["reavers"]
    roster = reverse("warband_roster", args=[reavers.pk])
    printout = reverse("warband_print", args=[reavers.pk])
    owner = reavers.owner

    client.force_login(owner)
    for url in (roster, printout):
        response = client.get(url)
        assert response.status_code == 200 and response[KEEP_HEADER] == "owner"
        assert response[USER_HEADER] == user_key(owner) != owner.username
        assert owner.username not in response[USER_HEADER]

    for other in (duel["scourge"].owner, duel["organiser"], duel["bystander"]):
        client.force_login(other)
        for url in (roster, printout):
            response = client.get(url)
            assert response.status_code == 200
            assert KEEP_HEADER not in response and USER_HEADER not in response, (other, url)
        assert user_key(other) != user_key(owner)


def test_no_partial_private_printout_treasury_or_form_answer_is_marked(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    answers = [
        client.get(reverse("warband_roster", args=[reavers.pk]), headers=HTMX),
        client.get(reverse("warband_print", args=[reavers.pk]) + "?treasury=1"),
        client.get(reverse("warband_treasury", args=[reavers.pk])),
        client.post(reverse("warband_rename", args=[reavers.pk]), {"name": ""}),
        client.get(reverse("dashboard")),
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 422, 200]
    assert not [a for a in answers if KEEP_HEADER in a or USER_HEADER in a]
    client.logout()
    assert KEEP_HEADER not in client.get(reverse("warband_roster", args=[reavers.pk]))


def test_each_page_names_its_user_by_his_key_and_a_visitor_by_none(client, duel):
    owner = duel["reavers"].owner
    assert (
        b'<meta name="offline-user" content="" data-worker="/sw.js">'
        in client.get(reverse("login")).content
    )
    client.force_login(owner)
    page = client.get(reverse("dashboard")).content.decode()
    assert f'<meta name="offline-user" content="{user_key(owner)}"' in page


def test_logging_in_signing_up_and_logging_out_empty_the_browsers_copies(client):
    user = UserFactory()
    refused = client.post(reverse("login"), {"username": user.username, "password": "wrong"})
    logged_in = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    logged_out = client.post(reverse("logout"))
    signed_up = client.post(
        reverse("signup"),
        {"username": "newcomer", "password1": "a-long-pass-9", "password2": "a-long-pass-9"},
    )

    assert "Clear-Site-Data" not in refused and refused.status_code == 200
    assert logged_in.status_code == logged_out.status_code == signed_up.status_code == 302
    for response in (logged_in, logged_out, signed_up):
        assert response["Clear-Site-Data"] == CLEAR_SITE_DATA == '"cache", "storage"'
