"""Running a league: create, invite, remove, close, record battles."""

import pytest
from django.urls import reverse

from battles.models import Battle, Captive
from battles.report import services as battle_services
from campaign.models import Campaign, CampaignEvent, Membership
from tests.factories import (
    SECRET_ITEM,
    MembershipFactory,
    UserFactory,
    WarbandFactory,
    change_secrets,
    hide_secrets,
    record,
)
from tests.helpers import every_side_entered
from tests.secrets import assert_unchanged_by_secrets
from warbands import treasury
from warbands.models import Warband, Warrior

pytestmark = pytest.mark.django_db


# --- Creating and joining ------------------------------------------------------------------


def test_creating_a_campaign_makes_the_creator_its_organiser(client, user):
    client.force_login(user)

    response = client.post(
        reverse("campaign_create"),
        {
            "name": "Mordheim Summer",
            "description": "",
            "start_date": "2026-12-01",
            "mim_carried_items": "on",
            "max_warbands_per_player": 2,
        },
    )

    campaign = Campaign.objects.get(name="Mordheim Summer")
    assert response["Location"] == reverse("campaign_settings", args=[campaign.pk])
    assert campaign.memberships.get().is_organiser
    assert (campaign.mim_carried_items, campaign.organiser_sees_secrets) == (True, False)
    assert campaign.max_warbands_per_player == 2


def test_a_campaign_without_a_name_is_refused(client, user):
    client.force_login(user)
    before = Campaign.objects.count()

    response = client.post(reverse("campaign_create"), {"name": "", "start_date": "2026-12-01"})

    assert response.status_code == 422
    assert Campaign.objects.count() == before


def test_joining_by_code_makes_a_player_once(client, league):
    newcomer = UserFactory()
    client.force_login(newcomer)
    code = league["campaign"].join_code

    response = client.post(reverse("join"), {"code": code.lower()})
    client.post(reverse("join"), {"code": code})

    assert response["Location"] == reverse("campaign_detail", args=[league["campaign"].pk])
    membership = Membership.objects.get(user=newcomer)
    assert not membership.is_organiser
    assert (
        CampaignEvent.objects.filter(kind="joined", message__contains=newcomer.username).count()
        == 1
    )


def test_the_join_link_names_the_campaign(client, league):
    client.force_login(UserFactory())

    page = client.get(reverse("join_link", args=[league["campaign"].join_code])).content.decode()

    assert "Join Siege of Sigmarhafen" in page


@pytest.mark.parametrize(
    ("prepare", "message"),
    [
        (lambda c: setattr(c, "joining_open", False), "not taking new players"),
        (lambda c: setattr(c, "status", "closed"), "is closed"),
    ],
)
def test_a_closed_code_is_refused(client, league, prepare, message):
    campaign = league["campaign"]
    prepare(campaign)
    campaign.save()
    newcomer = UserFactory()
    client.force_login(newcomer)

    response = client.post(reverse("join"), {"code": campaign.join_code})

    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()


def test_regenerating_the_code_invalidates_the_old_one(client, league):
    campaign = league["campaign"]
    old = campaign.join_code
    client.force_login(league["organiser"])

    client.post(reverse("join_code_regenerate", args=[campaign.pk]))

    campaign.refresh_from_db()
    assert campaign.join_code != old
    newcomer = UserFactory()
    client.force_login(newcomer)
    assert (
        "No campaign has that join code"
        in client.post(reverse("join"), {"code": old}).content.decode()
    )
    client.post(reverse("join"), {"code": campaign.join_code})
    assert Membership.objects.filter(user=newcomer, campaign=campaign).exists()


def test_closing_and_opening_joining(client, league):
    campaign = league["campaign"]
    client.force_login(league["organiser"])

    client.post(reverse("joining_toggle", args=[campaign.pk]))
    campaign.refresh_from_db()
    assert not campaign.joining_open
    client.post(reverse("joining_toggle", args=[campaign.pk]))
    campaign.refresh_from_db()
    assert campaign.joining_open


# --- Organiser tools -----------------------------------------------------------------------


