"""Typed dice of step 0: the choosing order's roll-off takes a die per
warband that did not rout, a recovery roll exactly its die, and the rolls that follow (a
roll-off, the routers' chain) are asked for in fields of their own."""

from contextlib import suppress
from html import unescape

import pytest
from django.urls import reverse

from battles import rules
from battles.aftermath import carried_items
from battles.models import Battle
from battles.report import services
from battles.rules import ReportedResult
from core.dice import MoreDice, Need, ScriptedDice, TypedDice
from tests.battles.test_battle_dice import form_of, post, refused
from tests.factories import mustered_warband
from tests.helpers import (
    every_side_entered,
    fingerprint,
)

pytestmark = pytest.mark.django_db


# --- Step 0: the choosing order's roll-off and the recovery rolls --------------------------


def confirmed(duel, results):
    """A confirmed battle of ``results`` ((warband, result, rout order or None) each)."""
    battle = services.report_battle(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario="Skirmish",
        results=[ReportedResult(w.pk, result, order is not None, order)
                 for w, result, order in results],
    )  # fmt: skip
    every_side_entered(battle)
    for warband, *_ in results:
        battle.refresh_from_db()
        if battle.status != Battle.Status.CONFIRMED:
            services.respond(battle, actor=warband.owner, agree=True)
    battle.refresh_from_db()
    return battle


def declared(battle, loose_from):
    """Every warband declares: ``loose_from``'s treasure chest is uncontrolled, the rest held."""
    for participant in battle.participants.select_related("warband"):
        warband = participant.warband
        carried_items.declare_carried_items(
            battle, warband, actor=warband.owner, securers=3,
            declarations=[
                carried_items.Declaration(
                    item.pk,
                    "uncontrolled" if warband == loose_from and item.label == "Treasure Chest"
                    else "own",
                )
                for item in battle.carried_items.filter(owner=warband)
            ],
        )  # fmt: skip
    return battle.carried_items.get(owner=loose_from, label="Treasure Chest")


