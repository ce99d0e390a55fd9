"""The organiser's powers that a player would want to know of: the "organiser sees secrets"
switch is told in the feed, whoever flips it, and never shows an organiser who plays what is
inside another warband; a battle an organiser records, or confirms for everybody, waits for
its players or says in the feed who overrode them; an organiser acts for players only in
battles he did not fight, lets the server roll their dice, and leaves a step undone before
to its player."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath import carried_items
from battles.helper import moves
from battles.helper.start import start_game
from battles.models import Battle, DiceRoll, Fighter
from battles.report import permissions as report_permissions
from battles.report import services as battle_services
from battles.report import sides
from battles.rules import ReportedResult
from campaign.models import CampaignEvent, Membership
from tests.factories import SECRET_ITEM, hide_secrets
from tests.helpers import battle_of, every_side_entered, play_to, reported, sequence_of

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


# --- An organiser who fought is one of the players -----------------------------------------


@pytest.fixture
def fighting_organiser(duel):
    """The Reavers' player organises the campaign too (beside its neutral organiser)."""
    reavers = duel["reavers"]
    Membership.objects.filter(campaign=duel["campaign"], user=reavers.owner).update(
        is_organiser=True
    )
    return reavers.owner


def _enter_their_side(duel):
    battle = reported(duel)
    scourge = duel["scourge"]
    return lambda actor: sides.enter_side(
        battle, scourge, actor=actor, outcomes=sides.whole_side(scourge)
    )


def _confirm_for_everybody(duel):
    battle = every_side_entered(reported(duel))
    return lambda actor: battle_services.confirm_for_everybody(battle, actor=actor)


def _correct_the_result(duel):
    battle = reported(duel, confirmed=True)
    reavers, scourge = duel["reavers"], duel["scourge"]
    flipped = [ReportedResult(reavers.pk, "lost", True, 1), ReportedResult(scourge.pk, "won")]
    return lambda actor: battle_services.correct_result(battle, actor=actor, results=flipped)


def _declare_their_carried_items(duel):
    battle = reported(duel, confirmed=True)
    scourge = duel["scourge"]
    declarations = [
        carried_items.Declaration(i.pk, "enemy", duel["reavers"].pk)
        for i in battle.carried_items.filter(owner=scourge)
    ]
    return lambda actor: carried_items.declare_carried_items(
        battle, scourge, actor=actor, declarations=declarations, securers=0, override=True
    )


def _play_their_injuries(duel):
    sequence = sequence_of(battle_of(duel), duel["scourge"])
    return lambda actor: sequences.may_act(actor, sequence) or _refuse()


def _reopen_their_step(duel):
    scourge = duel["scourge"]
    sequence = play_to(sequence_of(battle_of(duel), scourge), 3, scourge.owner)
    return lambda actor: sequences.reopen_step(
        sequence, 2, actor=actor, reason="the experience was wrong", seen=3
    )


def _test_their_marker(duel):
    battle = reported(duel, confirmed=True)
    scourge = duel["scourge"]
    return lambda actor: report_permissions.may_test_for(actor, battle, scourge) or _refuse()


def _move_their_warrior(duel):
    game = start_game(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[duel["reavers"].pk, duel["scourge"].pk],
    )  # fmt: skip
    captain = Fighter.objects.get(
        game__battle=game, warrior__warband=duel["scourge"], warrior__is_leader=True
    )
    return lambda actor: moves.set_state(game.pk, captain.pk, "stunned", actor=actor)


def _refuse():
    raise PermissionDenied("refused")


POWERS = {
    "enter their side": _enter_their_side,
    "confirm for everybody": _confirm_for_everybody,
    "correct a confirmed result": _correct_the_result,
    "declare their carried items without waiting": _declare_their_carried_items,
    "play their injuries": _play_their_injuries,
    "reopen their step": _reopen_their_step,
    "test their fortune marker": _test_their_marker,
    "move their warrior in the helper": _move_their_warrior,
}


@pytest.mark.parametrize("power", POWERS)
def test_an_organiser_who_fought_does_not_act_for_his_opponent(duel, fighting_organiser, power):
    """What an organiser does for a player he does in battles he did not fight: for his
    opponent he could choose what the opponent loses and he gains. A neutral organiser
    still may."""
    act = POWERS[power](duel)

    with pytest.raises(PermissionDenied), transaction.atomic():
        act(fighting_organiser)
    act(duel["organiser"])  # the neutral organiser: allowed


def test_an_organiser_who_fought_is_told_why_and_offered_nothing(client, duel, fighting_organiser):
    battle = every_side_entered(reported(duel))
    client.force_login(fighting_organiser)

    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    answer = client.post(reverse("battle_confirm_all", args=[battle.pk]))

    assert reverse("battle_confirm_all", args=[battle.pk]) not in page
    assert answer.status_code == 403
    assert "You fought in this battle" in answer.content.decode()
    battle.refresh_from_db()
    assert battle.status == "reported"


def test_an_organiser_acting_for_a_player_lets_the_server_roll(client, duel):
    """He never types what befell another player's warriors: a typed die is refused, the
    server's roll goes in the dice log under his name."""
    battle = battle_of(duel, champion_out=True)
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=1, void=False)
    url = reverse("sequence_task", args=[sequence.pk, task.pk])
    organiser = duel["organiser"]
    client.force_login(organiser)

    typed = client.post(url, {"step": 1, "dice": "1 1"}, headers=HTMX)

    assert "Dice for Reavers are typed by its own player" in typed.content.decode()
    assert not DiceRoll.objects.filter(battle=battle, rolled_by=organiser).exists()
    task.refresh_from_db()
    assert not task.done
    client.post(url, {"step": 1}, headers=HTMX)
    rolled = DiceRoll.objects.filter(battle=battle, rolled_by=organiser)
    assert rolled.exists()
    assert set(rolled.values_list("source", flat=True)) == {"server"}


def test_a_reopened_step_is_played_again_by_its_player_alone(duel):
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel), reavers), 3, reavers.owner)
    assert not sequences.may_act(duel["organiser"], sequence)  # a treasury step: never his

    sequences.reopen_step(sequence, 2, actor=duel["organiser"], reason="miscounted", seen=3)

    sequence.refresh_from_db()
    assert sequence.current_step == 2
    assert not sequences.may_act(duel["organiser"], sequence)
    assert sequences.may_act(reavers.owner, sequence)
    fresh = sequence_of(battle_of(duel), duel["scourge"])
    assert sequences.may_act(duel["organiser"], fresh)  # a step never undone: he may


def test_an_organiser_who_plays_never_sees_inside_other_warbands(client, duel, fighting_organiser):
    """ "Organiser sees secrets" is for a referee: an organiser with a warband in play is
    every other player's opponent."""
    campaign, scourge = duel["campaign"], duel["scourge"]
    campaign.organiser_sees_secrets = True
    campaign.save()
    hide_secrets(scourge)
    treasury_page = reverse("warband_treasury", args=[scourge.pk])

    client.force_login(fighting_organiser)
    assert client.get(treasury_page).status_code == 403
    roster = client.get(reverse("warband_roster", args=[scourge.pk])).content.decode()
    assert SECRET_ITEM not in roster
    client.force_login(duel["organiser"])
    assert SECRET_ITEM in client.get(treasury_page).content.decode()
