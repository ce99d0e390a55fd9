"""After a game played with the battle helper, each player saves his side as the helper wrote
it and confirms the battle in one post (``services.confirm_side_as_recorded``); a side the
helper did not write, one entered or changed since, and anybody else's press are refused."""

import re

import pytest
from django.urls import reverse

from battles.helper import end, moves, start
from battles.models import Battle, Fighter, Participant
from battles.report import services, sides
from battles.rules import ReportedResult, play
from tests.factories import change_secrets, hide_secrets
from tests.helpers import side_as_played, warriors
from tests.secrets import assert_unchanged_by_secrets

pytestmark = pytest.mark.django_db


def played(duel):
    """A game the helper followed to its end: one Reaver henchman taken out by the Scourge's
    leader; the Reavers won."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = start.start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    henchman = Fighter.objects.filter(
        game__battle=battle, side__participant__warband=reavers, warrior__is_hero=False
    ).first()
    moves.set_state(battle.pk, henchman.pk, play.OUT_OF_ACTION, actor=reavers.owner,
                    cause="enemy", by_id=warriors(scourge)[0].pk)  # fmt: skip
    end.end_game(battle.pk, actor=reavers.owner, winner_id=reavers.pk)
    return Battle.objects.get(pk=battle.pk)


def offered_version(client, battle, warband) -> str:
    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    form = re.search(
        rf'<form[^>]*action="{reverse("battle_side_as_recorded", args=[battle.pk, warband.pk])}"'
        r".*?</form>",
        page,
        re.S,
    )
    assert form, "the one-press confirmation is not offered"
    assert "Confirm my side as the helper recorded it" in form.group(0)
    assert "Change my side first" in page
    return re.search(r'name="version" value="([0-9a-f]+)"', form.group(0)).group(1)


def press(client, battle, warband, version, **htmx):
    url = reverse("battle_side_as_recorded", args=[battle.pk, warband.pk])
    return client.post(url, {"version": version}, **htmx)


HTMX = {"HTTP_HX_REQUEST": "true"}


def participant(battle, warband) -> Participant:
    return Participant.objects.get(battle=battle, warband=warband)


def test_each_player_confirms_his_side_with_one_press_and_the_battle_counts(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = played(duel)
    taken_out = participant(battle, reavers).outcomes.filter(models_out_of_action=1).count()

    client.force_login(reavers.owner)
    assert (
        press(client, battle, reavers, offered_version(client, battle, reavers)).status_code == 302
    )

    mine = participant(battle, reavers)
    assert mine.side_entered_at is not None and mine.side_entered_by == reavers.owner
    assert mine.confirmation == Participant.Confirmation.CONFIRMED
    assert mine.outcomes.filter(models_out_of_action=1).count() == taken_out == 1
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED

    client.force_login(scourge.owner)
    assert (
        press(client, battle, scourge, offered_version(client, battle, scourge)).status_code == 302
    )

    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED
    assert participant(battle, reavers).confirmation == Participant.Confirmation.CONFIRMED


def test_the_opponent_a_stranger_and_a_second_tab_are_refused(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = played(duel)
    mine = participant(battle, reavers)
    version = sides.side_version(mine, list(mine.outcomes.all()))

    client.force_login(scourge.owner)
    assert press(client, battle, reavers, version).status_code == 403
    client.force_login(duel["bystander"])
    assert press(client, battle, reavers, version).status_code in (403, 404)
    assert participant(battle, reavers).side_entered_at is None

    client.force_login(reavers.owner)
    stale = press(client, battle, reavers, "0" * 16, **HTMX)
    assert stale.status_code == 422
    assert "changed since you opened the page" in stale.content.decode()
    assert participant(battle, reavers).side_entered_at is None

    assert press(client, battle, reavers, version).status_code == 302
    again = press(client, battle, reavers, version, **HTMX)  # the same press from a second tab
    assert again.status_code == 422
    assert "was entered since" in again.content.decode()


def test_a_side_the_helper_did_not_write_is_refused(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="Skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip
    with pytest.raises(services.RuleViolation, match="did not record"):
        services.confirm_side_as_recorded(battle, scourge, actor=scourge.owner, version="x")


def test_an_organiser_saves_an_absent_players_side_without_confirming_for_him(client, duel):
    reavers = duel["reavers"]
    battle = played(duel)
    client.force_login(duel["organiser"])
    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert "Enter it as the helper recorded it" in page
    version = re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)

    assert press(client, battle, reavers, version).status_code == 302

    side = participant(battle, reavers)
    assert side.side_entered_by == duel["organiser"]
    assert side.confirmation == Participant.Confirmation.PENDING


def test_the_opponents_board_with_the_one_press_tells_nothing_of_the_treasury(client, duel):
    reavers = duel["reavers"]
    battle = played(duel)
    hide_secrets(reavers)
    client.force_login(duel["scourge"].owner)
    url = reverse("battle_detail", args=[battle.pk])

    assert "Confirm my side as the helper recorded it" in client.get(url).content.decode()
    assert_unchanged_by_secrets(
        lambda: client.get(url).content.decode(), lambda: change_secrets(reavers)
    )


def test_a_side_changed_from_the_helpers_asks_the_others_again_an_unchanged_one_does_not(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    for changed in (False, True):
        battle = played(duel)
        mine = participant(battle, reavers)
        services.confirm_side_as_recorded(
            battle, reavers, actor=reavers.owner,
            version=sides.side_version(mine, list(mine.outcomes.all())),
        )  # fmt: skip
        if changed:
            other = [sides.Outcome(warriors(scourge)[0].pk, enemies_out_of_action=3)]
            sides.enter_side(battle, scourge, actor=scourge.owner, outcomes=other)
        else:
            side_as_played(battle, scourge)
        expected = "pending" if changed else "confirmed"
        assert participant(battle, reavers).confirmation == expected, changed
