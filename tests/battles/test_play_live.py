"""The battle helper's page sends only what changed (battles.helper.delta): a poll after a tap
carries that warrior's row and the new line of the log, not the board; a page two changes
behind gets every row they changed; a phase moving on redraws the turn and the rows the phase
changes for those who move them; a new turn, or a page too far behind, gets the whole board;
an undo comes back as the row put back; the tapping phone's own answer is its row, its Undo
and the line; a refusal comes back in the row and changes nothing; and a tap and a poll cost
a fixed handful of queries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.helper import moves
from battles.helper.common import KEPT_CHANGES
from battles.models import Fighter, Game
from battles.rules import play
from tests.factories import UserFactory, hide_secrets
from tests.helpers import game_of
from tests.secrets import contains_value

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def fighters(battle, warband) -> list[Fighter]:
    """Captain, champion, Stadtwache #1, #2, #3."""
    return list(
        Fighter.objects.filter(game__battle=battle, side__participant__warband=warband).order_by(
            "-warrior__is_leader", "-warrior__is_hero", "number"
        )
    )


def version(battle) -> int:
    return Game.objects.get(battle=battle).version


def poll(client, battle, seen: int):
    return client.get(reverse("play_board", args=[battle.pk]) + f"?v={seen}", headers=HTMX)


def move(client, battle, **data):
    return client.post(reverse("play_move", args=[battle.pk]), data, headers=HTMX)


def rows(answer) -> set[int]:
    """The warriors whose rows the answer redraws."""
    return {
        int(pk) for pk in re.findall(r'<li class="fighter[^"]*" id="fighter-(\d+)"', text(answer))
    }


def lines(answer) -> list[str]:
    """The lines of the log the answer sends, newest first."""
    return re.findall(r'<li><small class="muted">T\d+</small> ([^<]*)</li>', text(answer))


def text(answer) -> str:
    return answer.content.decode()


def test_a_poll_after_one_tap_sends_that_row_and_the_new_line_not_the_board(client, duel):
    battle = game_of(duel)
    adler, brandt, *_ = fighters(battle, duel["reavers"])
    seen = version(battle)
    moves.set_state(battle.pk, adler.pk, play.KNOCKED_DOWN, actor=duel["reavers"].owner)
    client.force_login(duel["scourge"].owner)

    answer = poll(client, battle, seen)

    assert answer.status_code == 200
    assert rows(answer) == {adler.pk}
    assert 'id="board"' not in text(answer)
    assert lines(answer) == ["Captain Adler: knocked down."]
    assert 'hx-swap-oob="afterbegin:#play-log"' in text(answer)
    assert f"?v={seen + 1}" in text(answer)  # the page's next poll asks from the new version
    assert "<button" not in text(answer)  # the opponent moves none of the Reavers
    assert poll(client, battle, seen + 1).status_code == 204
    assert f'id="fighter-{brandt.pk}"' not in text(answer)


def test_a_page_two_changes_behind_gets_every_row_they_changed(client, duel):
    battle = game_of(duel)
    adler, brandt, first, *_ = fighters(battle, duel["reavers"])
    owner = duel["reavers"].owner
    seen = version(battle)
    moves.set_state(battle.pk, adler.pk, play.STUNNED, actor=owner)
    moves.mark(battle.pk, brandt.pk, "ran", actor=owner)
    client.force_login(owner)  # his other phone

    answer = poll(client, battle, seen)

    assert rows(answer) == {adler.pk, brandt.pk}
    assert lines(answer) == ["Brandt ran.", "Captain Adler: stunned."]
    assert f'id="fighter-{first.pk}"' not in text(answer)
    assert 'data-testid="undo"' in text(answer)  # his own latest change, to undo
    assert 'id="side-status-' in text(answer)  # stunned: the Rout test's Leadership may change


def test_a_sides_count_and_its_rout_test_come_with_the_change_that_makes_them(client, duel):
    """Two of the Reavers' five out of action in their own turn: a quarter, the Rout test is
    due; the opponent's page gets the count and the prompt, not the other rows."""
    battle = game_of(duel)
    _, brandt, first, *_ = fighters(battle, duel["reavers"])
    owner = duel["reavers"].owner
    moves.set_state(battle.pk, first.pk, play.OUT_OF_ACTION, actor=owner, cause="other")
    seen = version(battle)
    moves.set_state(battle.pk, brandt.pk, play.OUT_OF_ACTION, actor=owner, cause="other")
    client.force_login(duel["scourge"].owner)

    answer = poll(client, battle, seen)

    assert rows(answer) == {brandt.pk}
    assert re.search(r'data-testid="out-count">2 of 5<', text(answer))
    assert f'data-testid="rout-{duel["reavers"].pk}"' in text(answer)
    assert "must take a Rout test" in text(answer)
    assert 'data-testid="rout-test"' not in text(answer)  # the Reavers' player takes it


