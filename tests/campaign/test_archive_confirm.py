"""Removing a warband from the campaign cannot be undone: the organiser ticks the confirm box,
checked on the server; without it nothing changes."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_removing_a_warband_from_the_campaign_asks_first(client, league):
    client.force_login(league["organiser"])
    scourge = league["scourge"]
    url = reverse("warband_archive", args=[league["campaign"].pk, scourge.pk])

    unticked = client.post(url)
    assert unticked.status_code == 422
    assert 'id="id_confirm_error" role="alert">Tick the box' in unticked.content.decode()
    scourge.refresh_from_db()
    assert scourge.status == "active"

    client.post(url, {"confirm": "on"})
    scourge.refresh_from_db()
    assert scourge.status == "archived"
