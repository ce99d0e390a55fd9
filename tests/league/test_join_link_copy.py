"""The settings page's join link has a copy button, drawn hidden for the script to show (the
CSP allows no inline code): without the script the link stays as text to select."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def test_the_join_link_has_a_copy_button_naming_it(client, user):
    campaign = CampaignFactory(joining_open=True)
    MembershipFactory(campaign=campaign, user=user, is_organiser=True)
    client.force_login(user)

    page = client.get(reverse("campaign_settings", args=[campaign.pk])).content.decode()

    link = re.search(r'<code id="join-link">([^<]+)</code>', page)
    assert link and link.group(1).endswith(reverse("join_link", args=[campaign.join_code]))
    button = re.search(r"<button[^>]*data-copy=\"join-link\"[^>]*>Copy link</button>", page)
    assert button and "hidden" in button.group(0) and 'type="button"' in button.group(0)
    assert "onclick" not in page


def test_the_script_wires_copy_buttons():
    script = (Path(settings.BASE_DIR) / "static" / "js" / "app.js").read_text()
    assert "button[data-copy]" in script
    assert "clipboard.writeText" in script
