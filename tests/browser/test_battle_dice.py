"""Typed dice on the battle page, in the browser: each field says what it
takes, a wrong count comes back in place with its message, and a recovery's further roll is
asked for in a field of its own."""

import pytest
from playwright.sync_api import expect

from battles.aftermath import carried_items
from battles.report import services
from battles.rules import ReportedResult
from core.dice import ScriptedDice
from tests.browser.flows import log_in
from tests.factories import CampaignFactory, mustered_warband
from tests.helpers import every_side_entered


def three_warbands(campaign):
    """The Reavers won, the Rats lost standing, the Scourge routed and dropped their chest;
    random fortune was in play. Confirmed, declared, the Reavers choose first."""
    reavers, rats, scourge = (
        mustered_warband(campaign=campaign, name=name) for name in ("Reavers", "Rats", "Scourge")
    )
    battle = services.report_battle(
        actor=reavers.owner, campaign=campaign, scenario="Skirmish", random_fortune=True,
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(rats.pk, "lost"),
                 ReportedResult(scourge.pk, "lost", True, 1)],
    )  # fmt: skip
    every_side_entered(battle)
    for warband in (rats, scourge):
        services.respond(battle, actor=warband.owner, agree=True)
    battle.refresh_from_db()
    for warband in (reavers, rats, scourge):
        carried_items.declare_carried_items(
            battle, warband, actor=warband.owner, securers=3,
            declarations=[
                carried_items.Declaration(
                    item.pk,
                    "uncontrolled" if warband == scourge and item.label == "Treasure Chest"
                    else "own",
                )
                for item in battle.carried_items.filter(owner=warband)
            ],
        )  # fmt: skip
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([6, 1]))
    return battle, reavers, battle.carried_items.get(owner=scourge, label="Treasure Chest")


@pytest.mark.django_db(transaction=True)
def test_each_roll_takes_its_own_dice_and_a_further_roll_is_asked_for(live_server, chromium):
    battle, reavers, chest = three_warbands(CampaignFactory(name="Siege"))
    alice = log_in(chromium.new_context(), live_server, reavers.owner)
    alice.goto(f"{live_server.url}/battles/{battle.pk}/")

    # The markers: one die for the D3, and a roll-off of three, as all three ratings tie.
    alice.get_by_label("The markers' D3. Type 1 die (D3 as a D6)").fill("3 4")
    alice.get_by_role("button", name="Roll the markers").click()
    expect(alice.get_by_role("alert")).to_contain_text(
        "The markers' roll needs 1 die (D3 as a D6); you typed 2."
    )
    alice.get_by_label("The markers' D3").fill("3")
    alice.get_by_label("Placement roll-off, as ratings tie. Type 3 dice").fill("4 5 6")
    alice.get_by_role("button", name="Roll the markers").click()
    expect(alice.locator("main")).to_contain_text("5 markers (D3 + 3 warbands)")

    # The chest: a natural 6 goes to the warbands still standing, who roll off for it.
    alice.get_by_label("Uncontrolled item to roll for").select_option(str(chest.pk))
    alice.get_by_label("Recovery roll. Type 1 die (D6)").fill("6")
    alice.get_by_role("button", name="Roll for it").click()
    expect(alice.get_by_test_id("further-roll")).to_contain_text("Nothing has changed yet")
    alice.get_by_label("A further roll: Roll-off for Treasure Chest: Reavers").fill("4")
    alice.get_by_role("button", name="Roll for it").click()
    alice.get_by_label("A further roll: Roll-off for Treasure Chest: Rats").fill("2")
    alice.get_by_role("button", name="Roll for it").click()

    expect(alice.locator("table.carried-items")).to_contain_text("Captured by Reavers")
    expect(alice.locator("table.dice-log")).to_contain_text("roll-off for Treasure Chest: Rats")
