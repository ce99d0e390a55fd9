"""An action that cannot be undone asks first on the server: without the confirm box ticked
it is refused beside the box and nothing changes; with it, it is done."""

import re

import pytest
from django.urls import reverse

from tests.factories import mustered_warband

pytestmark = pytest.mark.django_db


def test_disbanding_asks_first_then_disbands(client):
    warband = mustered_warband()
    client.force_login(warband.owner)
    url = reverse("warband_disband", args=[warband.pk])

    confirm = client.get(url).content.decode()
    assert "cannot be undone" in confirm
    assert re.search(r'<input type="checkbox" name="confirm"[^>]*required', confirm)

    unticked = client.post(url)
    assert unticked.status_code == 422
    assert re.search(
        r'id="id_confirm_error" role="alert">Tick the box to confirm: this cannot be undone\.<',
        unticked.content.decode(),
    )
    warband.refresh_from_db()
    assert warband.status == "active"
    assert not warband.warriors.filter(status="dismissed").exists()

    client.post(url, {"confirm": "on"})
    warband.refresh_from_db()
    assert warband.status == "disbanded"
