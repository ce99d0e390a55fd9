"""The battle helper's pages (battles.helper.views): the poll answers 204 while nothing
changed, moves through the page apply once and explain refusals, a page's queries do not grow
with the warbands, and nothing of a treasury reaches the opponent."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Battle, Fighter, Game
from battles.rules import play
from tests.factories import UserFactory, hide_secrets
from tests.helpers import game_of, without_tokens
from tests.secrets import contains_value

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def move(client, battle, **data):
    return client.post(reverse("play_move", args=[battle.pk]), data, headers=HTMX)


def captain_of(battle, warband) -> Fighter:
    return Fighter.objects.get(
        game__battle=battle, warrior__warband=warband, warrior__is_leader=True
    )


def test_the_poll_is_empty_until_the_game_changes(client, duel):
    battle = game_of(duel)
    client.force_login(duel["scourge"].owner)
    board = reverse("play_board", args=[battle.pk])
    version = Game.objects.get(battle=battle).version

    assert client.get(f"{board}?v={version}", headers=HTMX).status_code == 204
    client.force_login(duel["reavers"].owner)
    captain = captain_of(battle, duel["reavers"])
    assert (
        move(client, battle, action="state", fighter=captain.pk, state="stunned").status_code == 200
    )
    client.force_login(duel["scourge"].owner)
    answer = client.get(f"{board}?v={version}", headers=HTMX)
    assert answer.status_code == 200
    assert "Captain Adler: stunned." in answer.content.decode()
    assert client.get(f"{board}?v={version + 1}", headers=HTMX).status_code == 204


def test_the_page_polls_as_often_as_the_settings_say(client, duel, settings):
    """Once a second unless the operator sets ``BATTLE_HELPER_POLL_SECONDS`` (the browser tests
    set a quarter): the interval reaches htmx as written, never localised."""
    battle = game_of(duel)
    client.force_login(duel["scourge"].owner)
    page = reverse("play_page", args=[battle.pk])
    assert 'hx-trigger="every 1s"' in client.get(page).content.decode()
    settings.BATTLE_HELPER_POLL_SECONDS = 0.25
    assert 'hx-trigger="every 0.25s"' in client.get(page).content.decode()


def test_a_stranger_learns_nothing_of_the_game(client, duel, django_user_model):
    battle = game_of(duel)
    client.force_login(django_user_model.objects.create_user("nosy"))

    assert client.get(reverse("play_board", args=[battle.pk])).status_code == 404
    assert client.get(reverse("play_page", args=[battle.pk])).status_code == 404


def test_the_opponent_cannot_move_my_warriors_and_is_told_why(client, duel):
    battle = game_of(duel)
    captain = captain_of(battle, duel["reavers"])
    client.force_login(duel["scourge"].owner)

    answer = move(client, battle, action="state", fighter=captain.pk, state="stunned")
    assert answer.status_code == 422
    assert "Each player moves his own warriors" in answer.content.decode()
    assert Fighter.objects.get(pk=captain.pk).state == play.STANDING


def test_a_refusal_in_the_panel_comes_back_to_the_panel(client, duel):
    battle = game_of(duel)
    captain = captain_of(battle, duel["reavers"])
    client.force_login(duel["reavers"].owner)

    answer = move(client, battle, action="test", fighter=captain.pk, test="jump_down", height=9,
                  dice="1", panel="1")  # fmt: skip
    assert answer.status_code == 422
    assert answer["HX-Retarget"] == "#panel"
    said = 'data-testid="panel-error">A warrior jumps down 6&quot; at most.'
    assert said in answer.content.decode()


def test_a_typed_die_too_many_changes_nothing(client, duel):
    battle = game_of(duel)
    captain = captain_of(battle, duel["reavers"])
    client.force_login(duel["reavers"].owner)
    moves_before = battle.dice_rolls.count()

    answer = move(client, battle, action="test", fighter=captain.pk, test="climb_up", height=3,
                  dice="2 3")  # fmt: skip
    assert answer.status_code == 422
    assert "left over" in answer.content.decode()
    assert battle.dice_rolls.count() == moves_before


def test_a_climb_higher_than_his_move_is_refused_and_rolls_nothing(client, duel):
    """Core rules, climbing: a height more than the model's Move cannot be climbed (the
    captain's Move is 4)."""
    battle = game_of(duel)
    captain = captain_of(battle, duel["reavers"])
    client.force_login(duel["reavers"].owner)

    answer = move(client, battle, action="test", fighter=captain.pk, test="climb_up", height=5)
    assert answer.status_code == 422
    assert "no higher than his Move (4" in answer.content.decode()
    assert battle.dice_rolls.count() == 0
    answer = move(client, battle, action="test", fighter=captain.pk, test="climb_up", height=4)
    assert answer.status_code == 200 and battle.dice_rolls.count() == 1


