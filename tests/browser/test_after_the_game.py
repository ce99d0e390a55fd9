"""After the game, at a glance, in Chromium at desktop and phone widths:
the rare item's receipt and the warband's own rarity modifiers in step 6, a Common item's
receipt in step 8, the gains of step 2 kept in the list of steps and the rating before and
after in step 10; the opponent's battle page names no container paid from.

With SCREENSHOT_DIR set, each view is saved there (desktop and 360 px wide).
"""

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.flows import log_in
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.helpers import battle_of, play_to, sequence_of, warriors
from warbands import services as warband_services

SHOTS = os.environ.get("SCREENSHOT_DIR")


def shoot(page, name: str) -> None:
    """Save the page at desktop width and at 360 px, when SCREENSHOT_DIR asks for it."""
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=f"{SHOTS}/{name}-desktop.png", full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})
    page.screenshot(path=f"{SHOTS}/{name}-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def step_form(page, action):
    return page.locator(f"#step-panel form:has(input[name=action][value={action}])")


def go_on(page, to_step):
    if to_step == 11:
        page.get_by_role("button", name="Finish the sequence").click()
        expect(page.locator("#step-heading")).to_have_text(re.compile("complete"))
    else:
        page.get_by_role("button", name=f"Continue to step {to_step}").click()
        expect(page.locator("#step-heading")).to_have_text(re.compile(f"Step {to_step}:"))


@pytest.mark.django_db(transaction=True)
def test_the_owner_sees_receipts_gains_and_ratings_and_the_opponent_no_container(
    live_server, chromium
):
    campaign = CampaignFactory(name="Siege of Sigmarhafen")
    duel = {
        "campaign": campaign,
        "organiser": MembershipFactory(campaign=campaign, is_organiser=True).user,
        "reavers": mustered_warband(campaign=campaign, name="Reavers"),
        "scourge": mustered_warband(campaign=campaign, name="Scourge"),
    }
    reavers = duel["reavers"]
    captain, brandt, _ = warriors(reavers)
    sequence = sequence_of(battle_of(duel, champion_out=True), reavers)
    play_to(sequence, 6, reavers.owner)
    before = sequence.participant.rating_before

    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = log_in(context, live_server, reavers.owner)
    page.goto(live_server.url + reverse("sequence_detail", args=[sequence.pk]))

    # Step 6: the Reavers' own modifiers only; the captain's roll of 7 buys a lucky charm.
    expect(page.locator("#step-body")).to_contain_text("rolls 2D6 (Streetwise +2, kept gems +1)")
    expect(page.locator("#step-body")).not_to_contain_text("Marienburg")
    task = page.locator("li.task", has_text="Captain Adler's rarity roll")
    task.get_by_label(re.compile("Dice rolled for")).fill("4 3")
    task.get_by_role("button", name="Roll").click()
    expect(page.locator("li.task-done", has_text="Captain Adler's rarity roll")).to_be_visible()
    offer = step_form(page, "buy_rare")
    offer.locator("select[name=goods]").select_option("item:lucky_charm")
    offer.locator("select[name=to]").select_option(f"warrior:{captain.pk}")
    offer.get_by_role("button", name="Buy").click()
    receipts = page.get_by_test_id("receipts")
    expect(receipts).to_contain_text(re.compile(r"Bought Lucky [Cc]harm for Captain Adler: 10 gc"))
    shoot(page, "step-6-receipt")

    # Step 8: a sword for Brandt, and its receipt.
    go_on(page, 7)
    go_on(page, 8)
    buy = page.locator(f"#step-panel form:has(input[name=warrior][value='{brandt.pk}'])")
    buy.get_by_label("Item for Brandt").select_option("sword")
    buy.get_by_role("button", name="Buy").click()
    expect(page.get_by_test_id("receipts")).to_contain_text(
        re.compile(r"Bought Sword for Brandt: 10 gc from the ")
    )
    shoot(page, "step-8-receipt")

    # Step 10: the rating before the battle and now; step 2's gains still in the list.
    go_on(page, 9)
    go_on(page, 10)
    now = warband_services.ratings_of([reavers])[reavers.pk]
    table = page.get_by_test_id("rating-change")
    expect(table).to_contain_text(str(before))
    expect(table).to_contain_text(str(now))
    expect(page.get_by_test_id("experience-kept")).to_contain_text("Captain Adler: 20 → 22")
    shoot(page, "step-10-rating")
    go_on(page, 11)
    expect(page.get_by_test_id("experience-kept")).to_be_visible()

    # The opponent follows the battle: no receipt, no container paid from.
    other = log_in(context.browser.new_context(), live_server, duel["scourge"].owner)
    other.goto(live_server.url + reverse("battle_detail", args=[sequence.participant.battle_id]))
    expect(other.locator("main")).not_to_contain_text("from the Treasure Chest")
    expect(other.locator("main")).not_to_contain_text("Lucky")
    context.close()
