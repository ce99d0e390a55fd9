"""The steps' choices (selects of the page's rows, a question's radios) are drawn from their
form classes (``battles.aftermath.forms``): a choice the step refuses, a question left
unanswered, and dice typed too long for the post's envelope come back with status 422 and
the message beside the field that made them, once, and nothing changes."""

import re
from html import unescape

import pytest
from django import forms
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath.forms.fields import RowSelect, Shown
from battles.models import SequenceTask
from tests.helpers import at_step, battle_of, fingerprint, play_to, roll, sequence_of
from warbands.models import Skill, WarriorSkill

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
ALERT = re.compile(r'role="alert"[^>]*>([^<]+)<')


def alerts(html: str) -> list[str]:
    return [m.strip() for m in ALERT.findall(html)]


def beside_select(html: str, name: str) -> str:
    """The message drawn right after the select named ``name``, in its label, else ""."""
    found = re.search(
        rf'<select[^>]*name="{name}"[^>]*>.*?</select>\s*<small class="errorlist"[^>]*>([^<]*)<',
        html,
        re.S,
    )
    return found[1] if found else ""


def beside_input(html: str, name: str) -> str:
    found = re.search(
        rf'<input[^>]*name="{name}"[^>]*>\s*<small class="errorlist"[^>]*>([^<]*)<', html
    )
    return found[1] if found else ""


def post(client, url, data):
    response = client.post(url, data, headers=HTMX)
    return response, unescape(response.content.decode())


class TestAtStep8:
    """The Reavers at step 8, played once for the class."""

    AT_STEP = 8

    def test_the_hire_select_offers_the_list_with_what_may_not_be_hired_disabled(
        self, reavers_at, client, duel
    ):
        sequence, owner = reavers_at
        client.force_login(owner)

        page = unescape(client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode())

        select = re.search(r'<select[^>]*name="warrior_type".*?</select>', page, re.S)[0]
        assert "required" in select.split(">")[0]
        assert '<option value="" selected>Choose…</option>' in select
        assert re.search(r'<option value="\d+">Youngblood, 15 gc</option>', select)
        # A hero type at its maximum (the captain) is offered disabled, with why.
        assert re.search(r'<option value="\d+" disabled>Mercenary Captain, \d+ gc \(', select)

    def test_a_refused_warrior_type_is_told_beside_its_select_and_changes_nothing(
        self, reavers_at, client, duel
    ):
        sequence, owner = reavers_at
        client.force_login(owner)
        before = fingerprint()

        posted = {"step": 8, "action": "hire", "warrior_type": "", "name": "Kurt"}
        response, html = post(client, reverse("sequence_act", args=[sequence.pk]), posted)

        assert response.status_code == 422
        assert beside_select(html, "warrior_type") == "Choose a warrior type of your list."
        assert alerts(html) == ["Choose a warrior type of your list."]
        assert re.search(r'name="name"[^>]*value="Kurt"|value="Kurt"[^>]*name="name"', html)
        assert fingerprint() == before

    def test_a_refused_sale_is_told_beside_its_item_select_and_changes_nothing(
        self, reavers_at, client, duel
    ):
        sequence, owner = reavers_at
        client.force_login(owner)
        before = fingerprint()

        response, html = post(
            client, reverse("sequence_act", args=[sequence.pk]),
            {"step": 8, "action": "sell", "what": "", "into": "pile"},
        )  # fmt: skip

        assert response.status_code == 422
        assert beside_select(html, "what") == "Choose an item to sell."
        assert alerts(html) == ["Choose an item to sell."]
        assert fingerprint() == before


def test_dice_too_long_for_the_post_are_told_beside_the_rows_dice(client, duel):
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    task = roll(sequence, sequence.tasks.filter(step=6).order_by("order").first(), [6, 6], owner)
    assert task.done  # a rarity roll of 12: its row's form is drawn
    client.force_login(owner)
    before = fingerprint()

    response, html = post(client, reverse("sequence_act", args=[sequence.pk]),
                          {"step": 6, "action": "buy_rare", "task": task.pk,
                           "goods": "item:lucky_charm", "dice": "1 " * 70})  # fmt: skip

    assert response.status_code == 422
    told = beside_input(html, "dice")
    assert told.startswith("Ensure this value has at most 120 characters")
    assert alerts(html) == [told]
    assert fingerprint() == before


def test_dice_too_long_for_a_roll_are_told_beside_its_dice(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    sequence = play_to(sequence_of(battle_of(duel, champion_out=True), reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=1, warrior__warrior_type__key="champion")
    before = fingerprint()

    url = reverse("sequence_task", args=[sequence.pk, task.pk])
    response, html = post(client, url, {"step": 1, "dice": "4 " * 70})

    assert response.status_code == 422
    told = beside_input(html, "dice")
    assert told.startswith("Ensure this value has at most 120 characters")
    assert alerts(html) == [told]
    assert fingerprint() == before


@pytest.fixture
def asked(client, duel):
    """Step 3, its exploration rolled with Wyrdstone Hunter: "re-roll one die?" asked."""
    reavers = duel["reavers"]
    champion = reavers.warriors.get(name="Brandt")
    WarriorSkill.objects.create(warrior=champion, skill=Skill.objects.get(key="wyrdstone_hunter"))
    sequence = play_to(sequence_of(battle_of(duel), reavers), 3, reavers.owner)
    client.force_login(reavers.owner)
    client.get(reverse("sequence_detail", args=[sequence.pk]))
    task = sequence.tasks.get(step=3, kind="exploration")
    url = reverse("sequence_task", args=[sequence.pk, task.pk])
    post(client, url, {"step": 3, "dice": "1 2 3"})
    return url, SequenceTask.objects.get(pk=task.pk)


def test_a_questions_choices_are_radios_of_its_options(client, asked):
    _url, task = asked
    page = unescape(
        client.get(reverse("sequence_detail", args=[task.sequence_id])).content.decode()
    )

    radios = re.findall(r'<input type="radio" name="answer" value="([^"]*)"[^>]*required', page)
    assert radios == [str(key) for key, _label in task.question["options"]]


@pytest.mark.parametrize(
    ("answer", "message"), [("", "Choose one."), ("9", "Choose one of the options.")]
)
def test_a_question_left_unanswered_is_told_beside_its_choices(client, asked, answer, message):
    url, task = asked
    before = fingerprint()

    response, html = post(client, url, {"step": 3, "answer": answer})

    assert response.status_code == 422
    fieldset = re.search(r"<fieldset>.*?</fieldset>", html, re.S)[0]
    assert task.question["text"] in fieldset
    assert ALERT.findall(fieldset) == [message]
    assert alerts(html) == [message]
    assert SequenceTask.objects.get(pk=task.pk).question == task.question
    assert fingerprint() == before


def test_one_forms_refused_options_never_grey_another_forms_options():
    """Each form's select keeps its own option attributes: an option greyed for one warband
    (garlic, not for the Undead) is offered plainly to the next."""

    class Pick(Shown, forms.Form):
        goods = forms.CharField(widget=RowSelect)

    undead, reavers = Pick(), Pick()
    undead.offer("goods", [("garlic", "Garlic", {"disabled": True, "title": "Not for the Undead"})])
    reavers.offer("goods", [("garlic", "Garlic")])

    assert "disabled" in str(undead["goods"]) and "Not for the Undead" in str(undead["goods"])
    assert "disabled" not in str(reavers["goods"]) and "Undead" not in str(reavers["goods"])
    assert "disabled" not in str(Pick()["goods"])