def test_a_phase_redraws_the_turn_and_the_rows_it_changes_for_those_who_move_them(client, duel):
    """A fleeing warrior rallies in his recovery phase only: the phase changes his row (for
    his player), not the others'."""
    battle = game_of(duel)
    _, brandt, *_ = fighters(battle, duel["reavers"])
    owner = duel["reavers"].owner
    moves.set_state(battle.pk, brandt.pk, play.FLEEING, actor=owner)
    seen = version(battle)
    client.force_login(owner)
    assert "Rally…" in text(client.get(reverse("play_page", args=[battle.pk])))

    moves.next_phase(battle.pk, actor=owner)
    mine = poll(client, battle, seen)
    client.force_login(duel["scourge"].owner)
    theirs = poll(client, battle, seen)

    for answer in (mine, theirs):
        assert 'id="play-turn"' in text(answer)
        assert 'aria-current="step" data-testid="phase">Movement' in text(answer)
        assert 'id="board"' not in text(answer)
    assert rows(mine) == {brandt.pk}
    assert "Rally…" not in text(mine)
    assert rows(theirs) == set()


def test_a_new_turn_and_a_page_too_far_behind_get_the_whole_board(client, duel):
    battle = game_of(duel)
    captain, *_ = fighters(battle, duel["scourge"])
    client.force_login(duel["scourge"].owner)
    seen = version(battle)
    for _ in play.PHASE_ORDER:  # the turn ends: every row's buttons may change
        moves.next_phase(battle.pk, actor=duel["reavers"].owner)

    answer = poll(client, battle, version(battle) - 1)
    assert '<div id="board" hx-swap-oob="true">' in text(answer)

    behind = version(battle)
    for n in range(KEPT_CHANGES + 1):
        moves.mark(battle.pk, captain.pk, "ran", doing=n % 2 == 0, actor=duel["scourge"].owner)
    assert '<div id="board" hx-swap-oob="true">' in text(poll(client, battle, behind))
    assert '<div id="board" hx-swap-oob="true">' in text(poll(client, battle, seen))
    assert rows(poll(client, battle, behind + 1)) == {captain.pk}  # the changes kept


def test_an_undo_comes_back_as_the_row_put_back(client, duel):
    battle = game_of(duel)
    adler, *_ = fighters(battle, duel["reavers"])
    owner = duel["reavers"].owner
    client.force_login(owner)
    tapped = move(client, battle, action="state", fighter=adler.pk, state="stunned",
                  shown=version(battle))  # fmt: skip
    assert rows(tapped) == {adler.pk}
    undo = re.search(r'name="event" value="(\d+)"', text(tapped)).group(1)
    seen = version(battle)

    undone = move(client, battle, action="undo", event=undo, shown=seen)
    client.force_login(duel["scourge"].owner)
    answer = poll(client, battle, seen)

    for shown in (undone, answer):
        assert rows(shown) == {adler.pk}
        assert "Undone: Captain Adler: stunned." in text(shown)
        assert re.search(r'data-testid="state">Standing<', text(shown))
    assert 'data-testid="undo"' not in text(undone)  # nothing of his left to undo


def test_the_tapping_phones_answer_is_its_row_its_undo_and_the_line(client, duel):
    battle = game_of(duel)
    adler, brandt, *_ = fighters(battle, duel["reavers"])
    client.force_login(duel["reavers"].owner)
    seen = version(battle)

    answer = move(client, battle, action="mark", fighter=adler.pk, deed="ran", doing="1",
                  shown=seen)  # fmt: skip

    assert answer.status_code == 200
    assert rows(answer) == {adler.pk}
    assert 'id="board"' not in text(answer)
    assert 'data-testid="note">Captain Adler: noted.' in text(answer)
    assert "Undo “Captain Adler ran.”" in text(answer)
    assert f"?v={seen + 1}" in text(answer)
    # A page that had missed a change keeps its version: its next poll brings both.
    moves.mark(battle.pk, brandt.pk, "ran", actor=duel["reavers"].owner)
    behind = move(client, battle, action="mark", fighter=adler.pk, deed="charged", doing="1",
                  shown=seen + 1)  # fmt: skip
    assert rows(behind) == {adler.pk}
    assert 'id="play-poll"' not in text(behind)
    assert lines(behind) == []  # the poll brings them, each once
    caught_up = poll(client, battle, seen + 1)
    assert rows(caught_up) == {adler.pk, brandt.pk}
    assert lines(caught_up) == ["Captain Adler charged.", "Brandt ran."]


