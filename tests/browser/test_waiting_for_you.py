"""At 360 px, a phone at the table: the dashboard's "Waiting for you" and the Notifications
page fit the screen without scrolling sideways, long names included, pass axe-core's WCAG 2
A and AA checks and the Content Security Policy, and the choice of e-mails is made from the
user menu."""

import pytest
from playwright.sync_api import expect

from battles.report import services
from battles.rules import ReportedResult
from core import notices
from tests.browser.flows import log_in, log_in_page, page_width
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import CampaignFactory, mustered_warband

WIDTH = 360


@pytest.mark.django_db(transaction=True)
def test_waiting_for_you_and_the_notifications_page_fit_a_phone(live_server, chromium):
    campaign = CampaignFactory(name="The Siege of the Merchants' Quarter of Mordheim")
    reavers = mustered_warband(campaign=campaign, name="Reikland_Reavers_of_the_Silver_Gate")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    services.report_battle(
        actor=reavers.owner, campaign=campaign, scenario_key="skirmish", scenario="",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip
    page = chromium.new_context(viewport={"width": WIDTH, "height": 800}).new_page()
    csp = []
    watch_csp(page, csp)
    log_in_page(page, live_server, reavers.owner)

    waiting = page.get_by_test_id("waiting")
    expect(waiting.get_by_role("heading", name="Waiting for you")).to_be_visible()
    expect(waiting.get_by_test_id("waiting-item")).to_have_count(1)
    expect(waiting.get_by_role("link")).to_contain_text("Enter what the warriors of Reikland")
    assert page_width(page) <= WIDTH
    violations = axe_violations(page)

    page.get_by_test_id("notice-settings-link").click()
    expect(page.get_by_role("heading", name="Notifications")).to_be_visible()
    assert page_width(page) <= WIDTH
    violations += axe_violations(page)
    page.get_by_label("E-mails").select_option("each")
    page.get_by_label("E-mail address").fill("")
    page.locator("main").get_by_role("button", name="Save").click()
    expect(page.locator("#id_email_error")).to_contain_text("Give an address for the mails")
    assert page_width(page) <= WIDTH
    page.get_by_label("E-mail address").fill("reavers@example.org")
    page.locator("main").get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your choice of e-mails is saved.")).to_be_visible()
    assert notices.preference_of(reavers.owner) == "each"
    assert violations == [] and csp == []


@pytest.mark.django_db(transaction=True)
def test_the_empty_state_says_nothing_waits(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    context = chromium.new_context(viewport={"width": WIDTH, "height": 800})
    page = log_in(context, live_server, reavers.owner)

    expect(page.get_by_test_id("waiting-empty")).to_have_text(
        "Nothing waits for you: no side to enter, report to confirm, offer to answer or "
        "post-battle sequence to play."
    )
    assert page_width(page) <= WIDTH
