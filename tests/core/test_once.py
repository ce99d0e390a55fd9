"""One-time form tokens: a replayed POST gets the first answer and changes nothing."""

import re
import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from core import once
from core.models import FormToken
from tests.factories import (
    CampaignFactory,
    MembershipFactory,
    WarbandFactory,
    hire,
    mustered_warband,
)
from tests.helpers import battle_of, play_to, run_together, sequence_of
from warbands import services
from warbands.models import LedgerEntry, Warrior

HTMX = {"HX-Request": "true"}


def token_in(page: str) -> str:
    return re.search(r'name="form_token" value="([^"]+)"', page).group(1)


@pytest.mark.django_db
def test_every_form_of_a_page_carries_its_own_token(client, duel):
    client.force_login(duel["reavers"].owner)
    page = client.get(reverse("warband_treasury", args=[duel["reavers"].pk])).content.decode()
    tokens = re.findall(r'name="form_token" value="([^"]+)"', page)
    assert len(tokens) > 3 and len(set(tokens)) == len(tokens)
    assert all(uuid.UUID(t) for t in tokens)


@pytest.mark.django_db
def test_a_treasury_move_posted_twice_moves_once_and_answers_the_same(client, duel):
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), 9, reavers.owner)
    chest = reavers.containers.get(kind="treasure_chest")
    sack = reavers.containers.filter(kind="large_sack").order_by("gold_crowns").first()
    client.force_login(reavers.owner)
    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
    form = page.split('name="action" value="move"')[0].rsplit("<form", 1)[1]
    data = {"step": 9, "action": "move", "source": chest.pk, "target": sack.pk, "gold": 5,
            "wyrdstone": 0, "form_token": token_in(form)}  # fmt: skip
    url = reverse("sequence_act", args=[sequence.pk])

    first = client.post(url, data, headers=HTMX)
    second = client.post(url, data, headers=HTMX)

    assert first.status_code == second.status_code == 200
    assert second.content == first.content and second["X-Replayed"] == "1"
    chest.refresh_from_db()
    assert chest.gold_crowns == 95
    assert LedgerEntry.objects.filter(reason="transfer", step=9).count() == 2  # out and in


@pytest.mark.django_db
def test_a_double_click_on_hire_hires_once(client):
    warband = WarbandFactory()
    client.force_login(warband.owner)
    page = client.get(reverse("warband_muster", args=[warband.pk])).content.decode()
    token = token_in(page.split(f'action="{reverse("warband_hire", args=[warband.pk])}"')[1])
    guards = warband.warband_type.warrior_types.get(key="warrior")
    data = {"warrior_type": guards.pk, "name": "Guards", "group_size": 2, "form_token": token}

    for _ in range(2):  # without the token each click would hire a group
        client.post(reverse("warband_hire", args=[warband.pk]), data, headers=HTMX)

    assert Warrior.objects.filter(warband=warband).count() == 1
    warband.refresh_from_db()
    assert warband.gold_crowns == 500 - 2 * 25