def test_the_choosing_order_roll_off_takes_a_die_per_warband_that_did_not_rout(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = confirmed(duel, [(reavers, "draw", None), (scourge, "draw", None)])
    declared(battle, scourge)
    client.force_login(reavers.owner)
    page = unescape(client.get(reverse("battle_detail", args=[battle.pk])).content.decode())
    assert (
        "Choosing order roll-off. Type 2 dice (one D6 per warband that did not rout, in turn: "
        "Reavers, Scourge), e.g. 4 1"
    ) in page

    name = "battle_recovery_start"
    refused(client, name, battle, {"dice": "4"},
            "The roll-off for the choosing order needs 2 dice (one D6 per warband that did not "
            "rout, in turn: Reavers, Scourge); you typed 1.")  # fmt: skip
    refused(client, name, battle, {"dice": "4 5 6"}, "you typed 3.")
    response, _ = post(client, name, battle, {"dice": "2 5"})

    assert response.status_code == 200
    battle.refresh_from_db()
    assert battle.choosing_order == [scourge.pk, reavers.pk]


def test_with_one_warband_standing_there_is_no_roll_off_to_type(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = confirmed(duel, [(reavers, "won", None), (scourge, "lost", 1)])
    declared(battle, scourge)
    client.force_login(reavers.owner)
    url = reverse("battle_recovery_start", args=[battle.pk])
    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert 'name="dice"' not in form_of(page, url)

    refused(client, "battle_recovery_start", battle, {"dice": "4"},
            "takes no dice now (no roll-off: the warbands choose in the order they routed); "
            "you typed 1.")  # fmt: skip


@pytest.fixture
def recovery(client, duel):
    """The Reavers won, the Scourge routed and left their treasure chest; the Reavers choose."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = confirmed(duel, [(reavers, "won", None), (scourge, "lost", 1)])
    chest = declared(battle, scourge)
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    client.force_login(reavers.owner)
    return battle, chest


def test_a_recovery_roll_takes_exactly_one_die(client, duel, recovery):
    battle, chest = recovery
    page = unescape(client.get(reverse("battle_detail", args=[battle.pk])).content.decode())
    assert "Recovery roll. Type 1 die (D6), e.g. 4" in page

    refused(client, "battle_recover", battle, {"item": chest.pk, "dice": "1 6"},
            "Recovering the Treasure Chest needs 1 die (D6); you typed 2.")  # fmt: skip
    response, _ = post(client, "battle_recover", battle, {"item": chest.pk, "dice": "1"})

    assert response.status_code == 200
    chest.refresh_from_db()
    assert (chest.outcome, chest.secured_by) == ("recovered", duel["scourge"])  # a natural 1


def test_further_rolls_typed_without_the_first_are_refused(client, recovery):
    battle, chest = recovery
    refused(client, "battle_recover", battle, {"item": chest.pk, "dice": "", "then": "4"},
            "leave the further rolls empty too")  # fmt: skip
    # A 5 for the Reavers, who stand alone: nothing follows, and the "4" is one die too many.
    refused(client, "battle_recover", battle, {"item": chest.pk, "dice": "5", "then": ["4", ""]},
            "Recovering the Treasure Chest rolled 1 die; 1 die typed was left over. Nothing "
            "changed.")  # fmt: skip


@pytest.fixture
def three(client, duel):
    """Three warbands: the Reavers won, the Rats lost standing, the Scourge routed and left
    their treasure chest. The Reavers choose first."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    rats = mustered_warband(campaign=duel["campaign"], name="Rats")
    battle = confirmed(duel, [(reavers, "won", None), (rats, "lost", None), (scourge, "lost", 1)])
    chest = declared(battle, scourge)
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([6, 1]))
    client.force_login(reavers.owner)
    return battle, chest, rats


def test_a_roll_that_leads_to_a_roll_off_asks_for_it_in_a_field_of_its_own(client, duel, three):
    battle, chest, _ = three
    data = {"item": chest.pk, "dice": "6"}  # a natural 6: the warbands still standing roll off
    before = fingerprint()

    response, page = post(client, "battle_recover", battle, data)

    assert response.status_code == 422
    assert fingerprint() == before
    assert "A further roll: Roll-off for Treasure Chest: Reavers. Type 1 die (D6), e.g. 4" in page
    assert '<input type="text" name="dice"' in page and 'value="6" readonly' in page

    refused(client, "battle_recover", battle, {**data, "then": "4 5"},
            "Roll-off for Treasure Chest: Reavers needs 1 die (D6); you typed 2.")  # fmt: skip
    response, page = post(client, "battle_recover", battle, {**data, "then": "4"})
    assert response.status_code == 422
    assert "A further roll: Roll-off for Treasure Chest: Rats. Type 1 die (D6)" in page
    assert '<input type="hidden" name="then" value="4">' in page

    response, _ = post(client, "battle_recover", battle, {**data, "then": ["4", "2"]})

    assert response.status_code == 200
    chest.refresh_from_db()
    assert (chest.outcome, chest.secured_by) == ("captured", duel["reavers"])
    rolls = battle.dice_rolls.filter(purpose__contains="Treasure Chest").order_by("pk")
    assert list(rolls.values_list("faces", "source")) == [([6], "entered"), ([4], "entered"),
                                                          ([2], "entered")]  # fmt: skip


def test_a_further_roll_left_empty_is_rolled_by_the_server_with_all_after_it(client, three):
    battle, chest, _ = three

    response, _ = post(client, "battle_recover", battle,
                       {"item": chest.pk, "dice": "6", "then": ""})  # fmt: skip

    assert response.status_code == 200
    rolls = battle.dice_rolls.filter(purpose__contains="Treasure Chest").order_by("pk")
    sources = list(rolls.values_list("source", flat=True))
    assert sources[0] == "entered" and set(sources[1:]) == {"server"} and len(sources) >= 3


def test_without_htmx_a_further_roll_is_asked_on_the_whole_page(client, three):
    battle, chest, _ = three

    response = client.post(
        reverse("battle_recover", args=[battle.pk]), {"item": chest.pk, "dice": "6"}
    )

    assert response.status_code == 422
    assert "A further roll: Roll-off for Treasure Chest: Reavers" in response.content.decode()


def test_several_routers_roll_down_the_rout_order_each_roll_asked_for(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    rats = mustered_warband(campaign=duel["campaign"], name="Rats")
    battle = confirmed(duel, [(reavers, "won", None), (scourge, "lost", 1), (rats, "lost", 2)])
    chest = declared(battle, scourge)
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    client.force_login(reavers.owner)
    data = {"item": chest.pk, "dice": "1"}  # a natural 1: the routers' side, then their chain

    response, page = post(client, "battle_recover", battle, data)
    assert response.status_code == 422
    assert "A further roll: Recovery of Treasure Chest. Type 1 die (D6), e.g. 4" in page
    refused(client, "battle_recover", battle, {**data, "then": "6 6"},
            "Recovery of Treasure Chest needs 1 die (D6); you typed 2.")  # fmt: skip

    response, _ = post(client, "battle_recover", battle, {**data, "then": "6"})

    assert response.status_code == 200
    chest.refresh_from_db()
    assert (chest.outcome, chest.secured_by) == ("captured", rats)  # the last to rout


def test_three_warbands_standing_roll_off_for_an_item_with_a_die_each_from_the_start(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    rats = mustered_warband(campaign=duel["campaign"], name="Rats")
    battle = confirmed(duel, [(reavers, "draw", None), (rats, "draw", None),
                              (scourge, "draw", None)])  # fmt: skip
    sides = carried_items.sides(battle)

    need = carried_items.first_recovery_roll(sides)

    assert need.count == 3
    assert need.label == (
        "Type 3 dice (a roll-off, one D6 per warband, in turn: Reavers, Rats, Scourge), e.g. 4 1 6"
    )


@pytest.mark.parametrize(
    ("routed", "count"),
    [
        ((), 3),  # three standing roll off, a die each
        ((1,), 1),  # the table's D6 (a roll-off of the two standing may follow)
        ((1, 2), 1),  # the table's D6 (the routers' chain may follow)
        ((1, 2, 3), 1),  # everybody routed: the last counts as remaining
    ],
)
def test_the_first_recovery_roll_is_one_die_unless_three_stand_and_none_routed(routed, count):
    sides = [
        rules.Side(i, f"W{i}", routed=i in routed, rout_order=i if i in routed else None)
        for i in (1, 2, 3)
    ]

    need = carried_items.first_recovery_roll(sides)

    assert need.count == count
    # The rules roll all of them before any further roll (asked for in a field of its own).
    first = TypedDice([4, 1, 6][:count])
    with suppress(MoreDice):
        rules.resolve_uncontrolled(rules.LooseItem("Chest"), sides, first)
    assert not first.remaining


def test_two_warbands_roll_one_die_and_one_left_alone_rolls_none():
    two = [rules.Side(1, "A", routed=True, rout_order=1), rules.Side(2, "B")]
    alone = [rules.Side(1, "A", routed=True, rout_order=1)]

    assert carried_items.first_recovery_roll(two).count == 1
    assert carried_items.first_recovery_roll([rules.Side(1, "A"), rules.Side(2, "B")]).count == 1
    assert carried_items.first_recovery_roll(alone) == Need(
        0, note="the only warband left secures it: nothing to roll"
    )
