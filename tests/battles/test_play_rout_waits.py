"""While the side whose turn it is owes a Rout test, its Next phase is drawn disabled with the
reason beside it (the server refuses it too); once the test is taken, the button is back."""

import re

import pytest
from django.urls import reverse

from battles.helper import moves, rout
from battles.models import Fighter, Game
from battles.rules import play
from tests.helpers import game_of, warriors

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
ENABLED = 'data-testid="next-phase"'
WAITING = re.compile(
    r'<button type="button" disabled[^>]*data-testid="next-phase-waiting">Next phase</button>'
    r' <span[^>]*data-testid="next-phase-why">Reavers takes its Rout test first \(or routs\)\.'
)


def quarter_out(battle, duel) -> int:
    """Two of the Reavers' five out of action as their first turn begins: a test is due."""
    by = warriors(duel["scourge"])[0].pk
    theirs = list(Fighter.objects.filter(game__battle=battle, side__position=0))
    for target in theirs[:2]:
        moves.set_state(battle.pk, target.pk, play.OUT_OF_ACTION, actor=duel["reavers"].owner,
                        cause="enemy", by_id=by)  # fmt: skip
    return theirs[0].side_id


def page(client, battle) -> str:
    return client.get(reverse("play_page", args=[battle.pk])).content.decode()


def test_next_phase_waits_for_the_rout_test_and_comes_back_after_it(client, duel):
    battle = game_of(duel)
    owner = duel["reavers"].owner
    client.force_login(owner)
    assert ENABLED in page(client, battle)
    side = quarter_out(battle, duel)

    drawn = page(client, battle)
    assert ENABLED not in drawn and WAITING.search(drawn)
    refused = client.post(
        reverse("play_move", args=[battle.pk]), {"action": "next_phase"}, headers=HTMX
    )
    assert refused.status_code == 422  # the server holds it too

    rout.take_rout_test(battle.pk, side, entered="1 1", actor=owner)  # 2: passed

    drawn = page(client, battle)
    assert ENABLED in drawn and not WAITING.search(drawn)


def test_the_tap_that_makes_the_test_due_redraws_the_turn_and_the_test_brings_it_back(client, duel):
    battle = game_of(duel)
    owner = duel["reavers"].owner
    first, second = Fighter.objects.filter(game__battle=battle, side__position=0)[:2]
    moves.set_state(battle.pk, first.pk, play.OUT_OF_ACTION, actor=owner, cause="other")
    client.force_login(owner)
    move = reverse("play_move", args=[battle.pk])
    shown = Game.objects.get(battle=battle).version

    tapped = client.post(
        move,
        {"action": "state", "fighter": second.pk, "state": play.OUT_OF_ACTION, "cause": "other",
         "shown": shown},
        headers=HTMX,
    ).content.decode()  # fmt: skip
    assert ENABLED not in tapped and WAITING.search(tapped)

    tested = client.post(
        move, {"action": "rout_test", "side": first.side_id, "dice": "1 1"}, headers=HTMX
    ).content.decode()
    assert ENABLED in tested and not WAITING.search(tested)
