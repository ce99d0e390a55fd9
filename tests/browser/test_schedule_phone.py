"""The schedule on a phone (360 px): the organiser pairs a round with htmx and the games
appear in place; the challenged player accepts a challenge; no page scrolls sideways, every
page passes axe-core's WCAG checks and breaks no Content Security Policy."""

import datetime

import pytest
from playwright.sync_api import expect

from battles.models import Fixture
from battles.schedule import challenges, services
from tests.browser.flows import log_in, log_in_page, page_width
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband

WIDTH = 360


@pytest.mark.django_db(transaction=True)
def test_pairing_and_answering_on_a_phone(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers of the Long Name of Altdorf")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    day = datetime.date(2026, 5, 1)
    round_ = services.create_round(campaign, actor=organiser, number=1, starts_on=day,
                                   ends_on=day)  # fmt: skip
    challenges.issue_challenge(campaign, actor=scourge.owner, challenger_id=scourge.pk,
                               opponent_ids=[reavers.pk])  # fmt: skip
    violations, csp = [], []

    page = log_in(chromium.new_context(viewport={"width": WIDTH, "height": 800}), live_server,
                  organiser)  # fmt: skip
    watch_csp(page, csp)
    page.goto(f"{live_server.url}/rounds/{round_.pk}/")
    page.get_by_test_id("pair").click()
    expect(page.get_by_test_id("fixture")).to_have_count(1)
    expect(page.get_by_test_id("done")).to_contain_text("1 game paired.")
    assert Fixture.objects.count() == 1
    assert page_width(page) <= WIDTH
    violations += axe_violations(page)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/schedule/")
    assert page_width(page) <= WIDTH
    violations += axe_violations(page)

    player = chromium.new_context(viewport={"width": WIDTH, "height": 800}).new_page()
    watch_csp(player, csp)
    log_in_page(player, live_server, reavers.owner)
    expect(player.get_by_test_id("next-games")).to_be_visible()
    assert page_width(player) <= WIDTH
    player.locator("[data-kind=challenge]").get_by_role("link").click()
    player.get_by_test_id("accept").click()
    expect(player.get_by_test_id("done")).to_contain_text("the game is planned")
    assert page_width(player) <= WIDTH
    violations += axe_violations(player)

    assert not violations, "\n".join(violations)
    assert not csp, "\n".join(csp)
