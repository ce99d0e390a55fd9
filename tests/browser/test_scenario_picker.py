"""The scenario picker and the roll for the scenario on a phone: at 360 px the report page,
its picker open on a filter and a scenario's details, does not scroll sideways, passes axe and
breaks no Content Security Policy; the roll's button writes the roll and preselects what it
chose."""

import pytest
from playwright.sync_api import expect

from tests.browser.flows import log_in, page_width
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import CampaignFactory, mustered_warband


@pytest.mark.django_db(transaction=True)
def test_the_picker_and_the_roll_on_a_phone(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    mustered_warband(campaign=campaign, name="Scourge")
    page = log_in(chromium.new_context(viewport={"width": 360, "height": 800}), live_server,
                  reavers.owner)  # fmt: skip
    csp = []
    watch_csp(page, csp)

    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/report/?source=Fanatic")
    page.locator("details.scenario summary").first.click()
    assert page_width(page) <= 360
    violations = axe_violations(page)

    page.locator("details.scenario-roll summary").click()
    page.get_by_role("checkbox", name="Reavers", exact=True).check()
    page.get_by_role("checkbox", name="Scourge", exact=True).check()
    page.get_by_label("The 2D6 for the scenario").fill("5 6")
    page.get_by_test_id("roll-scenario").click()

    expect(page.locator(".messages")).to_contain_text("5+6 = 11, play Defend the Find.")
    expect(page.locator("select[name=scenario_key]")).to_have_value("defend_the_find")
    assert page_width(page) <= 360
    assert not violations, "\n".join(violations)
    assert not csp, "\n".join(csp)
