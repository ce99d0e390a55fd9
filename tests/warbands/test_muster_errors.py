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


def field_and_message(html: str, field_id: str) -> tuple[str, str]:
    """The element with ``field_id`` and the element that follows it (after whitespace and
    a closing label): where its message belongs."""
    tag = re.search(rf'<(input|select|textarea)[^>]*\bid="{field_id}"[^>]*>', html)
    assert tag, f"no field {field_id}"
    after = re.match(r"(?:\s|</label>|</select>|<option[^>]*>[^<]*</option>)*(<[^>]*>[^<]*)",
                     html[tag.end():])  # fmt: skip
    return tag.group(0), after.group(1) if after else ""


def test_a_hire_of_a_bad_group_size_shows_its_message_beside_that_field(client, draft):
    client.force_login(draft.owner)
    warrior = draft.warband_type.warrior_types.get(key="warrior")
    before = list(draft.warriors.values_list("pk", "group_size"))
    draft.refresh_from_db()
    gold = draft.gold_crowns

    posted = {"warrior_type": warrior.pk, "group_size": "lots"}
    answer = client.post(reverse("warband_hire", args=[draft.pk]), posted, headers=HTMX)
    html = answer.content.decode()

    assert answer.status_code == 422
    field_id = f"id_group_size_type_{warrior.pk}"
    field, message = field_and_message(html, field_id)
    assert 'value="lots"' in field and 'aria-invalid="true"' in field
    assert f'aria-describedby="{field_id}_error"' in field
    assert message.startswith(f'<small class="errorlist" id="{field_id}_error" role="alert">')
    assert message.endswith("Enter a whole number.")
    assert html.count("Enter a whole number") == 1  # only there, not atop the board
    assert list(draft.warriors.values_list("pk", "group_size")) == before
    draft.refresh_from_db()
    assert draft.gold_crowns == gold


def test_a_refused_group_size_shows_its_message_in_the_warriors_form(client, draft):
    warriors = hire(draft, "warrior", models=2, name="Guards")
    client.force_login(draft.owner)

    answer = client.post(reverse("warrior_group_size", args=[warriors.pk]), {"group_size": 0},
                         headers=HTMX)  # fmt: skip
    html = answer.content.decode()

    assert answer.status_code == 422
    field, message = field_and_message(html, f"id_group_size_{warriors.pk}")
    assert 'max="5"' in field and 'aria-invalid="true"' in field
    assert "greater than or equal to 1" in message
    warriors.refresh_from_db()
    assert warriors.group_size == 2
