"""A refusal on the muster board shows beside the control that was refused, not at the top of
a long page: a warrior's purchase in his card, a hire by the hire form,
the finish by its button."""

import re

import pytest
from django.urls import reverse

from tests.factories import WarbandFactory, hire

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def draft():
    warband = WarbandFactory(name="Reavers")
    hire(warband, "mercenary_captain", items=["sword"], name="Adler")
    hire(warband, "champion", name="Brandt")
    return warband


def section(html: str, start: str) -> str:
    """The page from ``start`` to the end of the element it opens (its next closing tag of
    an article or section)."""
    begin = html.index(start)
    return html[begin : re.search(r"</(article|section)>", html[begin:]).end() + begin]


def test_a_refused_purchase_shows_in_the_warriors_card(client, draft):
    client.force_login(draft.owner)
    brandt = draft.warriors.get(name="Brandt")

    answer = client.post(reverse("warrior_buy_item", args=[brandt.pk]), {"item": "handgun"},
                         headers=HTMX)  # fmt: skip
    html = answer.content.decode()

    assert answer.status_code == 422
    assert "not on Brandt" in section(html, f'id="warrior-{brandt.pk}"')
    adler = draft.warriors.get(name="Adler")
    assert "not on Brandt" not in section(html, f'id="warrior-{adler.pk}"')
    assert html.count('role="alert"') == 1


def test_a_refused_hire_and_finish_show_by_their_forms(client, draft):
    client.force_login(draft.owner)

    hired = client.post(reverse("warband_hire", args=[draft.pk]), {"group_size": 1},
                        headers=HTMX).content.decode()  # fmt: skip
    assert 'data-testid="error-here"' in section(hired, 'aria-labelledby="hire-heading"')
    finished = client.post(reverse("warband_finish", args=[draft.pk]), headers=HTMX)
    html = finished.content.decode()
    assert 'data-testid="error-here"' in section(html, 'aria-labelledby="finish-heading"')
