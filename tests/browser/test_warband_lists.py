"""Choosing a warband list on a phone: typing in the search box draws only the matching lists
(htmx, under the Content Security Policy), clearing it brings every list back, and the page
never scrolls sideways at 360 px."""

import pytest
from playwright.sync_api import expect

from tests.factories import MembershipFactory
from tests.helpers import log_in
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
