"""An organiser sets the league table's rules on a phone: a tie-breaker chosen twice is
refused beside its field, the saved rules rank the table at once, and neither page scrolls
sideways at 360 px (the table scrolls inside its own box)."""

import os

import pytest
from playwright.sync_api import expect

from tests.browser.flows import log_in, page_width
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband, record

WIDTH = 360
SHOTS = os.environ.get("SCREENSHOT_DIR")  # each page saved there at 360 px when set


def shoot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}-phone.png", full_page=True)


@pytest.mark.django_db(transaction=True)
def test_an_organiser_sets_the_points_and_tie_breakers_on_a_phone(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    record(campaign, organiser, [(reavers, "draw", False), (scourge, "draw", False)])
    page = log_in(chromium.new_context(viewport={"width": WIDTH, "height": 800}), live_server,
                  organiser)  # fmt: skip

    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/settings/")
    page.get_by_test_id("standings-rules-link").click()
    assert page_width(page) <= WIDTH
    page.get_by_label("Points for a draw").fill("2")
    page.get_by_label("Tie-breaker 1").select_option("rating")
    page.get_by_label("Tie-breaker 2").select_option("rating")
    page.get_by_label("Tie-breaker 3").select_option("")
    page.get_by_label("Tie-breaker 4").select_option("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#id_tie_breaker_2_error")).to_have_text(
        "This tie-breaker is already chosen above."
    )
    assert page_width(page) <= WIDTH
    shoot(page, "standings-rules")
    page.get_by_label("Tie-breaker 2").select_option("")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("The league table's rules are saved.")).to_be_visible()

    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/table/")
    assert page_width(page) <= WIDTH
    expect(page.get_by_test_id("standings-rules")).to_contain_text(
        "3 points for a win, 2 for a draw, 0 for a loss; ties broken by warband rating, then name"
    )
    expect(page.locator("#league-table tbody tr").first).to_contain_text("2")
    expect(page.get_by_test_id("awards")).to_contain_text("Most battles played")
    shoot(page, "league-table")
