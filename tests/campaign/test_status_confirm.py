"""Closing or archiving a campaign asks first: a ticked box, refused by the box when missing."""

import pytest
from django.urls import reverse

from campaign.forms import CampaignStatusForm
from campaign.models import Campaign
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("data", "valid"),
    [
        ({"status": "closed"}, False),
        ({"status": "archived"}, False),
        ({"status": "closed", "confirm": "on"}, True),
        ({"status": "archived", "confirm": "on"}, True),
        ({"status": "open"}, True),
    ],
)
def test_the_form_wants_the_box_only_to_close_or_archive(data, valid):
    form = CampaignStatusForm(data)
    assert form.is_valid() == valid
    if not valid:
        assert list(form.errors) == ["confirm"]


@pytest.fixture
def running(user):
    campaign = CampaignFactory(name="Black Pit Open")
    MembershipFactory(campaign=campaign, user=user, is_organiser=True)
    return campaign


def test_closing_without_the_box_changes_nothing_and_says_why(client, user, running):
    client.force_login(user)

    answer = client.post(reverse("campaign_status", args=[running.pk]), {"status": "closed"})

    assert answer.status_code == 422
    page = answer.content.decode()
    assert "Tick the box to confirm" in page
    assert 'id="id_status_confirm_error"' in page
    running.refresh_from_db()
    assert running.status == Campaign.Status.OPEN


def test_closing_with_the_box_closes(client, user, running):
    client.force_login(user)

    answer = client.post(
        reverse("campaign_status", args=[running.pk]), {"status": "closed", "confirm": "on"}
    )

    assert answer.status_code == 302
    running.refresh_from_db()
    assert running.status == Campaign.Status.CLOSED


def test_the_settings_page_draws_the_box(client, user, running):
    client.force_login(user)

    page = client.get(reverse("campaign_settings", args=[running.pk])).content.decode()

    assert 'name="confirm"' in page
