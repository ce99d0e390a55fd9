import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from core.auth import DEMO_PASSWORD


@pytest.mark.django_db(transaction=True)
def test_demo_player_logs_in_through_the_form_and_sees_the_dashboard(live_server, page, settings):
    settings.DEBUG = True  # the demo password only works with DEBUG on
    call_command("seed_demo")

    page.goto(live_server.url + "/")  # a visitor's landing page, with its way in

    page.get_by_test_id("landing-login").click()
    expect(page).to_have_url(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page).to_have_url(live_server.url + "/")
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    expect(page.get_by_role("cell", name="Reikland Reavers")).to_be_visible()
    expect(page.get_by_role("cell", name="The Year of the Comet (demo)").first).to_be_visible()
