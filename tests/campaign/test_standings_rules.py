"""Setting the league table's points and tie-breakers: the service, the form and its page,
and who may (organisers and co-organisers of a running campaign; nobody else)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from campaign.models import Campaign, CampaignEvent
from campaign.standings import set_standings_rules
from core.errors import RuleViolation
from tests.helpers import message_beside

pytestmark = pytest.mark.django_db

GOOD = {
    "win_points": 2,
    "draw_points": 1,
    "loss_points": 0,
    "played_points": 1,
    "tie_breakers": ("rating", "head_to_head"),
}


def post_data(**changes) -> dict:
    data = {
        "win_points": "2",
        "draw_points": "1",
        "loss_points": "0",
        "played_points": "1",
        "tie_breaker_1": "rating",
        "tie_breaker_2": "head_to_head",
        "tie_breaker_3": "",
        "tie_breaker_4": "",
    }
    data.update(changes)
    return data


def stored(campaign) -> tuple:
    rules = Campaign.objects.get(pk=campaign.pk)
    return (rules.win_points, rules.draw_points, rules.loss_points, rules.played_points,
            rules.tie_breaker_order)  # fmt: skip


DEFAULTS = (3, 1, 0, 0, ("head_to_head", "enemies_ooa", "rating", "played"))


def test_a_new_campaign_ranks_by_the_defaults(league):
    assert stored(league["campaign"]) == DEFAULTS


def test_the_organiser_sets_the_rules_and_the_feed_tells_everybody(league):
    campaign = league["campaign"]

    set_standings_rules(campaign, actor=league["organiser"], **GOOD)

    assert stored(campaign) == (2, 1, 0, 1, ("rating", "head_to_head"))
    line = CampaignEvent.objects.filter(campaign=campaign).first().message
    assert line == (
        f"{league['organiser'].username} set the league table's rules: 2 points for a win, "
        "1 for a draw, 0 for a loss, plus 1 for playing; ties broken by warband rating, "
        "then head-to-head, then name."
    )


def test_setting_the_rules_again_replaces_them(league):
    campaign = league["campaign"]
    set_standings_rules(campaign, actor=league["organiser"], **GOOD)

    set_standings_rules(campaign, actor=league["co_organiser"], **{**GOOD, "tie_breakers": ()})

    assert stored(campaign) == (2, 1, 0, 1, ())


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"win_points": -1}, "win_points"),
        ({"draw_points": -3}, "draw_points"),
        ({"loss_points": 100}, "loss_points"),
        ({"played_points": -1}, "played_points"),
        ({"tie_breakers": ("rating", "rating")}, ""),
        ({"tie_breakers": ("gold",)}, ""),
        ({"tie_breakers": ("name",)}, ""),
    ],
)
def test_the_service_refuses_bad_rules_and_changes_nothing(league, changes, field):
    campaign = league["campaign"]

    with pytest.raises(RuleViolation) as refusal:
        set_standings_rules(campaign, actor=league["organiser"], **{**GOOD, **changes})

    assert refusal.value.field == field
    assert stored(campaign) == DEFAULTS


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_only_organisers_set_the_rules(league, who):
    with pytest.raises(PermissionDenied):
        set_standings_rules(league["campaign"], actor=league[who], **GOOD)
    assert stored(league["campaign"]) == DEFAULTS


def test_nobody_sets_the_rules_of_a_closed_campaign(league):
    campaign = league["campaign"]
    campaign.status = "closed"
    campaign.save()

    with pytest.raises(PermissionDenied):
        set_standings_rules(campaign, actor=league["organiser"], **GOOD)


# --- The page -------------------------------------------------------------------------------


def url(league) -> str:
    return reverse("standings_rules", args=[league["campaign"].pk])


@pytest.mark.parametrize("who", ["organiser", "co_organiser"])
def test_organisers_read_and_save_the_rules_page(client, league, who):
    client.force_login(league[who])

    page = client.get(url(league))
    saved = client.post(url(league), post_data())

    assert page.status_code == 200
    assert 'name="tie_breaker_1"' in page.content.decode()
    assert saved.status_code == 302
    assert stored(league["campaign"]) == (2, 1, 0, 1, ("rating", "head_to_head"))


@pytest.mark.parametrize(("who", "status"), [("player", 403), ("outsider", 404)])
def test_players_and_strangers_are_refused_the_rules_page(client, league, who, status):
    client.force_login(league[who])

    assert client.get(url(league)).status_code == status
    assert client.post(url(league), post_data()).status_code == status
    assert stored(league["campaign"]) == DEFAULTS


def test_an_anonymous_visitor_is_sent_to_log_in(client, league):
    assert client.post(url(league), post_data()).status_code == 302
    assert stored(league["campaign"]) == DEFAULTS


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"tie_breaker_3": "rating"}, "tie_breaker_3", "This tie-breaker is already chosen"),
        ({"win_points": "-1"}, "win_points", "greater than or equal to 0"),
        ({"draw_points": "lots"}, "draw_points", "Enter a whole number"),
        ({"tie_breaker_2": "gold"}, "tie_breaker_2", "Select a valid choice"),
    ],
)
def test_a_bad_post_is_refused_beside_its_field_and_changes_nothing(
    client, league, changes, field, message
):
    client.force_login(league["organiser"])

    response = client.post(url(league), post_data(**changes))

    assert response.status_code == 422
    assert message in message_beside(response.content.decode(), f"id_{field}")
    assert stored(league["campaign"]) == DEFAULTS


def test_blank_slots_between_tie_breakers_are_skipped(client, league):
    client.force_login(league["organiser"])

    client.post(url(league), post_data(tie_breaker_1="", tie_breaker_2="", tie_breaker_4="played"))

    assert stored(league["campaign"])[4] == ("played",)


def test_a_closed_campaigns_rules_are_read_only(client, league):
    campaign = league["campaign"]
    campaign.status = "closed"
    campaign.save()
    client.force_login(league["organiser"])

    page = client.get(url(league)).content.decode()

    assert "<fieldset disabled>" in page
    assert client.post(url(league), post_data()).status_code == 403
    assert stored(campaign) == DEFAULTS


def test_the_settings_page_links_the_rules(client, league):
    client.force_login(league["organiser"])

    page = client.get(reverse("campaign_settings", args=[league["campaign"].pk])).content.decode()

    assert f'href="{url(league)}"' in page