@pytest.mark.django_db
def test_a_token_is_the_users_and_the_forms_own(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    token = str(uuid.uuid4())
    client.force_login(reavers.owner)
    url = reverse("warband_rename", args=[reavers.pk])
    client.post(url, {"name": "Reavers II", "form_token": token})
    client.force_login(scourge.owner)
    other = client.post(reverse("warband_rename", args=[scourge.pk]),
                        {"name": "Scourge II", "form_token": token})  # fmt: skip
    assert other.status_code == 409
    scourge.refresh_from_db()
    assert scourge.name == "Scourge"
    assert FormToken.objects.get(token=token).user == reavers.owner


@pytest.mark.django_db
def test_a_post_refused_by_the_csrf_check_does_not_take_its_token(duel):
    """The form sent again once the CSRF token is right goes ahead (it replayed the 403)."""
    reavers = duel["reavers"]
    client = Client(enforce_csrf_checks=True)
    client.force_login(reavers.owner)
    client.get("/")  # the CSRF cookie
    url = reverse("warband_rename", args=[reavers.pk])
    data = {"name": "Reavers II", "form_token": str(uuid.uuid4())}

    refused = client.post(url, data)
    assert refused.status_code == 403
    assert not FormToken.objects.filter(token=data["form_token"]).exists()

    accepted = client.post(url, data, headers={"X-CSRFToken": client.cookies["csrftoken"].value})
    assert accepted.status_code == 302 and "X-Replayed" not in accepted
    reavers.refresh_from_db()
    assert reavers.name == "Reavers II"
    assert FormToken.objects.get(token=data["form_token"]).status == 302


@pytest.mark.django_db
def test_forms_without_a_token_still_work_and_log_in_is_left_alone(client, duel, password):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    client.post(reverse("warband_rename", args=[reavers.pk]), {"name": "No token"})
    reavers.refresh_from_db()
    assert reavers.name == "No token"
    client.logout()
    credentials = {"username": reavers.owner.username, "password": password}
    response = client.post(reverse("login"), {**credentials, "form_token": str(uuid.uuid4())})
    assert response.status_code == 302 and not FormToken.objects.filter(path="/accounts/login/")


@pytest.mark.django_db(transaction=True)
def test_the_same_token_posted_twice_at_once_applies_once(reference_data):

    campaign = CampaignFactory()
    MembershipFactory(campaign=campaign, is_organiser=True)
    warband = WarbandFactory(campaign=campaign)
    hire(warband, "mercenary_captain", name="Adler")
    mustered_warband(campaign=campaign)
    captain_type = warband.warband_type.warrior_types.get(key="champion")
    token = str(uuid.uuid4())
    answers = []

    def post():
        client = Client()
        client.force_login(warband.owner)
        response = client.post(
            reverse("warband_hire", args=[warband.pk]),
            {"warrior_type": captain_type.pk, "name": "Brandt", "group_size": 1,
             "form_token": token},
            headers=HTMX,
        )  # fmt: skip
        answers.append(response.content)
        connection.close()

    outcomes = run_together(post, post)

    assert outcomes == ["done", "done"]
    assert Warrior.objects.filter(warband=warband, name="Brandt").count() == 1
    assert answers[0] == answers[1]


@pytest.mark.django_db
def test_about_one_token_in_200_deletes_the_tokens_older_than_a_week(duel):

    user = duel["reavers"].owner
    old = FormToken.objects.create(token=uuid.uuid4(), user=user, path="/x/")
    recent = FormToken.objects.create(token=uuid.uuid4(), user=user, path="/x/")
    FormToken.objects.filter(pk=old.pk).update(created_at=timezone.now() - once.KEEP * 1.1)
    answer = HttpResponse("Moved", status=201, headers={"HX-Trigger": "ledger-changed"})

    once.store_token(uuid.UUID(int=201), user, "/y/", answer)  # not the one in 200
    assert FormToken.objects.filter(pk=old.pk).exists()
    with CaptureQueriesContext(connection) as stored:
        once.store_token(uuid.UUID(int=400), user, "/y/", answer)
    assert not FormToken.objects.filter(pk=old.pk).exists()
    assert FormToken.objects.filter(pk=recent.pk).exists()
    kept = FormToken.objects.get(token=uuid.UUID(int=400))
    assert (kept.status, bytes(kept.content), kept.headers) == (
        201,
        b"Moved",
        {"Content-Type": "text/html; charset=utf-8", "HX-Trigger": "ledger-changed"},
    )
    statements = [q["sql"].split()[0] for q in stored if "SAVEPOINT" not in q["sql"]]
    assert statements == ["DELETE", "INSERT"]
    with pytest.raises(IntegrityError), transaction.atomic():
        once.store_token(uuid.UUID(int=400), user, "/y/", HttpResponse("Again"))
    assert bytes(FormToken.objects.get(token=uuid.UUID(int=400)).content) == b"Moved"


@pytest.mark.django_db
def test_every_post_with_a_token_costs_one_statement_for_it(client, duel):
    """The token and its answer go in together, at the end: one INSERT, no claim and update."""
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    url = reverse("warband_rename", args=[reavers.pk])
    client.post(url, {"name": "Warm-up"})  # the session and the user's caches

    with CaptureQueriesContext(connection) as plain:
        client.post(url, {"name": "Reavers II"})
    with CaptureQueriesContext(connection) as once:
        # a token that does not also prune old ones, as one in 200 does (once.store_token)
        client.post(url, {"name": "Reavers III", "form_token": str(uuid.UUID(int=201))})

    def statements(captured):  # the test's own transaction makes savepoints of atomic blocks
        return [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]

    tokens = [sql for sql in statements(once) if "core_formtoken" in sql]
    assert len(statements(once)) == len(statements(plain)) + 1
    assert len(tokens) == 1 and tokens[0].startswith("INSERT")


@pytest.mark.django_db
def test_a_post_that_fails_keeps_nothing_and_may_be_sent_again(duel, monkeypatch):
    """A server error (500) rolls back what the view wrote and does not keep the token, so the
    same form sent again goes ahead rather than replaying the error."""

    reavers = duel["reavers"]
    client = Client(raise_request_exception=False)
    client.force_login(reavers.owner)
    url = reverse("warband_rename", args=[reavers.pk])
    data = {"name": "Reavers II", "form_token": str(uuid.uuid4())}
    rename = services.rename_warband

    def rename_then_fail(*args, **kwargs):
        rename(*args, **kwargs)
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(services, "rename_warband", rename_then_fail)
    failed = client.post(url, data)
    assert failed.status_code == 500
    reavers.refresh_from_db()
    assert reavers.name == "Reavers" and not FormToken.objects.filter(token=data["form_token"])

    monkeypatch.setattr(services, "rename_warband", rename)
    again = client.post(url, data)
    assert again.status_code == 302 and "X-Replayed" not in again
    reavers.refresh_from_db()
    assert reavers.name == "Reavers II"


@pytest.mark.django_db
def test_a_double_click_says_what_it_did_once(client, duel):
    """The second post's view runs and is undone; the message it added goes with it."""
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    data = {"name": "Reavers II", "form_token": str(uuid.uuid4())}
    url = reverse("warband_rename", args=[reavers.pk])

    first = client.post(url, data)
    second = client.post(url, data)

    assert first.status_code == second.status_code == 302 and second["X-Replayed"] == "1"
    roster = client.get(first["Location"]).content.decode()
    assert roster.count("Warband renamed.") == 1
    assert "Warband renamed." not in client.get(first["Location"]).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_form_sent_twice_at_once_says_what_it_did_once(reference_data):
    """Both posts read the session before either saves it: the one undone must not save it,
    or it would overwrite the first's message with what it read (no message)."""

    warband = mustered_warband()
    owner = Client()
    owner.force_login(warband.owner)
    session = owner.cookies["sessionid"].value
    url = reverse("warband_rename", args=[warband.pk])
    data = {"name": "Sent Twice", "form_token": str(uuid.uuid4())}
    answers = []

    def post():
        client = Client()
        client.cookies["sessionid"] = session
        answers.append(client.post(url, data).status_code)
        connection.close()

    for _ in range(3):  # the race is the threads'; three rounds make it likely
        data["form_token"] = str(uuid.uuid4())
        answers.clear()
        assert run_together(post, post) == ["done", "done"] and answers == [302, 302]
        roster = owner.get(reverse("warband_roster", args=[warband.pk])).content.decode()
        assert roster.count("Warband renamed.") == 1
