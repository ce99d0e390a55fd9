"""The campaign form refuses in the browser what the server refuses, so an organiser learns
it before he posts: a player may have at least one warband."""

import pytest

from campaign.forms import CampaignForm

pytestmark = pytest.mark.django_db


def test_max_warbands_starts_at_one_in_the_browser_and_on_the_server():
    form = CampaignForm({"name": "Siege", "start_date": "2026-12-01", "max_warbands_per_player": 0})

    assert 'min="1"' in str(form["max_warbands_per_player"])
    assert not form.is_valid()
    assert "greater than or equal to 1" in form.errors["max_warbands_per_player"][0]
