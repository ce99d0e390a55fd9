"""The organiser's powers that a player would want to know of: the "organiser sees secrets"
switch is told in the feed, whoever flips it; a battle an organiser records, or confirms for
everybody, waits for its players or says in the feed who overrode them."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from battles import services as battle_services
from battles.models import Battle
from battles.rules import ReportedResult
from campaign.models import CampaignEvent
from tests.helpers import every_side_entered

HTMX = {"HX-Request": "true"}
pytestmark = pytest.mark.django_db


def settings_of(campaign, **changes) -> dict:
    """The settings form as the page posts it, with ``changes``."""
    data = {
        "name": campaign.name,
        "description": campaign.description,
        "start_date": campaign.start_date.isoformat() if campaign.start_date else "",
        "max_warbands_per_player": campaign.max_warbands_per_player,
        "mim_carried_items": "on" if campaign.mim_carried_items else "",
        "organiser_sees_secrets": "on" if campaign.organiser_sees_secrets else "",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value != ""}


def test_turning_organiser_sees_secrets_on_or_off_is_written_in_the_feed(client, league):
    campaign, organiser = league["campaign"], league["organiser"]
    client.force_login(organiser)
    url = reverse("campaign_settings", args=[campaign.pk])
    news = CampaignEvent.objects.filter(campaign=campaign, kind="campaign")
    before = news.count()

    client.post(url, settings_of(campaign, name="Siege, season two"))
    assert news.count() == before  # other settings say nothing
    client.post(url, settings_of(campaign, organiser_sees_secrets="on"))
    campaign.refresh_from_db()
    assert campaign.organiser_sees_secrets
    client.post(url, settings_of(campaign, organiser_sees_secrets="on", name="Siege III"))
    client.post(url, settings_of(campaign, organiser_sees_secrets=""))

    campaign.refresh_from_db()
    assert not campaign.organiser_sees_secrets
    assert list(news.order_by("pk").values_list("message", flat=True)[before:]) == [
        f"{organiser.username} let the organisers see inside every warband's storage containers.",
        f"{organiser.username} stopped the organisers seeing inside the warbands' storage "
        "containers.",
    ]
    client.force_login(league["player"])
    feed = client.get(reverse("campaign_feed", args=[campaign.pk])).content.decode()
    assert f"{organiser.username} let the organisers see inside" in feed


def test_an_organiser_records_a_battle_enters_both_sides_then_confirms_by_overriding(
    client, league
):
    campaign = league["campaign"]
    reavers, scourge = league["reavers"], league["scourge"]
    organiser = league["organiser"]
    client.force_login(organiser)
    data = {
        "scenario_key": "street_fight",
        "fought_on": "2026-11-20",
        f"w{reavers.pk}-took_part": "on",
        f"w{reavers.pk}-result": "won",
        f"w{scourge.pk}-took_part": "on",
        f"w{scourge.pk}-result": "lost",
    }

    client.post(reverse("battle_record", args=[campaign.pk]), data)

    battle = Battle.objects.get()
    assert battle.status == "reported"  # each side enters its warriors first
    response = client.post(reverse("battle_confirm_all", args=[battle.pk]), headers=HTMX)
    assert response.status_code == 422 and "Waiting for" in response.content.decode()
    for warband in (reavers, scourge):
        captain = warband.warriors.get(is_leader=True)
        client.post(
            reverse("battle_side", args=[battle.pk, warband.pk]),
            {f"o{captain.pk}-took_part": "on", "leader": str(captain.pk)},
        )
    client.post(reverse("battle_confirm_all", args=[battle.pk]))
    battle.refresh_from_db()
    assert battle.status == "confirmed"
    assert CampaignEvent.objects.filter(
        battle=battle,
        message=f"{organiser.username}, organiser, confirmed {battle} for Reavers and Scourge "
        "without waiting for their players.",
    ).exists()
    entered = CampaignEvent.objects.filter(battle=battle, message__contains="entered what")
    assert entered.count() == 2  # one line per side he entered for its player


def test_confirming_for_everybody_names_the_organiser_in_the_feed(client, league):
    reavers, scourge = league["reavers"], league["scourge"]
    battle = battle_services.report_battle(
        actor=reavers.owner, campaign=league["campaign"], scenario="Ambush",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip
    every_side_entered(battle)
    client.force_login(league["co_organiser"])

    client.post(reverse("battle_confirm_all", args=[battle.pk]))

    battle.refresh_from_db()
    assert battle.status == "confirmed"
    feed = client.get(reverse("campaign_feed", args=[league["campaign"].pk])).content.decode()
    assert f"{league['co_organiser'].username}, organiser, confirmed" in feed
    assert "for Scourge without waiting for their players" in feed


def test_site_staff_switching_organiser_sees_secrets_in_the_admin_is_written_in_the_feed(
    client, league
):
    campaign = league["campaign"]
    staff = get_user_model().objects.create_superuser("warden", password="x-pass-9")
    client.force_login(staff)
    url = reverse("admin:campaign_campaign_change", args=[campaign.pk])
    page = client.get(url)
    form, inlines = page.context["adminform"].form, page.context["inline_admin_formsets"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and not isinstance(value, list | tuple)
    }
    data["start_date"] = campaign.start_date.isoformat()
    data["organiser_sees_secrets"] = "on"
    for inline in inlines:
        management = inline.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
        for row in inline.formset.forms:
            data.update({row.add_prefix(k): v for k, v in row.initial.items() if v is not None})
            data[row.add_prefix("id")] = row.instance.pk
    data = {k: v for k, v in data.items() if v is not False}

    response = client.post(url, data)

    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.organiser_sees_secrets
    assert CampaignEvent.objects.filter(
        campaign=campaign, message="warden let the organisers see inside every warband's "
        "storage containers."
    ).exists()  # fmt: skip
