"""The post-battle sequence reads every post through a form (battles/step_forms.py): the
services get whole numbers, keys, short texts and the warband's own containers (the
treasury's forms, whose fields choose among them), and input that does not read is refused
with the step's own words before anything is locked or changed."""

import pytest
from django.http import QueryDict
from django.urls import reverse

from battles.aftermath import TREASURY_STEPS
from battles.aftermath import forms as step_forms
from battles.models import StepRecord
from core.errors import RuleViolation
from tests.helpers import battle_of, play_to, sack_with_room, sequence_of
from tests.helpers import chest as chest_of
from warbands import treasury
from warbands.models import HiredSword, Item
from warbands.treasury.forms import MoveTreasureForm


@pytest.mark.django_db
def test_amounts_are_whole_numbers_within_their_bounds(duel):
    reavers = duel["reavers"]
    values = step_forms.clean_action(4, "sell", {"shards": " 3 ", "into": "pile"}, warband=reavers)
    assert values["shards"] == 3
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
            step_forms.clean_action(4, "sell", {"shards": bad, "into": "pile"}, warband=reavers)
        assert str(refused.value) == message


@pytest.mark.django_db
def test_a_blank_amount_is_nothing(duel):
    """Step 9's move is the treasury page's form: blank gold or wyrdstone moves none."""
    reavers = duel["reavers"]
    chest, sack = chest_of(reavers), sack_with_room(reavers)

    form = step_forms.clean_action(
        9, "move", {"source": chest.pk, "target": sack.pk, "gold": ""}, warband=reavers
    )

    assert isinstance(form, MoveTreasureForm)
    assert form.cleaned_data == {"source": chest, "target": sack, "gold": 0, "wyrdstone": 0}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("posted", "message"),
    [("", "Into: Choose one of your containers"), ("pile", "Into: Choose one of your"),
     ("x1", "Into: Choose one of"), ("-3", "Into: Choose"), (str(2**64), "Into: Choose"),
     ("²", "Into: Choose")],
)  # fmt: skip
def test_a_container_is_one_of_the_warbands_and_the_pile_only_where_it_may_be(
    duel, posted, message
):
    """A container field (the treasury's ``ContainerField``) takes a key of one of the
    warband's held containers; ``pile`` only where treasure may go unstored."""
    reavers = duel["reavers"]
    data = {"into": posted, "item": "rope"}
    with pytest.raises(RuleViolation, match=message):
        step_forms.clean_action(8, "buy_stash", data, warband=reavers)
    theirs = chest_of(duel["scourge"]).pk
    with pytest.raises(RuleViolation, match="Into: Choose one of your containers"):
        step_forms.clean_action(8, "buy_stash", {"into": theirs}, warband=reavers)
    mine = chest_of(reavers)
    assert (
        step_forms.clean_action(8, "buy_stash", {"into": mine.pk}, warband=reavers)["into"] == mine
    )


@pytest.mark.django_db
def test_the_pile_is_a_destination_where_treasure_may_go_unstored(duel):
    """``pile``: the warband's unstored pile; one it has not had yet is made only when the
    change is made (``treasury.made``), so a refusal leaves none."""
    reavers = duel["reavers"]
    values = step_forms.clean_action(8, "sell", {"what": "stored:4", "into": "pile"},
                                     warband=reavers)  # fmt: skip
    assert values["what"] == ("stored", 4)
    assert values["into"].kind == "loose" and values["into"].pk is None
    assert not reavers.containers.filter(kind="loose").exists()
    pile = treasury.loose_pile(reavers)
    values = step_forms.clean_action(8, "sell", {"what": "owned:x", "into": "pile"},
                                     warband=reavers)  # fmt: skip
    assert values["what"] == ("owned", None) and values["into"] == pile


@pytest.mark.django_db
def test_checkboxes_choose_among_the_unstored_items(duel):
    """Storing what lies unstored chooses among the pile's items: another item is refused."""
    reavers = duel["reavers"]
    pile = treasury.loose_pile(reavers)
    lying = treasury.add_item(pile, item=Item.objects.get(key="sword"), reason="income")
    stored = treasury.add_item(chest_of(reavers), item=Item.objects.get(key="axe"), reason="income")
    posted = QueryDict(mutable=True)
    posted.setlist("items", [str(lying.pk)])
    posted["target"] = str(chest_of(reavers).pk)

    form = step_forms.clean_action(9, "store", posted, warband=reavers)

    assert list(form.cleaned_data["items"]) == [lying]
    posted.setlist("items", [str(lying.pk), str(stored.pk)])
    with pytest.raises(RuleViolation, match="Choose among the unstored items"):
        step_forms.clean_action(9, "store", posted, warband=reavers)


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


@pytest.mark.django_db
def test_every_treasury_step_but_the_last_stores_from_the_pile(duel):
    reavers = duel["reavers"]
    data = {"target": chest_of(reavers).pk, "gold": "5"}
    for step in TREASURY_STEPS[:-1]:
        assert (
            step_forms.clean_action(step, "store", data, warband=reavers).cleaned_data["gold"] == 5
        )
    with pytest.raises(RuleViolation, match="Nothing to do here"):  # step 10 only counts
        step_forms.clean_action(10, "store", data, warband=reavers)


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
