"""What no form or link of the app sends is refused for the whole app (``BadInputMiddleware``):
a NUL or another control character, an over-long value or a file, in a URL path, a query
string or a posted form, with a 400 in the app's layout that says why (``[data-refusal]``,
which static/js/app.js shows for an htmx request) and changes nothing. A textarea's newlines
and tabs still go through. The one-time token store keeps any answer, NUL included."""

import uuid

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from battles.helper.start import start_game
from campaign.models import RandomFortuneEntry
from core import once
from core.middleware import LONGEST_ADDRESS, LONGEST_VALUE
from core.models import FormToken
from tests.helpers import fingerprint

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def refusal(response) -> str:
    """The reason a 400 gives, as the page and the htmx notice show it."""
    assert response.status_code == 400, response.status_code
    text = response.content.decode()
    assert 'class="brand"' in text  # the app's layout
    return text.split("data-refusal>", 1)[1].split("</p>", 1)[0]


def test_a_nul_in_a_join_link_is_refused_with_a_reason(client, duel):
    client.force_login(duel["bystander"])
    before = fingerprint()

    reason = refusal(client.get("/join/%00/"))

    assert "control character" in reason and "Check the link" in reason
    assert fingerprint() == before


def test_a_nul_in_the_fortune_tables_query_string_is_refused_with_a_reason(client, duel):
    client.force_login(duel["organiser"])
    url = reverse("fortune_table", args=[duel["campaign"].pk])

    assert "control character" in refusal(client.get(url + "?table=%00"))
    assert "control character" in refusal(client.get(url + "?table=d66%0A", headers=HTMX))
    assert client.get(url + "?table=d100").status_code == 200


def test_a_nul_posted_in_a_form_with_a_token_is_refused_and_changes_nothing(client, duel):
    """The form used to be drawn again with the NUL in it, and the token store, which keeps
    that answer, failed on it (a server error)."""
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    url = reverse("warband_rename", args=[reavers.pk])
    before = fingerprint()

    for headers in ({}, HTMX):
        token = str(uuid.uuid4())
        response = client.post(url, {"name": "Reavers\x00", "form_token": token}, headers=headers)
        assert "“name”" in refusal(response) and "NUL" in refusal(response)
        assert not FormToken.objects.filter(token=token).exists()

    assert fingerprint() == before
    reavers.refresh_from_db()
    assert reavers.name == "Reavers"


@pytest.mark.parametrize("character", ["\x01", "\x1b", "\x7f", "\u0085", "\x0b"])
def test_every_control_character_but_a_textareas_own_is_refused(client, duel, character):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    response = client.post(
        reverse("warband_rename", args=[reavers.pk]), {"name": f"Reavers{character}"}
    )
    assert "control character" in refusal(response)


def test_a_textareas_newlines_and_tabs_still_go_through(client, duel):
    campaign = duel["campaign"]
    client.force_login(duel["organiser"])
    description = "First line\r\nSecond line\twith a tab"

    response = client.post(
        reverse("campaign_settings", args=[campaign.pk]),
        {"name": campaign.name, "description": description, "start_date": "2026-11-01",
         "max_warbands_per_player": 1, "form_token": str(uuid.uuid4())},
    )  # fmt: skip

    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.description == description


def test_a_value_longer_than_any_field_takes_is_refused_and_the_longest_table_is_not(client, duel):
    campaign = duel["campaign"]
    client.force_login(duel["organiser"])
    url = reverse("fortune_table", args=[campaign.pk])
    # The longest table a form takes: a hundred rows, each with a result of 200 characters.
    lines = "\n".join(f"{n}-{n} | {'Gem ' * 50} | carried_item" for n in range(1, 101))
    assert len(lines) < LONGEST_VALUE

    accepted = client.post(url, {"table": "d100", "lines": lines})
    assert accepted.status_code == 302
    assert RandomFortuneEntry.objects.filter(campaign=campaign, table="d100").count() == 100

    reason = refusal(client.post(url, {"table": "d66", "lines": "x" * 100_000}, headers=HTMX))
    assert "100,000 characters in “lines”" in reason and f"{LONGEST_VALUE:,}" in reason


def test_an_address_longer_than_any_page_needs_is_refused(client, duel):
    client.force_login(duel["bystander"])
    assert "address is" in refusal(client.get("/join/" + "A" * LONGEST_ADDRESS + "/"))
    assert "address is" in refusal(client.get("/?next=" + "x" * LONGEST_ADDRESS))


def test_a_file_is_refused(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    upload = SimpleUploadedFile("roster.txt", b"Reavers")
    response = client.post(
        reverse("warband_rename", args=[reavers.pk]), {"name": "Reavers II", "file": upload}
    )
    assert "no files" in refusal(response)


def test_a_visitor_not_logged_in_is_refused_rather_than_sent_to_log_in(client):
    """Refused before the log-in check: the log-in page is never given a NUL to come back to."""
    assert "control character" in refusal(client.get("/join/%00/"))


def test_a_unicode_digit_as_the_games_winner_is_refused_by_its_form(client, duel):
    """ "³" is a digit to ``str.isdigit`` but not to ``int``: the move's form refuses it."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    client.force_login(reavers.owner)
    url = reverse("play_move", args=[battle.pk])

    response = client.post(url, {"action": "end", "winner": "³"}, headers=HTMX)

    assert response.status_code == 422
    assert "Pick the warband that won, or a draw." in response.content.decode()
    assert client.post(url, {"action": "end", "winner": "٣٣٣"}, headers=HTMX).status_code == 422
    battle.game.refresh_from_db()
    assert not battle.game.is_over


def test_the_token_store_keeps_any_answer_and_replays_it_byte_for_byte(duel):
    """A NUL in the answer, in a kept header or in the path, and bytes that are not UTF-8: the
    post's token is kept with its answer, and the same form sent again gets back exactly the
    bytes that were sent."""
    user = duel["reavers"].owner
    body = "<p>Reavers\x00 é</p>".encode() + b"\xff\xfe not UTF-8"
    path = "/warbands/1/rename%00/"
    token = str(uuid.uuid4())

    def view(request):
        middleware.process_view(request, view, (), {})  # the view was reached
        return HttpResponse(body, status=422, headers={"HX-Trigger": "moved\x00"})

    middleware = once.OnceMiddleware(view)
    answers = []
    for _ in range(2):
        request = RequestFactory().post(path, {"form_token": token})
        request.user, request.session = user, SessionStore()
        answers.append(middleware(request))

    first, replay = answers
    assert first.content == replay.content == body and replay.status_code == 422
    assert replay["X-Replayed"] == "1"
    kept = FormToken.objects.get(token=token)
    assert bytes(kept.content) == body and kept.headers["HX-Trigger"] == "moved\ufffd"
    assert kept.path == "/warbands/1/rename\ufffd/"


def test_a_username_longer_than_any_account_is_refused_at_log_in(client):
    """Django's log-in form never checked the username's length, and django-axes, recording
    the failed log-in, could not keep a username of more than 255 characters."""
    for length in (151, 256, 5_000):
        response = client.post(reverse("login"), {"username": "x" * length, "password": "y"})
        assert response.status_code == 200
        assert "at most 150 characters" in response.content.decode()


def test_a_body_larger_than_django_reads_is_refused_in_the_layout_too(client, duel):
    """Over DATA_UPLOAD_MAX_MEMORY_SIZE Django itself refuses the request (a 400 drawn from
    the same page, with its default reason)."""
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    response = client.post(
        reverse("warband_rename", args=[reavers.pk]), {"name": "x" * 3_000_000}, headers=HTMX
    )
    assert "could not be read" in refusal(response)
