"""Typed dice mean what they say on the battle page and the other rolls outside the sequence's
tasks: each field says how many dice of which kind it takes, exactly that
many are accepted, one fewer or one more is refused with the count named and nothing changed;
a roll-off has a field of its own, shown (and used) only when it applies; a recovery's further
rolls are asked for in fields of their own; an empty field still has the server roll."""

from html import unescape

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath.forms import clean_action
from battles.models import Battle, Captive, DiceRoll, Participant
from battles.report import fortune
from campaign.models import RandomFortuneEntry
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.helpers import (
    at_step,
    fingerprint,
    reported,
    roll,
    warriors,
)
from warbands import treasury
from warbands.models import Warrior

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def post(client, name, battle, data):
    response = client.post(reverse(name, args=[battle.pk]), data, headers=HTMX)
    return response, unescape(response.content.decode())


def refused(client, name, battle, data, message):
    """The post answers 422 with ``message``, and no row of the database changed."""
    before = fingerprint()
    response, page = post(client, name, battle, data)
    assert response.status_code == 422, page[:300]
    assert message in page
    assert fingerprint() == before


def form_of(page: str, url: str) -> str:
    return page.split(f'action="{url}"')[1].split("</form>")[0]


# --- Random fortune markers: the D3, and the placement roll-off only on a tie --------------


@pytest.fixture
def markers(client, duel):
    battle = reported(duel)  # the two warbands' ratings tie
    client.force_login(duel["reavers"].owner)
    return battle


def test_the_markers_form_says_what_each_field_takes(client, markers):
    page = unescape(client.get(reverse("battle_detail", args=[markers.pk])).content.decode())
    form = form_of(page, reverse("battle_fortune_markers", args=[markers.pk]))

    assert "The markers' D3. Type 1 die (D3 as a D6), e.g. 4" in form
    assert (
        "Placement roll-off, as ratings tie. Type 2 dice (one D6 per warband of equal rating, "
        "in turn: Reavers, Scourge), e.g. 4 1"
    ) in form
    assert 'name="rolloff"' in form


def test_the_markers_take_exactly_one_die_and_the_roll_off_one_per_tied_warband(client, markers):
    name = "battle_fortune_markers"
    refused(client, name, markers, {"dice": "3 4"},
            "The markers' roll needs 1 die (D3 as a D6); you typed 2.")  # fmt: skip
    refused(client, name, markers, {"dice": "3", "rolloff": "4"},
            "The placement roll-off needs 2 dice (one D6 per warband of equal rating, in turn: "
            "Reavers, Scourge); you typed 1.")  # fmt: skip
    refused(client, name, markers, {"dice": "3", "rolloff": "4 5 6"}, "you typed 3.")

    response, _ = post(client, name, markers, {"dice": "3", "rolloff": "45"})

    assert response.status_code == 200
    markers.refresh_from_db()
    assert markers.fortune_markers == 2 + 2  # D3 of a 3, and two warbands
    rolls = list(markers.dice_rolls.order_by("pk").values_list("purpose", "faces", "source"))
    assert rolls == [
        ("random fortune markers (D3)", [3], "entered"),
        ("placement roll-off: Reavers", [4], "entered"),
        ("placement roll-off: Scourge", [5], "entered"),
    ]
    rolloff = markers.dice_rolls.filter(purpose__startswith="placement").first()
    assert rolloff.result == "placement: Scourge, Reavers"  # the higher roll places first


def test_without_a_tie_there_is_no_roll_off_field_and_roll_off_dice_are_refused(client, markers):
    Participant.objects.filter(battle=markers, warband__name="Scourge").update(rating_before=1)
    url = reverse("battle_fortune_markers", args=[markers.pk])
    page = unescape(client.get(reverse("battle_detail", args=[markers.pk])).content.decode())
    assert 'name="rolloff"' not in form_of(page, url)

    refused(client, "battle_fortune_markers", markers, {"dice": "3", "rolloff": "4 5"},
            "The placement roll-off takes no dice now (no roll-off: no two warbands have the "
            "same rating); you typed 2.")  # fmt: skip
    response, _ = post(client, "battle_fortune_markers", markers, {"dice": "3"})

    assert response.status_code == 200
    assert list(markers.dice_rolls.values_list("faces", flat=True)) == [[3]]


def test_empty_fields_still_have_the_server_roll_the_markers_and_the_roll_off(client, markers):
    response, _ = post(client, "battle_fortune_markers", markers, {"dice": "", "rolloff": ""})

    assert response.status_code == 200
    sources = list(markers.dice_rolls.values_list("source", flat=True))
    assert sources == ["server"] * 3  # the D3, then a roll-off die per tied warband


def test_a_typed_d3_and_a_roll_off_left_to_the_server(client, markers):
    response, _ = post(client, "battle_fortune_markers", markers, {"dice": "6"})

    assert response.status_code == 200
    rolls = list(markers.dice_rolls.order_by("pk").values_list("faces", "source"))
    assert rolls[0] == ([6], "entered")
    assert [source for _, source in rolls[1:]] == ["server", "server"]


# --- A discovery test: its D6, then the table's dice when it finds something ---------------


@pytest.fixture
def marked(client, duel):
    """Markers on the table, the campaign's D66 table listed; the Reavers' player logged in."""
    battle = reported(duel)
    fortune.roll_fortune_markers(battle, actor=duel["reavers"].owner, dice=ScriptedDice([6, 3, 4]))
    RandomFortuneEntry.objects.create(
        campaign=duel["campaign"], table="d66", low=41, high=46, result="Bag of gems"
    )
    client.force_login(duel["reavers"].owner)
    return battle


