"""A refused post on the captives page: the message beside the field it is about, and nothing
changed."""

import pytest
from django.urls import reverse

from battles.models import Captive
from tests import helpers
from tests.battles.test_captives import capture, fought, hero

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def held(duel):
    """Brandt of the Reavers, held by the Scourge."""
    return capture(hero(duel["reavers"], "Brandt"), duel["scourge"], fought(duel))


def test_a_refused_ransom_shows_its_message_beside_its_field_and_changes_nothing(
    client, duel, held
):
    scourge = duel["scourge"]
    client.force_login(scourge.owner)
    before = helpers.fingerprint()

    response = client.post(reverse("captive_ransom", args=[scourge.pk, held.pk]),
                           {"ransom": "-5"}, headers=HTMX)  # fmt: skip
    html = response.content.decode()

    assert response.status_code == 422
    field = f"id_ransomform_{held.pk}_ransom"
    assert "greater than or equal to 1" in helpers.message_beside(html, field)
    assert html.count('role="alert"') == 1  # beside the field only, not atop the board
    assert helpers.fingerprint() == before
    held.refresh_from_db()
    assert held.ransom is None and held.status == Captive.Status.HELD
