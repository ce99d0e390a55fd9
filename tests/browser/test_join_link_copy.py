import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.flows import log_in
from tests.factories import CampaignFactory, MembershipFactory, UserFactory


@pytest.mark.django_db(transaction=True)
def test_the_copy_button_puts_the_join_link_on_the_clipboard(live_server, chromium):
    organiser = UserFactory(username="gm")
    campaign = CampaignFactory(joining_open=True)
    MembershipFactory(campaign=campaign, user=organiser, is_organiser=True)
    context = chromium.new_context(permissions=["clipboard-read", "clipboard-write"])
    gm = log_in(context, live_server, organiser)

    gm.goto(live_server.url + reverse("campaign_settings", args=[campaign.pk]))
    gm.get_by_test_id("copy-join-link").click()

    expect(gm.locator("[data-copy-said='join-link']")).to_have_text("Copied.")
    link = gm.locator("#join-link").inner_text().strip()
    assert link.endswith(reverse("join_link", args=[campaign.join_code]))
    assert gm.evaluate("navigator.clipboard.readText()") == link
