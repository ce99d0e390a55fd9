"""In Chromium, on a 360 px phone: a player opens his account from the header, goes to delete
it, is refused a wrong password beside its field, chooses to retire his warband and closes
the account; the pages pass axe-core's WCAG 2 A and AA checks, break no Content Security
Policy rule and need no sideways scrolling."""

import pytest
from playwright.sync_api import expect

from tests.browser.flows import log_in, page_width
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import PASSWORD, CampaignFactory, MembershipFactory, mustered_warband
from warbands.models import Warband

WIDTH = 360


@pytest.mark.django_db(transaction=True)
def test_a_player_closes_his_account_on_a_phone(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    MembershipFactory(campaign=campaign, is_organiser=True)
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    player = reavers.owner
    violations, csp = [], []
    page = log_in(chromium.new_context(viewport={"width": WIDTH, "height": 800}), live_server,
                  player)  # fmt: skip
    watch_csp(page, csp)

    page.get_by_role("link", name=f"Your account: {player.username}").click()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible()
    violations += axe_violations(page)
    page.get_by_test_id("account-delete").click()
    expect(page.get_by_test_id("account-delete-effects")).to_contain_text("logged out everywhere")
    violations += axe_violations(page)
    assert page_width(page) <= WIDTH

    page.get_by_label("Retire it: the warband is disbanded").check()
    page.get_by_label("Your password").fill("not-my-password")
    page.get_by_label("I understand that my account is closed for good").check()
    page.get_by_role("button", name="Delete my account").click()
    expect(page.locator("#id_password_error")).to_contain_text("That is not your password")
    violations += axe_violations(page)
    reavers.refresh_from_db()
    assert reavers.status == Warband.Status.ACTIVE

    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_label("I understand that my account is closed for good").check()
    page.get_by_role("button", name="Delete my account").click()
    expect(page.locator(".messages")).to_contain_text("Your account is closed.")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    reavers.refresh_from_db()
    player.refresh_from_db()
    assert reavers.status == Warband.Status.DISBANDED and not player.is_active

    assert not violations, "\n".join(violations)
    assert not csp, "\n".join(csp)
