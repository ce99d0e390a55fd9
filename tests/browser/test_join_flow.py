"""Joining, end to end: a new player from a join link through sign-up to a mustered
warband, and an organiser from sign-up to a campaign with two joined players, without typing
a URL (the join link is the one the organiser's settings page shows)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaign.models import Membership
from tests.browser.flows import (
    finish_muster,
    organiser_starts_a_campaign,
    sign_up_from,
    start_muster,
)
from tests.factories import CampaignFactory, MembershipFactory


@pytest.mark.django_db(transaction=True)
def test_a_new_player_joins_from_the_link_and_musters_a_warband(live_server, page):
    campaign = CampaignFactory(name="Siege of Sigmarhafen", description="Six weeks in the ruins.")
    MembershipFactory(campaign=campaign, user__username="greta", is_organiser=True)
    join_link = f"{live_server.url}/join/{campaign.join_code}/"

    sign_up_from(page, join_link, "hans")

    expect(page.get_by_role("heading", name="Siege of Sigmarhafen")).to_be_visible()
    expect(
        page.get_by_text("You are in Siege of Sigmarhafen: muster your warband.")
    ).to_be_visible()
    page.get_by_role("link", name="Dashboard").first.click()
    start_muster(page, "Reikland Reavers", "Reikland Mercenaries")
    captain_row = page.locator("form.hire-row", has_text="Mercenary Captain")
    captain_row.get_by_placeholder("Name (optional)").fill("Gerhardt Adler")
    captain_row.get_by_role("button", name="Hire").click()
    gold = page.get_by_test_id("gold-left")
    expect(gold).to_have_text("440 gc")
    warriors_row = page.locator("form.hire-row", has_text="Warrior Henchman")
    warriors_row.get_by_label("How many Warrior").fill("3")
    warriors_row.get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("365 gc")
    marksmen = page.locator("form.hire-row", has=page.get_by_label("How many Marksman"))
    marksmen.get_by_label("How many Marksman").fill("5")
    marksmen.get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("240 gc")
    storage = page.locator("section", has=page.get_by_role("heading", name="Storage"))
    for gold_left in ("238 gc", "236 gc", "234 gc"):
        storage.get_by_label("Buy a container").select_option(
            label="Large Sack · 2 gc · holds 50 gc"
        )
        storage.get_by_role("button", name="Buy").click()
        expect(gold).to_have_text(gold_left)
    expect(page.locator("ul.problems")).to_have_count(0)
    finish_muster(page, "Reikland Reavers")
    page.wait_for_load_state("networkidle")  # no request of the roster still runs at teardown
    assert Membership.objects.filter(campaign=campaign, user__username="hans").exists()


@pytest.mark.django_db(transaction=True)
def test_an_organiser_signs_up_and_two_players_join_his_campaign(live_server, page, chromium):
    join_link = organiser_starts_a_campaign(
        page, live_server.url + "/", "greta", "Siege of Sigmarhafen"
    )

    for username in ("hans", "lotte"):
        context = chromium.new_context(viewport={"width": 390, "height": 844})
        context.set_default_timeout(10_000)
        sign_up_from(context.new_page(), join_link, username)
        context.close()

    page.reload()
    members = page.locator(
        "section", has=page.get_by_role("heading", name="Players and organisers")
    )
    for username in ("hans", "lotte"):
        expect(members.get_by_role("row", name=f"{username} Player")).to_be_visible()
