"""Phones, where the game is played at the table: the post-battle sequence's step list folds
into one line, "Step 0 of 10: …", at 360 px and opens on a tap; on a wide screen the whole
list stands beside the step. Neither width scrolls sideways as the page opens, whatever the
length of the player's name in the header."""

import pytest
from playwright.sync_api import expect

from battles.models import PostBattleSequence
from battles.report import services
from battles.rules import ReportedResult
from tests.browser.flows import log_in, page_width
from tests.factories import CampaignFactory, mustered_warband
from tests.helpers import confirm_with_every_side


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "folded"), [(360, True), (1280, False)])
def test_the_step_list_folds_on_a_phone(live_server, chromium, width, folded):
    campaign = CampaignFactory(name="Siege")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    battle = services.report_battle(
        actor=reavers.owner, campaign=campaign, scenario_key="skirmish", scenario="",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip
    confirm_with_every_side(battle)
    sequence = PostBattleSequence.objects.get(participant__warband=reavers)
    owner = reavers.owner  # a long name must not push a phone's page sideways either
    owner.username = "bartholomew_von_sigmarhafen"
    owner.save(update_fields=["username"])
    page = log_in(chromium.new_context(viewport={"width": width, "height": 800}), live_server,
                  reavers.owner)  # fmt: skip

    page.goto(f"{live_server.url}/sequences/{sequence.pk}/")

    assert page_width(page) <= width
    summary = page.get_by_test_id("steps-summary")
    first_step = page.locator("nav.steps li.step").first
    if folded:
        expect(summary).to_have_text("Step 0 of 10: Carried items (all steps)")
        expect(first_step).to_be_hidden()
        summary.click()
        expect(first_step).to_be_visible()
    else:
        expect(summary).to_be_hidden()
        expect(first_step).to_be_visible()