def test_an_organiser_who_does_not_play_gets_the_rows_he_moves(client, duel):
    """He moves every side's warriors: the changed row comes with its buttons, to him."""
    battle = game_of(duel)
    adler, *_ = fighters(battle, duel["reavers"])
    seen = version(battle)
    moves.set_state(battle.pk, adler.pk, play.KNOCKED_DOWN, actor=duel["reavers"].owner)
    client.force_login(duel["organiser"])

    answer = poll(client, battle, seen)
    tapped = move(client, battle, action="state", fighter=adler.pk, state="stunned",
                  shown=seen + 1)  # fmt: skip

    assert rows(answer) == {adler.pk}
    assert 'data-testid="tap-stunned"' in text(answer)
    assert tapped.status_code == 200
    assert rows(tapped) == {adler.pk}
    assert re.search(r'data-testid="state">Stunned<', text(tapped))
    assert 'data-testid="undo"' in text(tapped)


def test_a_refusal_comes_back_in_the_row_and_changes_nothing(client, duel):
    battle = game_of(duel)
    adler, *_ = fighters(battle, duel["reavers"])
    client.force_login(duel["reavers"].owner)
    seen = version(battle)

    answer = move(client, battle, action="state", fighter=adler.pk, state="standing",
                  shown=seen)  # fmt: skip

    assert answer.status_code == 422
    assert rows(answer) == {adler.pk}
    assert re.search(r'role="alert">Captain Adler is already standing', text(answer))
    assert 'id="play-poll"' not in text(answer)
    assert version(battle) == seen


def test_a_strangers_move_is_answered_as_for_a_game_that_does_not_exist(client, duel):
    battle = game_of(duel)
    adler, *_ = fighters(battle, duel["reavers"])
    client.force_login(UserFactory(username="nosy"))

    answer = move(client, battle, action="state", fighter=adler.pk, state="stunned")

    assert answer.status_code == 404
    assert Fighter.objects.get(pk=adler.pk).state == play.STANDING


def test_nothing_of_a_treasury_reaches_the_opponent_in_what_changed(client, duel):
    secrets = hide_secrets(duel["reavers"])
    battle = game_of(duel)
    adler, *_ = fighters(battle, duel["reavers"])
    seen = version(battle)
    moves.pick_up(battle.pk, adler.pk, loot="gold", amount=3, actor=duel["reavers"].owner)
    moves.set_state(battle.pk, adler.pk, play.OUT_OF_ACTION, actor=duel["reavers"].owner,
                    cause="other")  # fmt: skip
    client.force_login(duel["scourge"].owner)

    answer = text(poll(client, battle, seen))

    assert "picked up 3 gold crowns" in answer  # loot picked up on the table is public
    for secret in secrets:
        assert not contains_value(answer, secret)


def statements(client, method: str, path: str, data=None) -> int:
    with CaptureQueriesContext(connection) as captured:
        answer = getattr(client, method)(path, data, headers=HTMX)
    assert answer.status_code in (200, 204), answer.content[:300]
    return sum(q["sql"] not in ("BEGIN", "COMMIT") for q in captured)


def test_a_tap_and_a_poll_cost_a_fixed_handful_of_queries(client, duel):
    """The tap: the session, the user, the move's savepoint, the game locked (for members
    only), the warrior locked, his row, the log's line, the game's version, and nothing read
    back to answer. The poll after it: the session, the user, the game (its version, its
    changes and the user's membership), the new lines, the changed warrior."""
    battle = game_of(duel)
    adler, *_ = fighters(battle, duel["reavers"])
    board = reverse("play_board", args=[battle.pk])
    client.force_login(duel["reavers"].owner)
    client.get(reverse("play_page", args=[battle.pk]))
    seen = version(battle)

    tap = statements(client, "post", reverse("play_move", args=[battle.pk]),
                     {"action": "mark", "fighter": adler.pk, "deed": "ran", "doing": "1",
                      "shown": seen})  # fmt: skip
    client.force_login(duel["scourge"].owner)
    changed = statements(client, "get", f"{board}?v={seen}")
    idle = statements(client, "get", f"{board}?v={seen + 1}")

    assert (tap, changed, idle) == (9, 5, 3)
