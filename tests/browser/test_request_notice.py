"""A failed htmx request says so in place: a player removed from the
campaign while his battle-helper page is open sees, at its next poll, a notice with the
reason and a way to reload, instead of a page that silently stops changing."""

import pytest
from playwright.sync_api import expect

from battles.helper import moves, start
from campaign.models import Membership
from tests.browser.flows import log_in
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband


@pytest.mark.django_db(transaction=True)
def test_a_page_that_lost_its_rights_says_so_and_offers_a_reload(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    watcher = MembershipFactory(campaign=campaign).user
    battle = start.start_game(
        actor=reavers.owner, campaign=campaign, scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    page = log_in(chromium.new_context(viewport={"width": 390, "height": 844}), live_server,
                  watcher)  # fmt: skip
    page.goto(f"{live_server.url}/battles/{battle.pk}/play/")
    notice = page.locator("#request-notice")
    expect(notice).to_be_hidden()

    Membership.objects.filter(user=watcher).delete()  # the organiser removed him
    # a change, so that his page's next poll asks for the board again
    fighter = battle.game.fighters.filter(side__participant__warband=reavers).first()
    moves.set_state(battle.pk, fighter.pk, "stunned", actor=reavers.owner)

    expect(notice).to_be_visible(timeout=3_000)
    expect(notice).to_contain_text("not shared with you")
    expect(notice.get_by_role("link", name="Reload")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_a_control_character_sent_by_htmx_is_refused_with_its_reason_in_the_notice(
    live_server, chromium
):
    """The whole app refuses a control character (core.middleware.BadInputMiddleware) with a
    400 whose reason the notice shows; the note is not written."""
    campaign = CampaignFactory(name="Siege")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    battle = start.start_game(
        actor=reavers.owner, campaign=campaign, scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    page = log_in(chromium.new_context(), live_server, reavers.owner)
    page.goto(f"{live_server.url}/battles/{battle.pk}/play/")
    notice = page.locator("#request-notice")

    page.get_by_label("A note for the log").fill("Loot\u0007 behind the well")
    page.get_by_role("button", name="Note").click()

    expect(notice).to_be_visible(timeout=3_000)
    expect(notice).to_contain_text("invisible control character")
    expect(notice).to_contain_text("“text”")
    assert not battle.game.events.filter(text__contains="behind the well").exists()
