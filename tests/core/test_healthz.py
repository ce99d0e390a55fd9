"""/healthz answers without the database: no django_db mark, so any query would fail the test."""

import pytest
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