def test_removing_a_player_archives_their_warbands_and_keeps_their_battles(client, league):
    campaign = league["campaign"]
    battle = record(
        campaign,
        league["organiser"],
        [(league["reavers"], "won", False), (league["scourge"], "lost", True)],
    )
    membership = Membership.objects.get(user=league["player"], campaign=campaign)
    client.force_login(league["co_organiser"])

    assert (
        "Remove"
        in client.get(reverse("member_remove", args=[campaign.pk, membership.pk])).content.decode()
    )
    client.post(reverse("member_remove", args=[campaign.pk, membership.pk]))

    membership.refresh_from_db()
    league["reavers"].refresh_from_db()
    assert not membership.is_active
    assert league["reavers"].status == "archived"
    assert battle.participants.filter(warband=league["reavers"]).exists()
    client.force_login(league["player"])
    assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 404
    client.force_login(league["organiser"])
    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert "Reavers" in page


def test_an_organiser_removes_a_warband(client, league):
    client.force_login(league["organiser"])

    url = reverse("warband_archive", args=[league["campaign"].pk, league["scourge"].pk])
    client.post(url, {"confirm": "on"})

    league["scourge"].refresh_from_db()
    assert league["scourge"].status == "archived"


def _held(warrior, captor, battle) -> Captive:
    Warrior.objects.filter(pk=warrior.pk).update(status=Warrior.Status.CAPTURED)
    return Captive.objects.create(warrior=warrior, captor=captor, battle=battle)


def test_a_warband_taken_out_of_play_lets_its_captives_go_home(client, league):
    """Nobody plays the captor any more: his captives could never be ransomed, exchanged or
    sold. The Reavers' hero held by the Scourge comes home; the Scourge's held by the Reavers
    stays where he is."""
    campaign, reavers, scourge = league["campaign"], league["reavers"], league["scourge"]
    battle = record(
        campaign, league["organiser"], [(reavers, "won", False), (scourge, "lost", True)]
    )
    theirs = _held(reavers.warriors.filter(is_hero=True).last(), scourge, battle)
    ours = _held(scourge.warriors.filter(is_hero=True).last(), reavers, battle)
    client.force_login(league["organiser"])

    client.post(reverse("warband_archive", args=[campaign.pk, scourge.pk]), {"confirm": "on"})

    theirs.refresh_from_db()
    ours.refresh_from_db()
    assert (theirs.status, theirs.warrior.status) == ("released", "active")
    assert (ours.status, ours.warrior.status) == ("held", "captured")
    line = CampaignEvent.objects.filter(kind="captured").latest("pk").message
    assert line == (
        f"{theirs.warrior.name} of Reavers comes home: Scourge left the campaign and let him go."
    )


def test_a_warband_its_player_disbands_lets_its_captives_go_home(client, league):
    """The same when the captor's own player disbands it from its roster."""
    campaign, reavers, scourge = league["campaign"], league["reavers"], league["scourge"]
    battle = record(
        campaign, league["organiser"], [(reavers, "won", False), (scourge, "lost", True)]
    )
    theirs = _held(reavers.warriors.filter(is_hero=True).last(), scourge, battle)
    client.force_login(scourge.owner)

    client.post(reverse("warband_disband", args=[scourge.pk]), {"confirm": "on"})

    theirs.refresh_from_db()
    scourge.refresh_from_db()
    assert scourge.status == "disbanded"
    assert (theirs.status, theirs.warrior.status) == ("released", "active")
    line = CampaignEvent.objects.filter(kind="captured").latest("pk").message
    assert (
        line
        == f"{theirs.warrior.name} of Reavers comes home: Scourge was disbanded and let him go."
    )


def test_removing_a_player_lets_his_captives_go_and_takes_a_mustering_purse(client, league):
    campaign, reavers, scourge = league["campaign"], league["reavers"], league["scourge"]
    battle = record(
        campaign, league["organiser"], [(reavers, "won", False), (scourge, "lost", True)]
    )
    theirs = _held(scourge.warriors.filter(is_hero=True).last(), reavers, battle)
    campaign.max_warbands_per_player = 2
    campaign.save()
    mustering = WarbandFactory(campaign=campaign, owner=league["player"], name="Second Band")
    assert mustering.gold_crowns > 0
    membership = Membership.objects.get(user=league["player"], campaign=campaign)
    client.force_login(league["organiser"])

    response = client.post(reverse("member_remove", args=[campaign.pk, membership.pk]))

    assert response.status_code == 302
    mustering.refresh_from_db()
    theirs.refresh_from_db()
    assert (mustering.status, mustering.gold_crowns) == ("archived", 0)
    assert (theirs.status, theirs.warrior.status) == ("released", "active")


