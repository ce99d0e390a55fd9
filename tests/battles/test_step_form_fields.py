"""The steps' forms are drawn from their form classes (``battles.aftermath.forms.page``): a
refused post comes back with status 422 and each message beside its field, once (not again
above the step), in the row it was posted from; what a field asks for that depends on the
page (the shards held, a task's dice) is on its input; and nothing changes."""

import re
from html import unescape

import pytest
from django import forms
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath.forms import BuyRareForm
from battles.aftermath.forms.fields import Shown
from battles.aftermath.forms.page import StepForms, refused_at_its_fields
from tests.helpers import at_step, battle_of, fingerprint, play_to, sequence_of
from warbands import treasury

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
ALERT = re.compile(r'role="alert"[^>]*>([^<]+)<')


def alerts(html: str) -> list[str]:
    return [m.strip() for m in ALERT.findall(html)]


def beside(html: str, name: str) -> str:
    """The message drawn right after the input named ``name``, in its label, else ""."""
    found = re.search(
        rf'<input[^>]*name="{name}"[^>]*>\s*<small class="errorlist"[^>]*>([^<]*)<', html
    )
    return found[1] if found else ""


def act(client, sequence, data):
    response = client.post(reverse("sequence_act", args=[sequence.pk]), data, headers=HTMX)
    return response, unescape(response.content.decode())


def test_the_shards_field_offers_the_shards_held(client, duel):
    sequence, owner = at_step(duel, 4)
    held = treasury.totals(duel["reavers"])["wyrdstone"]
    client.force_login(owner)

    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()

    shards = re.search(r'<input[^>]*name="shards"[^>]*>', page)[0]
    assert f'value="{held}"' in shards and f'max="{held}"' in shards and 'min="1"' in shards
    assert "required" in shards


def test_a_refused_number_is_told_beside_its_field_once_and_changes_nothing(client, duel):
    sequence, owner = at_step(duel, 4)
    client.force_login(owner)
    before = fingerprint()

    posted = {"step": 4, "action": "sell", "shards": "lots", "into": "pile"}
    response, html = act(client, sequence, posted)

    assert response.status_code == 422
    assert beside(html, "shards") == "Shards to sell: give a whole number."
    assert alerts(html) == ["Shards to sell: give a whole number."]
    assert 'value="lots"' in html  # what was typed, to correct
    assert fingerprint() == before


def test_a_refused_hire_by_hand_keeps_what_was_typed_with_the_message_at_its_field(client, duel):
    sequence, owner = at_step(duel, 7)
    client.force_login(owner)
    before = fingerprint()

    response, html = act(client, sequence, {"step": 7, "action": "hire_sword", "name": "Aenur",
                                            "hire_fee": "12", "upkeep": "9999"})  # fmt: skip

    assert response.status_code == 422
    assert beside(html, "upkeep") == "Upkeep: give a number from 0 to 1000."
    assert beside(html, "hire_fee") == ""
    assert alerts(html) == ["Upkeep: give a number from 0 to 1000."]
    by_hand = html[html.index("<strong>By hand</strong>") :]
    assert re.search(r'name="name"[^>]*value="Aenur"|value="Aenur"[^>]*name="name"', by_hand)
    assert fingerprint() == before


def test_a_refused_row_is_drawn_in_its_row_alone(duel):
    """Each rarity roll that succeeded has a form of its own (``Shown.row``): a refused one is
    drawn again in the row it was posted from, with what was typed; the others afresh, each
    with its own roll's key."""
    sequence, _owner = at_step(duel, 6)
    sequences.prepare(sequence)
    tasks = list(sequence.tasks.filter(step=6).order_by("order"))
    assert len(tasks) > 1
    refused = BuyRareForm({"task": str(tasks[-1].pk), "dice": "6 6"}, warband=duel["reavers"])
    refused.is_valid()
    refused.add_error("dice", "Too many.")

    rows = StepForms(sequence, {}, ("buy_rare", refused))["buy_rare"]

    assert rows.get(tasks[-1].pk) is refused
    for task in tasks[:-1]:
        fresh = rows.get(task.pk)
        assert not fresh.is_bound and f'value="{task.pk}"' in str(fresh["task"])
    assert StepForms(sequence, {})["buy_rare"].get(tasks[-1].pk) is not refused


def test_a_message_of_a_field_the_page_does_not_draw_is_the_forms_own():
    class Probe(Shown, forms.Form):
        drawn = ("shown",)
        shown = forms.IntegerField()
        chosen = forms.IntegerField()  # drawn by the page from its own lists

    form = Probe({"shown": "x", "chosen": "y"})
    assert not form.is_valid()

    refused_at_its_fields(form)

    assert list(form.errors) == ["shown", "__all__"]
    assert form.non_field_errors() == ["Enter a whole number."]


def test_a_roll_with_the_wrong_number_of_dice_is_told_beside_its_dice(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    sequence = play_to(sequence_of(battle_of(duel, champion_out=True), reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=1, warrior__warrior_type__key="champion")
    before = fingerprint()

    url = reverse("sequence_task", args=[sequence.pk, task.pk])
    response = client.post(url, {"step": 1, "dice": "4"}, headers=HTMX)
    html = unescape(response.content.decode())

    assert response.status_code == 422
    told = beside(html, "dice")
    assert told.endswith("needs 2 dice (D66); you typed 1.")
    assert alerts(html) == [told]
    field = re.search(r'<input[^>]*name="dice"[^>]*aria-invalid[^>]*>', html)[0]
    assert 'value="4"' in field and 'data-dice="2"' in field
    assert fingerprint() == before
