"""In Chromium: an organiser invites a co-organiser from the settings page, the invited player
accepts on his dashboard, and the pages on the way (settings with an invitation waiting, the
dashboard's invitation, stepping down, the guide's powers) pass axe-core's WCAG 2 A and AA
checks and break no Content Security Policy rule."""

import pytest
from playwright.sync_api import expect

from campaign.models import Membership
from tests.browser.flows import log_in, log_in_page
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband


@pytest.mark.django_db(transaction=True)
def test_an_invitation_to_co_organise_goes_from_the_settings_page_to_the_dashboard(
    live_server, chromium
):
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    invitee = reavers.owner
    violations, csp = [], []

    runner = log_in(chromium.new_context(viewport={"width": 360, "height": 800}), live_server,
                    organiser)  # fmt: skip
    watch_csp(runner, csp)
    runner.goto(f"{live_server.url}/campaigns/{campaign.pk}/settings/")
    runner.get_by_label("Invite a co-organiser (username)").fill(invitee.username)
    runner.get_by_role("button", name="Invite", exact=True).click()
    expect(runner.locator(".messages")).to_contain_text(
        f"{invitee.username} is invited to co-organise"
    )
    expect(runner.locator("#invitations-heading + ul")).to_contain_text(invitee.username)
    violations += axe_violations(runner)
    assert not Membership.objects.get(campaign=campaign, user=invitee).is_organiser

    player = chromium.new_context(viewport={"width": 360, "height": 800}).new_page()
    watch_csp(player, csp)
    log_in_page(player, live_server, invitee)
    expect(player.get_by_test_id("invitation")).to_contain_text("invites you to co-organise")
    violations += axe_violations(player)
    player.get_by_role("button", name="Accept the invitation to co-organise Siege").click()
    expect(player).to_have_url(f"{live_server.url}/campaigns/{campaign.pk}/")
    assert Membership.objects.get(campaign=campaign, user=invitee).is_organiser

    for path in (f"/campaigns/{campaign.pk}/organisers/step-down/", "/guide/organiser/#powers"):
        player.goto(live_server.url + path)
        violations += axe_violations(player)

    assert not violations, "\n".join(violations)
    assert not csp, "\n".join(csp)
