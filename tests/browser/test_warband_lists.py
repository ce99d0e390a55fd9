"""Choosing a warband list on a phone: typing in the search box draws only the matching lists
(htmx, under the Content Security Policy), clearing it brings every list back, and the page
never scrolls sideways at 360 px."""

import pytest
from playwright.sync_api import expect

from tests.browser.flows import log_in
from tests.factories import MembershipFactory
from warbands.models import WarbandType


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [360, 1280])
def test_a_player_finds_a_list_by_typing_and_musters_it(live_server, chromium, width):
    membership = MembershipFactory(campaign__name="Siege")
    context = chromium.new_context(viewport={"width": width, "height": 800})
    page = log_in(context, live_server, membership.user)
    csp: list[str] = []
    page.on("console", lambda m: csp.append(m.text) if "Content Security" in m.text else None)

    page.goto(f"{live_server.url}/campaigns/{membership.campaign.pk}/warbands/new/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    lists = page.locator("#warband-lists")
    expect(lists.get_by_role("heading", name="Grade 1a")).to_be_visible()
    expect(lists.get_by_role("radio")).to_have_count(WarbandType.objects.count())
    page.evaluate("window.stillTheSamePage = true")

    page.get_by_label("Find a warband list by name").press_sequentially("skaven of clan e")
    expect(lists.get_by_role("radio")).to_have_count(1)
    expect(lists).to_contain_text("Leader: Assassin Adept (60 gc, the price of entry)")
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.url.endswith("?q=skaven%20of%20clan%20e")
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.get_by_label("Find a warband list by name").fill("no such list")
    expect(page.get_by_test_id("no-lists")).to_contain_text("Clear the search")
    page.get_by_label("Find a warband list by name").fill("")
    expect(lists.get_by_role("radio")).to_have_count(WarbandType.objects.count())

    page.get_by_label("Skaven of Clan Eshin").check()
    page.get_by_label("Warband name").fill("Grey Scourge")
    page.locator("main").get_by_role("button", name="Start mustering").click()
    expect(page.get_by_role("heading", name="Muster Grey Scourge")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Skaven of Clan Eshin Grade 1a")
    assert csp == []


@pytest.mark.django_db(transaction=True)
def test_a_grade_1b_warband_is_mustered_through_the_pages(live_server, chromium, reference_data):
    """A Norse Explorers warband (Grade 1b) from the list to its hires: the Wolves' hire is
    greyed with its reason until the Wulfen is there, then the Jarl, the Wulfen and the Wolves
    are hired."""
    membership = MembershipFactory(campaign__name="Siege")
    context = chromium.new_context(viewport={"width": 360, "height": 800})
    page = log_in(context, live_server, membership.user)
    page.goto(f"{live_server.url}/campaigns/{membership.campaign.pk}/warbands/new/")
    page.get_by_label("Norse Explorers").check()
    page.get_by_label("Warband name").fill("Sons of Ymir")
    page.locator("main").get_by_role("button", name="Start mustering").click()
    expect(page.get_by_role("heading", name="Muster Sons of Ymir")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Norse Explorers Grade 1b")
    gold = page.get_by_test_id("gold-left")

    wolves = page.locator("form.hire-row", has=page.get_by_label("How many Wolf"))
    expect(wolves.get_by_role("button", name="Hire")).to_be_disabled()  # says why beside it
    expect(wolves).to_contain_text("Wolves may only join a Norse warband")
    expect(gold).to_have_text("500 gc")

    page.locator("form.hire-row", has_text="Jarl").get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("430 gc")
    wulfen = page.locator("form.hire-row", has_text="Wulfen").filter(has_not_text="Wolves")
    wulfen.get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("340 gc")
    wolves.get_by_label("How many Wolf").fill("2")
    wolves.get_by_role("button", name="Hire").click()
    expect(gold).to_have_text("310 gc")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