def test_an_organiser_records_and_corrects_a_battle(client, league):
    campaign = league["campaign"]
    reavers, scourge = league["reavers"], league["scourge"]
    client.force_login(league["organiser"])
    data = {
        "scenario": "Street Fight",
        "fought_on": "2026-11-20",
        f"w{reavers.pk}-took_part": "on",
        f"w{reavers.pk}-result": "won",
        f"w{scourge.pk}-took_part": "on",
        f"w{scourge.pk}-result": "lost",
        f"w{scourge.pk}-routed": "on",
    }

    response = client.post(reverse("battle_record", args=[campaign.pk]), data)

    battle = Battle.objects.get()
    assert response["Location"] == reverse("battle_detail", args=[battle.pk])
    assert battle.status == "reported"  # each player confirms it, as with a player's report
    assert set(battle.participants.values_list("confirmation", flat=True)) == {"pending"}
    assert not CampaignEvent.objects.filter(kind="battle", battle=battle).exists()
    assert not battle.carried_items.exists()
    every_side_entered(battle)
    battle_services.respond(battle, actor=reavers.owner, agree=True)
    battle_services.respond(battle, actor=scourge.owner, agree=True)
    battle.refresh_from_db()
    assert battle.status == "confirmed"
    assert {(p.warband.name, p.result, p.routed) for p in battle.participants.all()} == {
        ("Reavers", "won", False),
        ("Scourge", "lost", True),
    }
    assert CampaignEvent.objects.filter(kind="battle", battle=battle).exists()

    client.post(
        reverse("battle_correct", args=[battle.pk]),
        {
            f"w{reavers.pk}-took_part": "on",
            f"w{reavers.pk}-result": "draw",
            f"w{scourge.pk}-took_part": "on",
            f"w{scourge.pk}-result": "draw",
        },
    )
    assert set(battle.participants.values_list("result", flat=True)) == {"draw"}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ({"reavers": "won"}, "at least two warbands"),
        ({"reavers": "won", "scourge": "won"}, "at least one won and at least one lost"),
        ({"reavers": "won", "scourge": "draw"}, "at least one won and at least one lost"),
        ({"reavers": "won", "scourge": ""}, "say whether it won"),
        ({"reavers": "won+routed", "scourge": "lost"}, "routed lost"),
    ],
)
def test_an_impossible_battle_is_refused_and_nothing_is_recorded(client, league, rows, message):
    client.force_login(league["organiser"])
    data = {"scenario": "Skirmish", "fought_on": "2026-11-20"}
    for key, value in rows.items():
        warband = league[key]
        data[f"w{warband.pk}-took_part"] = "on"
        result, _, routed = value.partition("+")
        data[f"w{warband.pk}-result"] = result
        if routed:
            data[f"w{warband.pk}-routed"] = "on"

    response = client.post(reverse("battle_record", args=[league["campaign"].pk]), data)

    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Battle.objects.exists()


def test_a_warband_still_mustering_cannot_fight(client, league):
    draft = WarbandFactory(campaign=league["campaign"], name="Green")
    client.force_login(league["organiser"])
    data = {
        "scenario": "Skirmish",
        "fought_on": "2026-11-20",
        f"w{draft.pk}-took_part": "on",
        f"w{draft.pk}-result": "won",
        f"w{league['reavers'].pk}-took_part": "on",
        f"w{league['reavers'].pk}-result": "lost",
    }

    response = client.post(reverse("battle_record", args=[league["campaign"].pk]), data)

    assert response.status_code == 422
    assert not Battle.objects.exists()


# --- A closed campaign is read-only --------------------------------------------------------


