import pytest
from playwright.sync_api import expect

from tests.browser.flows import log_in
from tests.factories import UserFactory


@pytest.mark.django_db(transaction=True)
def test_an_organiser_starts_a_campaign_and_a_player_joins_with_the_code(live_server, chromium):
    organiser, player = UserFactory(username="gm"), UserFactory(username="gerhardt")
    gm = log_in(chromium.new_context(), live_server, organiser)

    gm.get_by_role("button", name="Start a campaign").click()
    gm.get_by_label("Name").fill("Siege of Sigmarhafen")
    gm.get_by_label("Start date").fill("2026-12-01")
    gm.locator("main").get_by_role("button", name="Create the campaign").click()
    expect(gm.get_by_role("heading", name="Run Siege of Sigmarhafen")).to_be_visible()
    code = gm.get_by_test_id("join-code").inner_text()
    assert len(code) == 10

    them = log_in(chromium.new_context(), live_server, player)
    them.get_by_label("Join code").fill(code)
    them.locator("main").get_by_role("button", name="Join").click()
    expect(them.get_by_role("heading", name="Siege of Sigmarhafen")).to_be_visible()
    them.get_by_role("link", name="Muster a warband").first.click()
    them.get_by_label("Warband name").fill("Reikland Reavers")
    them.get_by_label("Reikland Mercenaries").check()
    them.locator("main").get_by_role("button", name="Start mustering").click()
    expect(them.get_by_role("heading", name="Muster Reikland Reavers")).to_be_visible()
    them.locator("form.hire-row", has_text="Mercenary Captain").get_by_role(
        "button", name="Hire"
    ).click()
    expect(them.get_by_test_id("rating")).to_have_text("25")

    for page in (them, gm):
        page.goto(live_server.url + "/")
        page.get_by_role("link", name="Siege of Sigmarhafen").click()
        table = page.locator("#league-table")
        expect(table.get_by_role("link", name="Reikland Reavers")).to_be_visible()
        expect(table.get_by_role("row", name="Reikland Reavers")).to_contain_text("gerhardt")
        expect(table.get_by_role("row", name="Reikland Reavers")).to_contain_text("25")
    expect(gm.locator("ul.feed")).to_contain_text("gerhardt joined the campaign.")
