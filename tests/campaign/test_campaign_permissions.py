"""Every campaign and battle URL, for every role: organiser, co-organiser, player in the
campaign, player of another campaign, anonymous visitor."""

import pytest
from django.urls import reverse

from campaign.models import Membership
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband, record

pytestmark = pytest.mark.django_db
ROLES = ("organiser", "co_organiser", "player", "outsider", "anonymous")


@pytest.fixture
def world():
    campaign = CampaignFactory()
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    co_organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    first = mustered_warband(campaign=campaign)
    second = mustered_warband(campaign=campaign)
    battle = record(campaign, organiser, [(first, "won", False), (second, "lost", True)])
    return {
        "campaign": campaign,
        "battle": battle,
        "member": Membership.objects.get(campaign=campaign, user=second.owner),
        "warband": second,
        "users": {
            "organiser": organiser,
            "co_organiser": co_organiser,
            "player": first.owner,
            "outsider": mustered_warband().owner,
            "anonymous": None,
        },
    }


READ = {"organiser": 200, "co_organiser": 200, "player": 200, "outsider": 404, "anonymous": 302}
ORGANISE = {"organiser": 200, "co_organiser": 200, "player": 403, "outsider": 404,
            "anonymous": 302}  # fmt: skip
ORGANISE_POST = {**ORGANISE, "organiser": 302, "co_organiser": 302}


def cases(world):
    c, b, m, w = world["campaign"].pk, world["battle"].pk, world["member"].pk, world["warband"].pk
    return [
        ("get", reverse("campaign_detail", args=[c]), {}, READ),
        ("get", reverse("campaign_feed", args=[c]), {}, READ),
        ("get", reverse("campaign_table", args=[c]), {}, READ),
        ("get", reverse("campaign_battles", args=[c]), {}, READ),
        ("get", reverse("campaign_members", args=[c]), {}, READ),
        ("get", reverse("battle_detail", args=[b]), {}, READ),
        ("get", reverse("campaign_settings", args=[c]), {}, ORGANISE),
        ("get", reverse("battle_record", args=[c]), {}, ORGANISE),
        ("get", reverse("battle_correct", args=[b]), {}, ORGANISE),
        ("get", reverse("member_remove", args=[c, m]), {}, ORGANISE),
        ("get", reverse("warband_archive", args=[c, w]), {}, ORGANISE),
        ("post", reverse("join_code_regenerate", args=[c]), {}, ORGANISE_POST),
        ("post", reverse("joining_toggle", args=[c]), {}, ORGANISE_POST),
        ("post", reverse("campaign_status", args=[c]), {"status": "open"}, ORGANISE_POST),
        ("post", reverse("co_organiser_add", args=[c]), {"username": "x"}, ORGANISE_POST),
        ("get", reverse("organiser_step_down", args=[c]), {}, ORGANISE),
        ("post", reverse("campaign_settings", args=[c]), {"name": ""},
         {**ORGANISE, "organiser": 422, "co_organiser": 422}),
        ("post", reverse("battle_record", args=[c]), {"scenario": ""},
         {**ORGANISE, "organiser": 422, "co_organiser": 422}),
        ("get", reverse("campaign_create"), {},
         {"organiser": 200, "co_organiser": 200, "player": 200, "outsider": 200, "anonymous": 302}),
        ("get", reverse("join"), {},
         {"organiser": 200, "co_organiser": 200, "player": 200, "outsider": 200, "anonymous": 302}),
    ]  # fmt: skip


@pytest.mark.parametrize("role", ROLES)
def test_campaign_urls_by_role(client, world, role):
    user = world["users"][role]
    if user is not None:
        client.force_login(user)
    for method, url, data, expected in cases(world):
        response = getattr(client, method)(url, data)
        assert response.status_code == expected[role], (role, method, url, response.status_code)
        if expected[role] == 302 and role == "anonymous":
            assert response["Location"].startswith(reverse("login"))


def test_removal_and_archiving_by_a_player_change_nothing(client, world):
    client.force_login(world["users"]["player"])
    campaign = world["campaign"]

    client.post(reverse("member_remove", args=[campaign.pk, world["member"].pk]))
    client.post(
        reverse("warband_archive", args=[campaign.pk, world["warband"].pk]), {"confirm": "on"}
    )

    world["member"].refresh_from_db()
    world["warband"].refresh_from_db()
    assert world["member"].is_active
    assert world["warband"].status == "active"