def test_a_closed_campaign_refuses_every_write(client, league):
    campaign = league["campaign"]
    client.force_login(league["organiser"])
    client.post(
        reverse("campaign_status", args=[campaign.pk]), {"status": "closed", "confirm": "on"}
    )
    campaign.refresh_from_db()
    assert campaign.status == "closed"
    reavers = league["reavers"]
    chest = reavers.containers.get(kind="treasure_chest")
    sack = reavers.containers.filter(kind="large_sack").first()
    before = (
        treasury.totals(reavers),
        Battle.objects.count(),
        campaign.join_code,
        Warband.objects.filter(campaign=campaign, status="active").count(),
    )

    for user, method, url, data in [
        ("organiser", "post", reverse("battle_record", args=[campaign.pk]), {}),
        ("organiser", "post", reverse("campaign_settings", args=[campaign.pk]), {"name": "X"}),
        ("organiser", "post", reverse("join_code_regenerate", args=[campaign.pk]), {}),
        ("organiser", "post", reverse("co_organiser_add", args=[campaign.pk]), {"username": "x"}),
        ("organiser", "post", reverse("warband_archive", args=[campaign.pk, reavers.pk]),
         {"confirm": "on"}),
        ("player", "post", reverse("treasury_move", args=[reavers.pk]),
         {"source": chest.pk, "target": sack.pk, "gold": 1}),
        ("player", "post", reverse("warband_rename", args=[reavers.pk]), {"name": "New"}),
        ("player", "post", reverse("warband_create", args=[campaign.pk]), {"name": "More"}),
        ("player", "get", reverse("battle_record", args=[campaign.pk]), {}),
    ]:  # fmt: skip
        client.force_login(league[user])
        response = getattr(client, method)(url, data)
        assert response.status_code in (403, 404, 422), (url, response.status_code)

    campaign.refresh_from_db()
    reavers.refresh_from_db()
    assert reavers.name == "Reavers"
    assert before == (
        treasury.totals(reavers),
        Battle.objects.count(),
        campaign.join_code,
        Warband.objects.filter(campaign=campaign, status="active").count(),
    )
    # Reading still works, and an organiser may reopen it.
    assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 200
    client.force_login(league["organiser"])
    client.post(reverse("campaign_status", args=[campaign.pk]), {"status": "open"})
    campaign.refresh_from_db()
    assert campaign.is_open


# --- Secrets stay out of the league ------------------------------------------------------


def test_league_table_feed_and_chart_never_show_a_treasury(client, league):
    reavers = league["reavers"]
    hide_secrets(reavers)
    record(
        league["campaign"],
        league["organiser"],
        [(reavers, "won", False), (league["scourge"], "lost", True)],
    )
    client.force_login(league["co_organiser"])
    campaign = league["campaign"]

    for url, headers in [
        (reverse("campaign_detail", args=[campaign.pk]), {}),
        (reverse("campaign_detail", args=[campaign.pk]) + "?sort=rating",
         {"HX-Request": "true", "HX-Target": "league-table"}),
        (reverse("campaign_feed", args=[campaign.pk]), {}),
        (reverse("campaign_feed", args=[campaign.pk]), {"HX-Request": "true"}),
        (reverse("campaign_settings", args=[campaign.pk]), {}),
        (reverse("dashboard"), {}),
    ]:  # fmt: skip
        body = client.get(url, headers=headers).content.decode()
        assert SECRET_ITEM not in body
        assert_unchanged_by_secrets(
            lambda url=url, headers=headers: client.get(url, headers=headers).content.decode(),
            lambda: change_secrets(reavers),
        )


# --- The dashboard -------------------------------------------------------------------------


def test_the_dashboard_says_what_to_do_next_in_each_campaign(client, league):
    draft = WarbandFactory(name="Green Horde")
    second = MembershipFactory(user=draft.owner, campaign=league["campaign"]).campaign
    client.force_login(draft.owner)

    page = client.get(reverse("dashboard")).content.decode()

    assert "Finish mustering Green Horde" in page
    assert "Muster your warband" in page  # in the league, where they have no warband yet
    assert second.name in page


def test_archived_campaigns_leave_the_dashboard(client, league):
    campaign = league["campaign"]
    client.force_login(league["organiser"])
    client.post(
        reverse("campaign_status", args=[campaign.pk]), {"status": "archived", "confirm": "on"}
    )

    assert campaign.name not in client.get(reverse("dashboard")).content.decode()
    assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 200
