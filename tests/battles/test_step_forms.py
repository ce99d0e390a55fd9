"""The post-battle sequence reads every post through a form (battles/step_forms.py): the
services get whole numbers, keys and short texts, and input that does not read is refused
with the step's own words before anything is locked or changed."""

import pytest
from django.http import QueryDict
from django.urls import reverse

from battles.aftermath import TREASURY_STEPS
from battles.aftermath import forms as step_forms
from battles.models import StepRecord
from core.errors import RuleViolation
from tests.helpers import battle_of, play_to, sequence_of
from warbands.models import HiredSword


def test_amounts_are_whole_numbers_within_their_bounds():
    assert step_forms.clean_action(4, "sell", {"shards": " 3 ", "into": "pile"}) == {
        "shards": 3,
        "into": "pile",
    }
    for bad, message in [
        ("lots", "Shards to sell: give a whole number."),
        ("1.5", "Shards to sell: give a whole number."),
        ("--3", "Shards to sell: give a whole number."),
        ("9" * 40, "Shards to sell: give a whole number."),
        ("١٢", "Shards to sell: give a whole number."),
        ("", "Shards to sell: give a number from 1 to 1000."),
        ("0", "Shards to sell: give a number from 1 to 1000."),
        ("1001", "Shards to sell: give a number from 1 to 1000."),
    ]:
        with pytest.raises(RuleViolation) as refused:
            step_forms.clean_action(4, "sell", {"shards": bad})
        assert str(refused.value) == message


def test_a_blank_amount_is_nothing():
    values = step_forms.clean_action(9, "move", {"source": "pile", "target": "7"})

    assert values == {"source": "pile", "target": 7, "gold": 0, "wyrdstone": 0}


@pytest.mark.parametrize(
    ("posted", "read"),
    [
        ("12", 12),
        ("pile", None),
        ("", None),
        ("x1", None),
        ("-3", None),
        (str(2**64), None),
        ("²", None),
    ],
)
def test_a_key_is_a_whole_number_and_the_pile_only_where_it_may_be(posted, read):
    values = step_forms.clean_action(8, "buy_stash", {"into": posted, "item": "rope"})

    assert values["into"] == read


def test_the_pile_is_a_destination_where_treasure_may_go_unstored():
    assert step_forms.clean_action(8, "sell", {"what": "stored:4", "into": "pile"}) == {
        "what": ("stored", 4),
        "into": "pile",
    }
    assert step_forms.clean_action(8, "sell", {"what": "owned:x"})["what"] == ("owned", None)


def test_checkboxes_read_as_a_list_of_keys():
    posted = QueryDict(mutable=True)
    posted.setlist("items", ["3", "nope", "²", "5"])
    posted["target"] = "9"

    values = step_forms.clean_action(9, "store", posted)

    assert values["items"] == [3, 5]


def test_names_are_cut_to_length_and_null_characters_are_refused():
    values = step_forms.clean_action(7, "hire_sword", {"name": "  Aenur " + "x" * 200})
    assert values["name"] == "Aenur " + "x" * 94

    with pytest.raises(RuleViolation, match="Null characters are not allowed"):
        step_forms.clean_action(7, "hire_sword", {"name": "Ae\x00nur"})


def test_an_action_that_the_step_does_not_have_is_refused():
    with pytest.raises(RuleViolation, match="Nothing to do here"):
        step_forms.clean_action(9, "explode", {})
    with pytest.raises(RuleViolation, match="Nothing to do here"):
        step_forms.clean_action(4, "move", {})  # step 9's, not step 4's


def test_every_treasury_step_but_the_last_stores_from_the_pile():
    for step in TREASURY_STEPS[:-1]:
        assert step_forms.clean_action(step, "store", {"target": "2", "gold": "5"})["gold"] == 5
    with pytest.raises(RuleViolation, match="Nothing to do here"):  # step 10 only counts
        step_forms.clean_action(10, "store", {"target": "2", "gold": "5"})


@pytest.mark.parametrize("step", ["", "eleven", "-1", "11"])
def test_a_post_for_no_step_is_out_of_date(step):
    with pytest.raises(RuleViolation, match="The form is out of date: reload the page"):
        step_forms.clean_posted({"step": step})


def test_a_post_says_its_step_action_dice_and_answer():
    posted = step_forms.clean_posted({"step": "3", "action": "store", "dice": "4 2"})

    assert posted == {
        "step": 3,
        "action": "store",
        "dice": "4 2",
        "answer": "",
        "reason": "",
        "current": None,
        "confirmed": False,
    }


@pytest.mark.django_db
def test_a_post_that_does_not_read_answers_422_and_changes_nothing(client, duel):
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), 7, reavers.owner)
    client.force_login(reavers.owner)
    url = reverse("sequence_act", args=[sequence.pk])

    for posted, status, message in [
        # A NUL is refused for the whole app before the step reads it (core.middleware).
        ({"step": "7", "action": "hire_sword", "name": "Ae\x00nur"}, 400, "control character"),
        ({"step": "7", "action": "hire_sword", "hire_fee": "a lot"}, 422, "Hire fee: give a whole"),
        ({"step": "seven", "action": "hire_sword", "name": "Aenur"}, 422, "The form is out of"),
    ]:
        response = client.post(url, posted, headers={"HX-Request": "true"})
        assert response.status_code == status
        assert message in response.content.decode()
    assert not HiredSword.objects.filter(warband=reavers).exists()
    assert not StepRecord.objects.filter(sequence=sequence, step=7).exists()

    response = client.post(
        url, {"step": "7", "action": "hire_sword", "name": "Aenur"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert HiredSword.objects.get(warband=reavers).name == "Aenur"
