"""The battle pages read their input through forms: bad input gets a message and changes
nothing; good input reaches the services as cleaned values."""

import pytest
from django.urls import reverse

from battles.dice import parse_faces
from battles.models import CarriedItemAtEnd
from battles.report import sides
from battles.report.forms import CarriedItemsForm
from battles.report.forms.side import WarriorSideForm
from battles.rules import scenarios
from core.dice import DiceError
from tests.helpers import battle_of, message_beside, play_to, reported, sequence_of

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("posted", "error"),
    [
        ({"enemies": "many"}, "enemies"),
        ({"enemies": "-1"}, "enemies"),
        ({"enemies": "51"}, "enemies"),
        ({"experience": "21"}, "experience"),
        ({"by": "x"}, "by"),
        ({"models": "4"}, "models"),  # a group of 3
    ],
)
def test_a_warriors_row_refuses_what_does_not_read(posted, error, duel):
    guards = duel["reavers"].warriors.get(warrior_type__key="warrior")
    form = WarriorSideForm(
        {f"o7-{k}": v for k, v in posted.items()},
        prefix="o7", warrior=guards, played=scenarios.OTHER,
    )  # fmt: skip

    assert not form.is_valid()
    assert list(form.errors) == [error]


def test_a_warriors_row_reads_into_an_outcome_with_the_scenarios_awards(duel):
    captain = duel["reavers"].warriors.get(is_leader=True)
    posted = {
        "o7-took_part": "on", "o7-ooa": "on", "o7-by": "9", "o7-enemies": "2",
        "o7-award_escaping": "on",
    }  # fmt: skip
    form = WarriorSideForm(
        posted, prefix="o7", warrior=captain, played=scenarios.scenario("street_fight")
    )

    assert form.is_valid(), form.errors
    assert form.outcome() == sides.Outcome(
        captain.pk, out_of_action=True, enemies_out_of_action=2, taken_out_by_id=9,
        awards={"escaping": 1},
    )  # fmt: skip
    absent = WarriorSideForm({}, prefix="o7", warrior=captain, played=scenarios.OTHER)
    assert absent.is_valid() and absent.outcome() is None  # did not take part


def test_a_henchman_row_offers_no_heroes_only_award(duel):
    guards = duel["reavers"].warriors.get(warrior_type__key="warrior")
    form = WarriorSideForm(
        {}, prefix="o7", warrior=guards, played=scenarios.scenario("street_fight")
    )

    assert "award_escaping" not in form.fields
    assert [field for _, field in form.award_cells] == [None]


def test_too_many_enemies_in_the_warriors_form_changes_nothing_and_says_who(client, duel):
    battle = reported(duel)
    captain = duel["reavers"].warriors.get(is_leader=True)
    client.force_login(duel["reavers"].owner)

    response = client.post(
        reverse("battle_side", args=[battle.pk, duel["reavers"].pk]),
        {f"o{captain.pk}-took_part": "on", f"o{captain.pk}-enemies": "5000"},
    )

    assert response.status_code == 422
    html = response.content.decode()
    assert f'aria-label="Enemies {captain.name} put out of action"' in html
    assert "less than or equal to 50" in message_beside(html, f"id_o{captain.pk}-enemies")
    assert not battle.participants.get(warband=duel["reavers"]).outcomes.exists()


def test_the_securers_count_defaults_to_none_and_refuses_nonsense():
    empty = CarriedItemsForm({})
    assert empty.is_valid()
    assert empty.cleaned_data == {
        "securers": 0,
        "pitters": 0,
        "quartermasters": 0,
        "override": False,
    }
    assert list(CarriedItemsForm({"securers": "lots", "pitters": "3"}).errors) == [
        "securers",
        "pitters",
    ]


@pytest.mark.parametrize(
    "posted",
    [
        {"securers": "lots"},
        {"securers": "3", "pitters": "9"},
        {"securers": "3", "state": "enemy-999999"},
        {"securers": "3", "state": "enemy-abc"},
        {"securers": "3", "state": "enemy-"},
        {"securers": "3", "state": "enemy-" + "9" * 5000},
        {"securers": "3", "state": ""},
    ],
)
def test_a_bad_declaration_of_carried_items_changes_nothing(client, duel, posted):
    battle = reported(duel, confirmed=True)
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    items = list(battle.carried_items.filter(owner=reavers))
    data = {k: v for k, v in posted.items() if k != "state"}
    for item in items:
        data[f"i{item.pk}-state"] = posted.get("state", "own")

    response = client.post(reverse("battle_declare", args=[battle.pk, reavers.pk]), data)

    assert response.status_code == 422
    undeclared = CarriedItemAtEnd.State.UNDECLARED
    assert not battle.carried_items.filter(owner=reavers).exclude(state=undeclared).exists()


def test_an_enemy_named_in_a_declaration_reaches_the_service(client, duel):
    battle = reported(duel, confirmed=True)
    reavers, scourge = duel["reavers"], duel["scourge"]
    client.force_login(reavers.owner)
    chest = battle.carried_items.get(owner=reavers, label="Treasure Chest")
    data = {"securers": "2"}
    for item in battle.carried_items.filter(owner=reavers):
        data[f"i{item.pk}-state"] = "own"
    data[f"i{chest.pk}-state"] = f"enemy-{scourge.pk}"

    response = client.post(reverse("battle_declare", args=[battle.pk, reavers.pk]), data)

    assert response.status_code == 302
    chest.refresh_from_db()
    assert (chest.state, chest.controlled_by) == ("enemy", scourge)


def test_typed_dice_longer_than_any_die_shows_are_refused_as_dice():
    assert parse_faces("6, 66 100") == [6, 66, 100]
    for typed in ("1000", "9" * 5000, "3 " + "9" * 5000):  # int() alone raises past 4300 digits
        with pytest.raises(DiceError, match="No die shows a number that long"):
            parse_faces(typed)


@pytest.mark.parametrize("typed", ["9" * 5000, "6 " * 100])
def test_a_dice_field_with_thousands_of_digits_gets_a_message(client, duel, typed):
    battle = reported(duel)
    client.force_login(duel["reavers"].owner)

    response = client.post(
        reverse("battle_fortune_markers", args=[battle.pk]), {"dice": typed}, headers=HTMX
    )

    assert response.status_code == 422
    assert "at most 120 characters" in message_beside(response.content.decode(), "id_dice")
    assert not battle.dice_rolls.exists()


def test_a_steps_dice_field_with_thousands_of_digits_gets_a_message(client, duel):
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), 3, reavers.owner)
    client.force_login(reavers.owner)
    client.get(reverse("sequence_detail", args=[sequence.pk]))  # the page lists the rolls
    task = sequence.tasks.get(step=3, kind="exploration")

    response = client.post(
        reverse("sequence_task", args=[sequence.pk, task.pk]),
        {"step": 3, "dice": "9" * 5000},
        headers=HTMX,
    )

    assert response.status_code == 422
    assert "(it has 5000)" in response.content.decode()  # the length message, beside the field
    task.refresh_from_db()
    assert not task.done