@pytest.mark.parametrize(("list_key", "reach"), [("reikland", 12), ("middenheim", 6)])
def test_the_rally_panel_gives_the_reach_of_the_leaders_leadership(client, duel, list_key, reach):
    """The Leader rule: 6"; a Reikland captain's Leadership reaches 12"."""
    WarbandType = duel["reavers"].warband_type._meta.model
    middenheim = WarbandType.objects.get(key=list_key)
    captain_type = middenheim.warrior_types.get(key="mercenary_captain")
    reavers = duel["reavers"]
    type(reavers).objects.filter(pk=reavers.pk).update(warband_type=middenheim)
    reavers.warriors.filter(is_leader=True).update(warrior_type=captain_type)
    battle = game_of(duel)
    champion = Fighter.objects.get(game__battle=battle, warrior__name="Brandt", side__position=0)
    client.force_login(reavers.owner)
    move(client, battle, action="state", fighter=champion.pk, state="fleeing")

    panel = client.get(reverse("play_panel", args=[battle.pk, champion.pk]), headers=HTMX)
    assert f"Within {reach}&quot; of his standing leader" in panel.content.decode()


def test_the_same_form_sent_twice_applies_once(client, duel):
    battle = game_of(duel)
    captain = captain_of(battle, duel["reavers"])
    client.force_login(duel["reavers"].owner)
    data = {"action": "test", "fighter": captain.pk, "test": "climb_up", "height": 3, "dice": "2",
            "form_token": "5b1c8e0e-7d0a-4c55-9a55-8a2b1c3d4e5f"}  # fmt: skip

    assert move(client, battle, **data).status_code == 200
    assert move(client, battle, **data).status_code == 200
    assert battle.dice_rolls.count() == 1


def test_the_game_ends_into_the_battle_page(client, duel):
    battle = game_of(duel)
    client.force_login(duel["scourge"].owner)

    answer = move(client, battle, action="end", winner=str(duel["scourge"].pk))
    # said once above the log, by the line that links to the report (no note repeating it)
    board, log = answer.content.decode().split('id="play-log"')
    assert board.count("The game is over") == 1 and "The game is over" in log
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert "Played with the battle helper" in page
    side = client.get(reverse("battle_side", args=[battle.pk, duel["scourge"].pk]))
    assert side.status_code == 200


def queries(client, path, method="GET", data=None) -> int:
    with CaptureQueriesContext(connection) as captured:
        if method == "GET":
            client.get(path, headers=HTMX)
        else:
            client.post(path, data, headers=HTMX)
    return sum(q["sql"] not in ("BEGIN", "COMMIT") for q in captured)


def costs(client, battle, warband) -> dict[str, int]:
    client.force_login(warband.owner)
    captain = captain_of(battle, warband)
    version = Game.objects.get(battle=battle).version
    page = reverse("play_page", args=[battle.pk])
    client.get(page)
    return {
        "page": queries(client, page),
        "board": queries(client, reverse("play_board", args=[battle.pk]) + "?v=0"),
        "poll": queries(client, reverse("play_board", args=[battle.pk]) + f"?v={version}"),
        "panel": queries(client, reverse("play_panel", args=[battle.pk, captain.pk])),
        "move": queries(
            client,
            reverse("play_move", args=[battle.pk]),
            "POST",
            {"action": "mark", "fighter": captain.pk, "deed": "ran", "doing": "1"},
        ),
    }


def test_the_pages_cost_the_same_whatever_the_size_of_the_warbands(client, duel):
    small = costs(client, game_of(duel), duel["reavers"])
    for warband in (duel["reavers"], duel["scourge"]):
        for name, models in (("More", 5), ("Bows", 4), ("Dogs", 2)):
            group = warband.warriors.get(name="Stadtwache")
            group.pk, group.name, group.group_size = None, name, models
            group.save()
    bigger = costs(client, game_of(duel), duel["reavers"])

    assert bigger == small
    assert small["poll"] == 3  # the session, the user, the version
    assert small["page"] <= 15, small


def test_the_page_with_a_warriors_panel_open_reads_the_game_once(client, duel):
    """The whole page (a panel's link opened without htmx) draws its board and finds the
    warrior's panel on that same board: the game's log is read once, as on the page alone."""
    battle = game_of(duel)
    client.force_login(duel["reavers"].owner)
    captain = captain_of(battle, duel["reavers"])
    read = {}
    for name, path in (
        ("page", reverse("play_page", args=[battle.pk])),
        ("panel", reverse("play_panel", args=[battle.pk, captain.pk])),
    ):
        with CaptureQueriesContext(connection) as captured:
            answer = client.get(path)
        assert answer.status_code == 200
        read[name] = sum('FROM "battles_gameevent"' in q["sql"] for q in captured)
    assert 'data-testid="panel"' in answer.content.decode()  # open, on the whole page
    assert read == {"page": 1, "panel": 1}


def test_nothing_of_a_treasury_reaches_the_opponent(client, duel):
    secrets = hide_secrets(duel["reavers"])
    battle = game_of(duel)
    client.force_login(duel["scourge"].owner)

    for path in (reverse("play_page", args=[battle.pk]), reverse("play_board", args=[battle.pk])):
        text = client.get(path).content.decode()
        for secret in secrets:
            assert not contains_value(text, secret)


def test_the_poll_answers_a_stranger_as_for_a_game_that_does_not_exist(client, duel):
    """At the version the game is at, too: a 204 would tell him that the game exists."""
    battle = game_of(duel)
    version = Game.objects.get(battle=battle).version
    client.force_login(UserFactory(username="nosy"))

    answers = [
        client.get(reverse("play_board", args=[pk]) + f"?v={version}", headers=HTMX)
        for pk in (battle.pk, 2_000_000_000)
    ]

    assert [a.status_code for a in answers] == [404, 404]
    assert without_tokens(answers[0].content) == without_tokens(answers[1].content)
