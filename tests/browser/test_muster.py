import pytest
from playwright.sync_api import expect

from tests.browser.flows import finish_muster, log_in_page, start_muster
from tests.factories import MembershipFactory


@pytest.mark.django_db(transaction=True)
def test_mustering_a_warband_updates_gold_and_rating_without_reloading(live_server, page):
    membership = MembershipFactory(campaign__name="Siege of Sigmarhafen")
    log_in_page(page, live_server, membership.user)

    start_muster(page, "Reikland Reavers", "Reikland Mercenaries")
    gold = page.get_by_test_id("gold-left")
    rating = page.get_by_test_id("rating")
    expect(gold).to_have_text("500 gc")
    page.evaluate("window.stillTheSamePage = true")

    captain_row = page.locator("form.hire-row", has_text="Mercenary Captain")
    captain_row.get_by_placeholder("Name (optional)").fill("Gerhardt Adler")
    captain_row.get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("440 gc")
    expect(rating).to_have_text("25")

    captain = page.locator("article.warrior-card", has_text="Gerhardt Adler")
    captain.get_by_label("Buy for Gerhardt Adler").select_option(label="Sword · 10 gc")
    captain.get_by_role("button", name="Buy").click()
    expect(gold).to_have_text("430 gc")
    expect(page.locator("article.warrior-card", has_text="Gerhardt Adler")).to_contain_text("Sword")

    warriors_row = page.locator("form.hire-row", has_text="Warrior Henchman")
    warriors_row.get_by_placeholder("Name (optional)").fill("Stadtwache")
    warriors_row.get_by_label("How many Warrior").fill("3")
    warriors_row.get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("355 gc")
    expect(rating).to_have_text("40")
    expect(page.get_by_test_id("warrior-count")).to_have_text("4 / 15")

    guards = page.locator("article.warrior-card", has_text="Stadtwache")
    guards.get_by_label("Buy for Stadtwache").select_option(label="Spear · 30 gc")
    guards.get_by_role("button", name="Buy").click()
    expect(gold).to_have_text("325 gc")

    marksmen = page.locator("form.hire-row", has=page.get_by_label("How many Marksman"))
    marksmen.get_by_label("How many Marksman").fill("5")
    marksmen.get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("200 gc")
    expect(rating).to_have_text("65")

    # A refusal shows its reason in place and changes nothing (0-7 Marksmen).
    marksmen = page.locator("form.hire-row", has=page.get_by_label("How many Marksman"))
    marksmen.get_by_label("How many Marksman").fill("3")
    marksmen.get_by_role("button", name="Hire").click()
    expect(page.get_by_role("alert")).to_contain_text("at most 7 Marksman (it has 5)")
    expect(gold).to_have_text("200 gc")
    assert page.evaluate("window.stillTheSamePage") is True

    # 200 gc do not fit the free chest (100 gc): two large sacks make room.
    expect(page.locator("ul.problems")).to_contain_text("containers hold only 100 gc")
    storage = page.locator("section", has=page.get_by_role("heading", name="Storage"))
    for gold_left in ("198 gc", "196 gc"):
        storage.get_by_label("Buy a container").select_option(
            label="Large Sack · 2 gc · holds 50 gc"
        )
        storage.get_by_role("button", name="Buy").click()
        expect(gold).to_have_text(gold_left)
    expect(page.locator("ul.problems")).to_have_count(0)

    finish_muster(page, "Reikland Reavers")
    expect(page.get_by_test_id("rating")).to_have_text("65")
    expect(page.get_by_text("Experience 20 · next advance at 24")).to_be_visible()
    expect(page.get_by_test_id("treasury-gold")).to_have_text("196 gc")
