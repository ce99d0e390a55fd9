import pytest
from playwright.sync_api import expect

from tests.browser.flows import log_in
from tests.factories import SECRET_ITEM, CampaignFactory, hide_secrets, mustered_warband


@pytest.mark.django_db(transaction=True)
def test_a_battle_is_reported_confirmed_and_a_dropped_chest_is_recovered(live_server, chromium):
    campaign = CampaignFactory(name="Siege of Sigmarhafen")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    hide_secrets(scourge)
    alice = log_in(chromium.new_context(), live_server, reavers.owner)
    bob = log_in(chromium.new_context(), live_server, scourge.owner)

    # Alice reports: the Reavers won a Street Fight, the Scourge routed.
    alice.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    alice.get_by_role("link", name="Report a battle").click()
    alice.get_by_label("Scenario:", exact=True).select_option(label="5. Street Fight")
    alice.get_by_label("Reavers took part").check()
    alice.get_by_label("Result of Reavers").select_option("won")
    alice.get_by_label("Scourge took part").check()
    alice.get_by_label("Result of Scourge").select_option("lost")
    alice.get_by_label("Scourge routed").check()
    alice.locator("main").get_by_role("button", name="Report the battle").click()

    # She enters her own side only: her captain took two enemies out and escaped first.
    expect(alice.get_by_role("heading", name="What the warriors of Reavers did")).to_be_visible()
    alice.get_by_label("Enemies Captain Adler put out of action").fill("2")
    alice.get_by_label("Captain Adler: first hero to escape by the far edge").check()
    alice.locator("main").get_by_role("button", name="Save the warriors of Reavers").click()
    expect(alice.get_by_test_id("missing-sides")).to_contain_text("waiting for Scourge")
    battle_url = alice.url

    # Bob enters his: two of his three Stadtwache fell, Brandt missed the game.
    bob.goto(battle_url)
    expect(bob.get_by_label("Confirm (once every side is entered)")).to_be_disabled()
    bob.get_by_role("link", name="Enter your warriors").click()
    bob.get_by_label("How many of Stadtwache went out of action").fill("2")
    bob.get_by_label("Brandt took part").uncheck()
    bob.locator("main").get_by_role("button", name="Save the warriors of Scourge").click()
    expect(bob.get_by_test_id("missing-sides")).to_have_count(0)
    expect(bob.locator("main")).to_contain_text("2 of the group")

    # Both confirm what they now see (Alice again: Bob's side is new to her).
    bob.get_by_label("Confirm", exact=True).check()
    bob.get_by_role("button", name="Send").click()
    expect(bob.get_by_test_id("battle-status")).to_have_text("Waiting for confirmation")
    alice.goto(battle_url)
    alice.get_by_label("Confirm", exact=True).check()
    alice.get_by_role("button", name="Send").click()
    expect(alice.get_by_test_id("battle-status")).to_have_text("Confirmed")

    # Bob says his treasure chest was dropped while fleeing.
    bob.goto(battle_url)
    bob.get_by_role("link", name="Declare the carried items of Scourge").click()
    bob.get_by_label("Where the Treasure Chest ended").select_option("uncontrolled")
    bob.get_by_label("Warriors still on the table who can secure items").fill("2")
    bob.locator("main").get_by_role("button", name="Declare").click()

    # Alice declares hers, starts the recovery and rolls a 5 for the chest.
    alice.goto(battle_url)
    alice.get_by_role("link", name="Declare the carried items of Reavers").click()
    alice.get_by_label("Warriors still on the table who can secure items").fill("3")
    alice.locator("main").get_by_role("button", name="Declare").click()
    alice.get_by_role("button", name="Start the recovery").click()
    expect(alice.get_by_test_id("chooser")).to_have_text("Reavers")
    alice.get_by_label("Uncontrolled item to roll for").select_option(
        label="Treasure Chest of Scourge"
    )
    alice.get_by_label("Recovery roll").fill("5")  # exactly the one D6 it takes
    alice.get_by_role("button", name="Roll for it").click()
    expect(alice.locator("table.carried-items")).to_contain_text("Captured by Reavers")
    expect(alice.locator("table.dice-log")).to_contain_text("Reavers secures it")

    # The winner sees what was inside; the loser no longer has the chest.
    alice.goto(f"{live_server.url}/warbands/{reavers.pk}/treasury/")
    expect(alice.locator("ul.stored-items li", has_text=SECRET_ITEM)).to_be_visible()
    bob.goto(f"{live_server.url}/warbands/{scourge.pk}/treasury/")
    expect(bob.get_by_role("heading", name="Treasure Chest")).to_have_count(0)
    # Bob's ledger remembers what he lost; his containers no longer hold it.
    expect(bob.locator(".container-grid")).not_to_contain_text(SECRET_ITEM)
    expect(bob.locator("#ledger")).to_contain_text("Capture")
    bob.goto(battle_url)
    expect(bob.locator("main")).not_to_contain_text(SECRET_ITEM)
