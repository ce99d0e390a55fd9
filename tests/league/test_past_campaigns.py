"""Closed and archived campaigns stay within reach and readable: a list of
the user's past campaigns, the dashboard's words about them, and the owner's own treasury,
read-only, once his campaign is closed."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Membership
from tests.factories import (
    SECRET_GOLD,
    SECRET_ITEM,
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    WarbandFactory,
    hide_secrets,
)
from tests.secrets import contains_value
from warbands import treasury

pytestmark = pytest.mark.django_db


def set_status(campaign, status: str) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(status=status)


@pytest.fixture
def closed(duel):
    """The duel's campaign, closed, with a secret treasure in the Reavers' chest."""
    duel["secrets"] = hide_secrets(duel["reavers"])
    set_status(duel["campaign"], Campaign.Status.CLOSED)
    return duel


# --- The dashboard and the list of past campaigns --------------------------------------------


def test_a_player_of_an_archived_campaign_is_not_told_he_is_in_none(client, duel):
    reavers = duel["reavers"]
    set_status(duel["campaign"], Campaign.Status.ARCHIVED)
    client.force_login(reavers.owner)

    page = client.get(reverse("dashboard")).content.decode()

    assert "You are not in any campaign yet" not in page
    assert "You are in no running campaign" in page
    assert "Past campaigns (1)" in page and reverse("past_campaigns") in page
    # The archived campaign's warband is listed with it, no longer among the running ones.
    assert reavers.name not in page
    assert "You have no warbands in a running campaign" in page


def test_the_dashboard_keeps_running_campaigns_first_and_counts_closed_ones_as_past(client, user):
    running = MembershipFactory(user=user, campaign=CampaignFactory(name="Running League"))
    closed = MembershipFactory(user=user, campaign=CampaignFactory(name="Closed League"))
    set_status(closed.campaign, Campaign.Status.CLOSED)
    client.force_login(user)

    page = client.get(reverse("dashboard")).content.decode()

    assert page.index(running.campaign.name) < page.index(closed.campaign.name)
    assert "Past campaigns (1)" in page
    assert "You are in no running campaign" not in page


def test_a_user_without_past_campaigns_sees_no_link_to_them(client, duel):
    client.force_login(duel["reavers"].owner)

    page = client.get(reverse("dashboard")).content.decode()

    assert 'data-testid="past-campaigns"' not in page
    assert reverse("past_campaigns") not in page


def test_past_campaigns_lists_the_users_closed_and_archived_campaigns_only(client, duel):
    reavers, campaign = duel["reavers"], duel["campaign"]
    set_status(campaign, Campaign.Status.ARCHIVED)
    owner = reavers.owner
    closed = CampaignFactory(name="Closed Season")
    MembershipFactory(campaign=closed, user=owner, is_organiser=True)
    set_status(closed, Campaign.Status.CLOSED)
    running = CampaignFactory(name="Running Season")
    MembershipFactory(campaign=running, user=owner)
    left = CampaignFactory(name="Left Season")
    MembershipFactory(campaign=left, user=owner, is_active=False)
    set_status(left, Campaign.Status.ARCHIVED)
    elsewhere = CampaignFactory(name="Someone Else's Season")
    set_status(elsewhere, Campaign.Status.ARCHIVED)
    disbanded = WarbandFactory(campaign=campaign, owner=owner, name="Gone Band")
    disbanded.status, disbanded.gold_crowns = "disbanded", 0  # no purse once mustered
    disbanded.save()
    client.force_login(owner)

    page = client.get(reverse("past_campaigns")).content.decode()

    assert campaign.name in page and "archived" in page
    assert closed.name in page and "closed" in page and "Organiser" in page
    assert running.name not in page
    assert left.name not in page  # removed from it: no longer a member
    assert "Someone Else" not in page
    assert duel["scourge"].name not in page  # an opponent's warband
    assert "Gone Band" not in page  # it did not play to the end
    assert reverse("campaign_detail", args=[campaign.pk]) in page
    assert reverse("warband_roster", args=[reavers.pk]) in page
    assert reverse("warband_treasury", args=[reavers.pk]) in page
    assert "No warband of yours played to the end here." in page  # the closed one


def test_past_campaigns_says_so_when_there_are_none(client, user):
    client.force_login(user)

    page = client.get(reverse("past_campaigns")).content.decode()

    assert "None yet" in page


def test_past_campaigns_costs_the_same_queries_for_one_campaign_or_six(client, user):
    client.force_login(user)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("past_campaigns")).status_code == 200
        return len(captured)

    def past_campaign() -> None:
        warband = WarbandFactory(owner=user)
        set_status(warband.campaign, Campaign.Status.ARCHIVED)

    past_campaign()
    one = queries()
    for _ in range(5):
        past_campaign()
    assert queries() == one


def test_the_dashboard_costs_the_same_queries_with_archived_campaigns(client, user):
    client.force_login(user)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("dashboard")).status_code == 200
        return len(captured)

    WarbandFactory(owner=user)
    before = queries()
    for _ in range(4):
        warband = WarbandFactory(owner=user)
        set_status(warband.campaign, Campaign.Status.ARCHIVED)
    assert queries() == before


# --- Archived campaigns stay readable to their members ---------------------------------------


@pytest.mark.parametrize(
    ("role", "status"), [("owner", 200), ("opponent", 200), ("organiser", 200), ("stranger", 404)]
)
def test_an_archived_campaigns_pages_stay_readable_to_its_members(client, duel, role, status):
    reavers = duel["reavers"]
    set_status(duel["campaign"], Campaign.Status.ARCHIVED)
    user = {
        "owner": reavers.owner,
        "opponent": duel["scourge"].owner,
        "organiser": duel["organiser"],
        "stranger": UserFactory(),
    }[role]
    client.force_login(user)

    for url in (
        reverse("campaign_detail", args=[duel["campaign"].pk]),
        reverse("warband_roster", args=[reavers.pk]),
    ):
        assert client.get(url).status_code == status, url


# --- The owner's treasury, read-only once the campaign is closed -----------------------------


@pytest.mark.parametrize("status", [Campaign.Status.CLOSED, Campaign.Status.ARCHIVED])
def test_the_owner_reads_his_treasury_in_a_closed_campaign_with_no_form(client, duel, status):
    reavers = duel["reavers"]
    hide_secrets(reavers)
    set_status(duel["campaign"], status)
    client.force_login(reavers.owner)

    response = client.get(reverse("warband_treasury", args=[reavers.pk]))

    page = response.content.decode()
    assert response.status_code == 200
    label = Campaign.Status(status).label.lower()
    assert f"This campaign is {label}: the treasury is shown read-only." in page
    assert SECRET_ITEM in page and contains_value(page, SECRET_GOLD)  # his own treasure
    assert 'method="post"' not in page[page.index("<main") :]  # the header's log-out aside
    for name in ("treasury_move", "treasury_buy", "treasury_name", "treasury_move_item"):
        assert reverse(name, args=[reavers.pk]) not in page, name


def test_an_open_campaigns_treasury_does_not_say_read_only(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)

    page = client.get(reverse("warband_treasury", args=[reavers.pk])).content.decode()

    assert "shown read-only" not in page
    assert reverse("treasury_move", args=[reavers.pk]) in page


def test_a_closed_campaigns_treasury_refuses_every_change(client, closed):
    reavers = closed["reavers"]
    chest = reavers.containers.get(kind="treasure_chest")
    sack = reavers.containers.filter(kind="large_sack").first()
    before = treasury.totals(reavers), chest.gold_crowns, sack.gold_crowns
    client.force_login(reavers.owner)

    response = client.post(
        reverse("treasury_move", args=[reavers.pk]),
        {"source": chest.pk, "target": sack.pk, "gold": 1, "wyrdstone": 0},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 403
    chest.refresh_from_db()
    sack.refresh_from_db()
    assert (treasury.totals(reavers), chest.gold_crowns, sack.gold_crowns) == before


@pytest.mark.parametrize(
    ("role", "status"), [("opponent", 403), ("organiser", 403), ("bystander", 403)]
)
def test_a_closed_campaigns_treasury_stays_secret_from_others(client, closed, role, status):
    user = closed["scourge"].owner if role == "opponent" else closed[role]
    client.force_login(user)

    response = client.get(reverse("warband_treasury", args=[closed["reavers"].pk]))

    assert response.status_code == status
    for secret in closed["secrets"]:
        assert not contains_value(response.content.decode(), secret)


def test_the_owner_of_a_disbanded_warband_is_still_refused_its_treasury(client, closed):
    reavers = closed["reavers"]
    type(reavers).objects.filter(pk=reavers.pk).update(status="disbanded")
    client.force_login(reavers.owner)

    response = client.get(reverse("warband_treasury", args=[reavers.pk]))

    assert response.status_code == 403


def test_a_removed_member_cannot_reach_his_closed_campaigns_treasury(client, closed):
    reavers = closed["reavers"]
    Membership.objects.filter(campaign=closed["campaign"], user=reavers.owner).update(
        is_active=False
    )
    client.force_login(reavers.owner)

    assert client.get(reverse("warband_treasury", args=[reavers.pk])).status_code == 404
    assert client.get(reverse("past_campaigns")).content.decode().count(reavers.name) == 0
