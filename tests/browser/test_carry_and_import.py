"""A warband outlives its campaign, in the browser: the organiser of a new campaign lets
warbands in, a player carries his veteran warband there from its roster, then imports the
same warband from its exported file, reading the report before confirming it."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from campaign.models import Campaign
from tests.browser.flows import log_in
from tests.factories import MembershipFactory, mustered_warband
from warbands.models import Warband


@pytest.mark.django_db(transaction=True)
def test_a_warband_is_carried_and_imported_into_a_new_campaign(live_server, chromium):
    source = mustered_warband(name="Reavers")
    player = source.owner
    new = Campaign.objects.create(name="Second Season")
    MembershipFactory(campaign=new, user=player, is_organiser=True)
    page = log_in(chromium.new_context(), live_server, player)

    # The roster offers nowhere to go yet, and says how to get somewhere.
    page.goto(live_server.url + reverse("warband_roster", args=[source.pk]))
    page.get_by_test_id("carry-link").click()
    expect(page.get_by_test_id("carry-empty")).to_contain_text("allow carrying")

    page.goto(live_server.url + reverse("campaign_settings", args=[new.pk]))
    page.get_by_label("Warbands may be carried in from other campaigns").check()
    page.get_by_label("Warband files may be imported").check()
    page.get_by_label("Treasury of a carried or imported warband").select_option("kept")
    page.get_by_label("Max warbands per player").fill("2")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Campaign settings saved.")).to_be_visible()
    page.goto(live_server.url + reverse("campaign_detail", args=[new.pk]))
    expect(page.get_by_test_id("transfer-terms")).to_contain_text("keeps its treasury")

    page.goto(live_server.url + reverse("warband_carry", args=[source.pk]))
    expect(page.get_by_test_id("carry-targets")).to_contain_text("Second Season")
    expect(page.get_by_test_id("carry-targets")).to_contain_text("keeps its treasury")
    page.get_by_label("I understand the copy cannot be taken back").check()
    page.get_by_role("button", name="Carry it there").click()
    expect(page.get_by_test_id("carried-from")).to_have_text(f"Carried from {source.campaign.name}")
    expect(page.get_by_role("heading", name="Reavers")).to_be_visible()

    exported = page.request.get(live_server.url + reverse("warband_export", args=[source.pk]))
    page.goto(live_server.url + reverse("campaign_detail", args=[new.pk]))
    page.get_by_test_id("import-link").click()
    page.get_by_label("Warband file (JSON)").set_input_files(
        {"name": "reavers.json", "mimeType": "application/json", "buffer": exported.body()}
    )
    page.get_by_role("button", name="Read the file").click()
    report = page.get_by_test_id("import-report")
    expect(report.get_by_test_id("import-accepted")).to_contain_text("Captain Adler")
    expect(report).to_contain_text("Nothing: everything in the file is accepted.")
    page.get_by_label("Name of the warband").fill("Reavers Reborn")
    page.get_by_label("Create the warband as the report says.").check()
    page.get_by_role("button", name="Create the warband").click()
    expect(page.get_by_role("heading", name="Reavers Reborn")).to_be_visible()
    assert Warband.objects.filter(campaign=new).count() == 2
