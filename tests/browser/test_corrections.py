"""The corrections page in Chromium: the player asks for an item his henchmen's list does not
offer, sees it waiting and that it breaks the list; the organiser approves it on the same page
(htmx, after confirming), the player's page shows it applied, the roster marks the item for an
opponent too, and nothing on the page breaks axe-core's WCAG 2 A/AA rules or the Content
Security Policy."""

from playwright.sync_api import expect

from tests.browser.flows import log_in
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.helpers import mustered_duel, warriors
from warbands.models import Correction


def test_a_request_is_asked_approved_and_marked_on_the_roster(live_server, chromium):
    duel = mustered_duel()
    reavers = duel["reavers"]
    guards = warriors(reavers)[2]
    csp: list[str] = []
    player = log_in(chromium.new_context(), live_server, reavers.owner)
    watch_csp(player, csp)
    corrections_url = f"{live_server.url}/warbands/{reavers.pk}/corrections/"

    player.goto(corrections_url)
    equipment = player.locator("form", has=player.locator('input[value="item_added"]'))
    equipment.get_by_label("Warrior").select_option(str(guards.pk))
    equipment.get_by_label("Item").select_option(label="Hochland long rifle")
    equipment.get_by_label("Why").fill("Found in the ruins at the table")
    equipment.get_by_role("button", name="Add the item").click()

    expect(player.get_by_role("status")).to_contain_text("It waits for an organiser")
    expect(player.get_by_test_id("breaks-list")).to_contain_text(
        "Hochland long rifle is not on Stadtwache's equipment list."
    )
    assert axe_violations(player) == []

    organiser = log_in(chromium.new_context(), live_server, duel["organiser"])
    watch_csp(organiser, csp)
    organiser.get_by_role("link", name="Approve or refuse a correction asked for Reavers").click()
    organiser.once("dialog", lambda dialog: dialog.accept())  # it breaks the list: confirm
    organiser.get_by_role("button", name="Approve").click()
    expect(organiser.get_by_role("status")).to_contain_text("Approved and applied")
    assert Correction.objects.get(warband=reavers).status == Correction.Status.APPLIED

    player.reload()
    expect(player.get_by_test_id("state").first).to_contain_text(
        f"Applied, approved by {duel['organiser'].username}"
    )
    opponent = log_in(chromium.new_context(), live_server, duel["scourge"].owner)
    opponent.goto(f"{live_server.url}/warbands/{reavers.pk}/")
    expect(opponent.locator(f"#warrior-{guards.pk}")).to_contain_text(
        "Hochland long rifle (added by correction)"
    )
    assert csp == []
