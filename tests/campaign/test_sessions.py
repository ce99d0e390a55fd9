"""The session and the user of every logged-in request, read with hand-written statements
(campaign/sessions.py, campaign.auth.DemoPasswordRefusingBackend.get_user): the same answers
as Django's own readers, one statement each."""

import datetime

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db as django_sessions
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaign.auth import DemoPasswordRefusingBackend
from campaign.sessions import SessionStore
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _stored(data: dict) -> str:
    session = SessionStore()
    session.update(data)
    session.create()
    return session.session_key


def test_settings_use_the_hand_written_session_reader(settings):
    assert settings.SESSION_ENGINE == "campaign.sessions"


def test_a_live_session_reads_as_djangos_reader_reads_it():
    key = _stored({"colour": "green", "count": 3})

    with CaptureQueriesContext(connection) as queries:
        ours = SessionStore(key).load()
    theirs = django_sessions.SessionStore(key).load()

    assert ours == theirs == {"colour": "green", "count": 3}
    assert len(queries) == 1


@pytest.mark.parametrize("when", ["expired", "unknown"])
def test_an_expired_or_unknown_session_is_empty_and_its_key_forgotten(when):
    key = _stored({"colour": "green"})
    if when == "expired":
        Session.objects.filter(pk=key).update(
            expire_date=timezone.now() - datetime.timedelta(seconds=1)
        )
    else:
        key = "x" * 32

    session = SessionStore(key)

    assert session.load() == {}
    assert session.session_key is None  # saving it makes a new session, never the old key


def test_the_user_reads_as_djangos_backend_reads_it():
    user = UserFactory(first_name="Karl", email="karl@example.com", is_staff=True)
    ours = DemoPasswordRefusingBackend().get_user(user.pk)

    expected = get_user_model().objects.get(pk=user.pk)
    for field in get_user_model()._meta.concrete_fields:
        assert getattr(ours, field.attname) == getattr(expected, field.attname), field.name
    assert not ours._state.adding and ours._state.db == "default"


@pytest.mark.parametrize("user_id", ["999999", "not-a-number", None])
def test_no_user_for_an_unknown_or_malformed_id(user_id):
    assert DemoPasswordRefusingBackend().get_user(user_id) is None


def test_an_inactive_user_is_logged_out(client):
    user = UserFactory()
    client.force_login(user)
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)

    response = client.get(reverse("dashboard"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_password_change_logs_out_the_users_other_sessions(client, password):
    user = UserFactory()
    other = client.__class__()
    client.force_login(user)
    other.force_login(user)
    assert other.get(reverse("dashboard")).status_code == 200

    changed = client.post(
        reverse("password_change"),
        {"old_password": password, "new_password1": "Sigmar-protects-77",
         "new_password2": "Sigmar-protects-77"},
    )  # fmt: skip

    assert changed.status_code == 302
    assert client.get(reverse("dashboard")).status_code == 200  # this session was renewed
    assert other.get(reverse("dashboard")).status_code == 302  # the other one is out
    assert SESSION_KEY not in other.session


def test_a_logged_in_page_reads_session_and_user_with_one_statement_each(client):
    user = UserFactory()
    client.force_login(user)

    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("dashboard"), headers={"Cache-Control": "no-cache"})

    sessions = [q for q in queries if Session._meta.db_table in q["sql"]]
    users = [q for q in queries if 'FROM "auth_user" WHERE "id" = ' in q["sql"]]
    assert len(sessions) == 1 and sessions[0]["sql"].startswith("SELECT session_data FROM")
    assert len(users) == 1