def test_the_discovery_form_labels_the_test_and_the_table(client, duel, marked):
    page = unescape(client.get(reverse("battle_detail", args=[marked.pk])).content.decode())
    form = form_of(page, reverse("battle_discovery", args=[marked.pk]))

    assert "Discovery test. Type 1 die (D6), e.g. 4" in form
    assert (
        "Random fortune table, only if the test finds something. Type 2 dice (D66), e.g. 41 or 4 1"
    ) in form
    assert 'name="result"' not in form  # the table says what is found


def test_a_discovery_takes_one_test_die_and_exactly_the_tables_dice(client, duel, marked):
    data = {"warband": duel["reavers"].pk}
    name = "battle_discovery"
    refused(client, name, marked, {**data, "dice": "5 4"},
            "The discovery test needs 1 die (D6); you typed 2.")  # fmt: skip
    refused(client, name, marked, {**data, "dice": "5", "table": "4"},
            "The random fortune table needs 2 dice (D66); you typed 1.")  # fmt: skip
    refused(client, name, marked, {**data, "dice": "5", "table": "4 1 2"}, "you typed 3.")
    refused(client, name, marked, {**data, "dice": "", "table": "41"}, "Type the test's die too")
    refused(client, name, marked, {**data, "dice": "2", "table": "41"},
            "The random fortune table takes no dice now (the test rolled 2: nothing found); "
            "you typed 2.")  # fmt: skip

    response, _ = post(client, name, marked, {**data, "dice": "5", "table": "41"})

    assert response.status_code == 200
    found = marked.discoveries.get()
    assert (found.test_roll, found.table_roll, found.result) == (5, 41, "Bag of gems")


def test_a_typed_test_and_the_table_left_to_the_server(client, duel, marked):
    response, _ = post(client, "battle_discovery", marked,
                       {"warband": duel["reavers"].pk, "dice": "6"})  # fmt: skip

    assert response.status_code == 200
    table = marked.dice_rolls.get(purpose__startswith="random fortune table")
    assert (table.source, len(table.faces)) == ("server", 2)


def test_without_a_table_the_form_asks_what_was_found_and_takes_no_table_dice(client, duel, marked):
    RandomFortuneEntry.objects.all().delete()
    page = unescape(client.get(reverse("battle_detail", args=[marked.pk])).content.decode())
    form = form_of(page, reverse("battle_discovery", args=[marked.pk]))
    assert 'name="table"' not in form and 'name="result"' in form

    refused(client, "battle_discovery", marked,
            {"warband": duel["reavers"].pk, "dice": "5", "table": "41"},
            "takes no dice now (the campaign lists no random fortune table")  # fmt: skip


# --- A captive sold to the slavers: one D6 ------------------------------------------------


@pytest.fixture
def held(duel):
    battle = Battle.objects.create(
        campaign=duel["campaign"], scenario="Skirmish", status=Battle.Status.CONFIRMED
    )
    brandt = duel["reavers"].warriors.get(name="Brandt")
    Warrior.objects.filter(pk=brandt.pk).update(status=Warrior.Status.CAPTURED)
    return Captive.objects.create(warrior=brandt, captor=duel["scourge"], battle=battle)


def test_a_sale_to_the_slavers_takes_exactly_one_die(client, duel, held):
    scourge = duel["scourge"]
    sack = scourge.containers.filter(kind="large_sack").order_by("-gold_crowns").first()
    chest = treasury.buy_container(scourge, "treasure_chest", actor=scourge.owner, pay_from=sack)
    client.force_login(scourge.owner)
    page = unescape(client.get(reverse("warband_captives", args=[scourge.pk])).content.decode())
    assert "If sold to the slavers. Type 1 die (D6 × 5 gc), e.g. 4" in page
    url = reverse("captive_fate", args=[scourge.pk, held.pk])
    data = {"fate": "sold", "into": chest.pk}

    before = fingerprint()
    response = client.post(url, {**data, "dice": "6 6"}, headers=HTMX)
    assert response.status_code == 422
    assert "Selling Brandt to the slavers needs 1 die (D6 × 5 gc); you typed 2." in unescape(
        response.content.decode()
    )
    assert fingerprint() == before

    response = client.post(url, {**data, "dice": "6"}, headers=HTMX)

    assert response.status_code == 200
    chest.refresh_from_db()
    assert chest.gold_crowns == 30
    assert DiceRoll.objects.get().faces == [6]


# --- Step 6: the price dice of a rare item ------------------------------------------------


def test_a_rare_items_price_takes_exactly_the_dice_its_price_shows(client, duel):
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior=captain)
    roll(sequence, task, [5, 4], owner)  # 9: a Holy Relic (15 + 3D6 gc) may be found
    client.force_login(owner)
    url = reverse("sequence_act", args=[sequence.pk])
    data = {"step": 6, "action": "buy_rare", "task": task.pk, "goods": "item:holy_relic",
            "to": f"warrior:{captain.pk}"}  # fmt: skip

    for typed, count in (("1 2", 2), ("1 2 3 4", 4)):
        before = fingerprint()
        response = client.post(url, {**data, "dice": typed}, headers=HTMX)
        assert response.status_code == 422
        assert f"The Holy/unholy relic's price needs 3 dice (3D6); you typed {count}." in unescape(
            response.content.decode()
        )
        assert fingerprint() == before
    response = client.post(url, {**data, "dice": "123"}, headers=HTMX)

    assert response.status_code == 200
    assert captain.items.get(item__key="holy_relic").price_paid == 15 + 6


def test_an_action_that_takes_no_dice_refuses_typed_ones():
    with pytest.raises(RuleViolation, match=r"takes no typed dice .*; you typed 2"):
        clean_action(7, "hire_sword", {"name": "Aenur", "dice": "4 2"})
    assert clean_action(7, "hire_sword", {"name": "Aenur", "dice": ""})["name"] == "Aenur"
