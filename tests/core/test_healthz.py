"""/healthz answers without the database: no django_db mark, so any query would fail the test.
/readyz answers with it, and 503 when it cannot reach it."""

import socket
from contextlib import contextmanager

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.urls import reverse


def test_healthz_answers_ok_without_touching_the_database(client):
    response = client.get(reverse("healthz"))

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_does_not_load_the_session_of_a_logged_in_browser(
    client, user, django_assert_num_queries
):
    client.force_login(user)

    with django_assert_num_queries(0):
        response = client.get(reverse("healthz"))

    assert response.status_code == 200


def test_healthz_refuses_writes(client):
    assert client.post(reverse("healthz")).status_code == 405


@pytest.mark.django_db
def test_readyz_answers_ok_after_one_statement_and_reads_no_session(
    client, user, django_assert_num_queries
):
    client.force_login(user)

    with django_assert_num_queries(1):
        response = client.get(reverse("readyz"))

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert client.post(reverse("readyz")).status_code == 405


@pytest.fixture
def closed_port() -> int:
    """A TCP port on this machine that nobody listens on: bound, then let go."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def database_at(host: str, port: int):
    """The default connection pointed at ``host:port`` until the block ends; then back to the
    test database, connecting afresh."""
    connection = connections[DEFAULT_DB_ALIAS]
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST=host, PORT=str(port))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


def test_readyz_answers_503_while_the_database_is_unreachable_and_ok_again_after(
    client, django_db_setup, django_db_blocker, closed_port
):
    """A real connection attempt to a port where no server listens (refused), not a mock;
    /healthz, the liveness check, still answers ok meanwhile."""
    with django_db_blocker.unblock():
        assert client.get(reverse("readyz")).status_code == 200
        with database_at("127.0.0.1", closed_port):
            down = client.get(reverse("readyz"))
            assert client.get(reverse("healthz")).status_code == 200
        assert client.get(reverse("readyz")).status_code == 200

    assert down.status_code == 503
    assert down["Content-Type"].startswith("text/plain")
    assert down.content == b"database unavailable\n"
    assert "no-cache" in down["Cache-Control"]
