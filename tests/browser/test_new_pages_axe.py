"""Pages a visitor or a player meets outside the campaign's own pages pass axe-core's WCAG 2
A and AA checks and break no Content Security Policy: the join link and password reset for a
visitor, the battle helper (its page and a warrior's panel) and its start page, past
campaigns, the error pages."""

import pytest

from battles.helper import start
from battles.models import Fighter
from campaign.models import Campaign
from tests.browser.flows import log_in
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband


@pytest.mark.django_db(transaction=True)
def test_the_new_pages_pass_axe_and_the_content_security_policy(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    MembershipFactory(campaign=CampaignFactory(name="Old", status=Campaign.Status.CLOSED),
                      user=reavers.owner)  # fmt: skip
    battle = start.start_game(
        actor=reavers.owner, campaign=campaign, scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    fighter = Fighter.objects.filter(game__battle=battle, warrior__warband=reavers).first()
    violations, csp = [], []

    visitor = chromium.new_context(viewport={"width": 360, "height": 800}).new_page()
    watch_csp(visitor, csp)
    for path in (f"/join/{campaign.join_code}/", "/join/NOSUCHCODE/",
                 "/accounts/password_reset/", "/guide/"):  # fmt: skip
        visitor.goto(live_server.url + path)
        violations += axe_violations(visitor)

    owner = log_in(chromium.new_context(viewport={"width": 360, "height": 800}), live_server,
                   reavers.owner)  # fmt: skip
    watch_csp(owner, csp)
    for path in (f"/battles/{battle.pk}/play/", f"/battles/{battle.pk}/play/fighters/{fighter.pk}/",
                 f"/campaigns/{campaign.pk}/battles/play/", "/campaigns/past/",
                 f"/warbands/{scourge.pk}/treasury/", "/warbands/999999/"):  # fmt: skip
        owner.goto(live_server.url + path)
        violations += axe_violations(owner)

    assert not violations, "\n".join(violations)
    assert not csp, "\n".join(csp)
