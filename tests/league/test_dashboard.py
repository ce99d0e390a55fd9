import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.report import services, sides
from battles.rules import ReportedResult
from tests.factories import CampaignFactory, MembershipFactory, WarbandFactory

pytestmark = pytest.mark.django_db


def test_dashboard_shows_empty_states_that_say_what_to_do(client, user):
    client.force_login(user)

    page = client.get(reverse("dashboard")).content.decode()

    assert "You are not in any campaign yet" in page
    assert "You have no warbands yet" in page


def test_dashboard_lists_the_users_campaigns_roles_and_warbands_only(client, user):
    league = CampaignFactory(name="Sigmar's Haven League")
    MembershipFactory(campaign=league, user=user)
    organised = CampaignFactory(name="Black Pit Open")
    MembershipFactory(campaign=organised, user=user, is_organiser=True)
    WarbandFactory(campaign=league, owner=user, name="Reikland Reavers")
    WarbandFactory(campaign=league, name="Someone Else's Rats")
    CampaignFactory(name="A Campaign Elsewhere")
    client.force_login(user)

    page = client.get(reverse("dashboard")).content.decode()

    assert "Sigmar&#x27;s Haven League" in page
    assert "Black Pit Open" in page
    assert "Organiser" in page and "Player" in page
    assert "Reikland Reavers" in page
    assert "Someone Else" not in page
    assert "A Campaign Elsewhere" not in page
    assert "not in any campaign" not in page


def test_dashboard_query_count_does_not_grow_with_campaigns(
    client, user, django_assert_num_queries
):
    client.force_login(user)

    def queries_for_dashboard() -> int:

        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("dashboard")).status_code == 200
        return len(captured)

    MembershipFactory(user=user)
    WarbandFactory(owner=user)
    small = queries_for_dashboard()
    for _ in range(6):
        membership = MembershipFactory(user=user)
        WarbandFactory(owner=user, campaign=membership.campaign)
    assert queries_for_dashboard() == small


def test_a_dispute_shows_on_the_other_players_and_the_organisers_dashboards(client, duel):
    """After the opponent disputes, the reporter's dashboard says who disputed and
    why (not "Nothing waiting for you"); the organiser's asks him to settle it; the player
    who disputed waits for them."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="Street Fight",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip
    services.respond(battle, actor=scourge.owner, agree=False, reason="Brandt never fell")
    said = f"({scourge.owner.username}: “Brandt never fell”)"

    client.force_login(reavers.owner)
    page = client.get(reverse("dashboard")).content.decode()
    assert f"The report of {battle} is disputed {said}: correct it or talk it over" in page
    client.force_login(duel["organiser"])
    page = client.get(reverse("dashboard")).content.decode()
    assert f"Settle the dispute over {battle} {said}" in page
    client.force_login(scourge.owner)
    page = client.get(reverse("dashboard")).content.decode()
    assert "disputed" not in page and "Settle the dispute" not in page


def test_each_player_is_asked_to_enter_his_side_then_to_confirm(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="", scenario_key="skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost", True, 1)],
    )  # fmt: skip

    def dashboard(user):
        client.force_login(user)
        return client.get(reverse("dashboard")).content.decode()

    enter = "Enter what the warriors of {} did in"
    assert enter.format("Reavers") in dashboard(reavers.owner)
    assert enter.format("Scourge") in dashboard(scourge.owner)
    assert "Confirm or dispute" not in dashboard(scourge.owner)  # not before every side
    sides.enter_side(battle, scourge, actor=scourge.owner, outcomes=sides.whole_side(scourge))
    page = dashboard(scourge.owner)
    assert enter.format("Scourge") not in page and "Confirm or dispute" not in page
    sides.enter_side(battle, reavers, actor=reavers.owner, outcomes=sides.whole_side(reavers))
    assert "Confirm or dispute the report of" in dashboard(scourge.owner)
    assert "Confirm or dispute the report of" in dashboard(reavers.owner)  # he saw a new side
