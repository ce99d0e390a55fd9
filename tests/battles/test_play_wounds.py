"""Wounds in the battle helper (core rules, wounds and injuries): a model of several Wounds
loses one a wound and fights on; the wound that leaves him none, and each after it, rolls on
the injury chart (1-2 knocked down, 3-4 stunned, 5-6 out of action), the worst result
applying. His row shows the wounds he has left, on both phones."""

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.helper import moves, wounds
from battles.models import DiceRoll, Fighter, Game, GameEvent
from battles.rules import play
from core.errors import RuleViolation
from tests.helpers import game_of, warriors
from warbands.models import Warrior

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def three_wound_captain(duel):
    """Captain Adler with an extra wound or two (W 3), as a hero's advances may give."""
    captain = warriors(duel["reavers"])[0]
    Warrior.objects.filter(pk=captain.pk).update(W=3)
    return captain


def fighter(battle, warrior, number=1) -> Fighter:
    return Fighter.objects.get(game__battle=battle, warrior=warrior, number=number)


def log_lines(battle) -> list[str]:
    return list(GameEvent.objects.filter(game__battle=battle).order_by("pk")
                .values_list("text", flat=True))[1:]  # fmt: skip


def test_a_model_of_three_wounds_loses_them_one_at_a_time_then_rolls_for_injury(duel):
    captain = three_wound_captain(duel)
    battle = game_of(duel)
    reavers = duel["reavers"].owner
    adler = fighter(battle, captain)
    enemy = warriors(duel["scourge"])[0]

    wounds.wound(battle.pk, adler.pk, actor=reavers)
    wounds.wound(battle.pk, adler.pk, actor=reavers)
    adler.refresh_from_db()
    assert (adler.state, adler.wounds_lost, adler.wounds_left) == (play.STANDING, 2, 1)
    assert not DiceRoll.objects.filter(battle=battle).exists()  # nothing rolled yet

    wounds.wound(battle.pk, adler.pk, entered="4", actor=reavers, cause="enemy", by_id=enemy.pk)
    adler.refresh_from_db()
    assert (adler.state, adler.wounds_left) == (play.STUNNED, 0)
    wounds.wound(battle.pk, adler.pk, entered="1", actor=reavers, cause="enemy", by_id=enemy.pk)
    assert fighter(battle, captain).state == play.STUNNED  # the worst result stands
    wounds.wound(battle.pk, adler.pk, entered="5", actor=reavers, cause="enemy", by_id=enemy.pk)

    adler.refresh_from_db()
    assert (adler.state, adler.cause, adler.taken_out_by_id) == (play.OUT_OF_ACTION, "enemy",
                                                                 enemy.pk)  # fmt: skip
    assert log_lines(battle) == [
        "Captain Adler loses a wound: 2 of 3 left.",
        "Captain Adler loses a wound: 1 of 3 left.",
        "Captain Adler loses his last wound: injury roll 4, stunned.",
        "Captain Adler, wounded with no wounds left: injury roll 1, stays stunned.",
        f"Captain Adler, wounded with no wounds left: injury roll 5, out of action, taken out "
        f"by {enemy.name} of Scourge.",
    ]
    rolls = list(
        DiceRoll.objects.filter(battle=battle).order_by("pk").values_list("purpose", "faces")
    )
    assert rolls == [("Injury: Captain Adler", [4]), ("Injury: Captain Adler", [1]),
                     ("Injury: Captain Adler", [5])]  # fmt: skip
    with pytest.raises(RuleViolation, match="out of action"):
        wounds.wound(battle.pk, adler.pk, entered="3", actor=reavers)


@pytest.mark.parametrize(
    ("face", "state"),
    [(1, play.KNOCKED_DOWN), (2, play.KNOCKED_DOWN), (3, play.STUNNED), (4, play.STUNNED),
     (5, play.OUT_OF_ACTION), (6, play.OUT_OF_ACTION)],
)  # fmt: skip
def test_a_model_of_one_wound_rolls_on_the_injury_chart_at_once(duel, face, state):
    battle = game_of(duel)
    guard = fighter(battle, warriors(duel["reavers"])[2], number=2)

    wounds.wound(battle.pk, guard.pk, entered=str(face), actor=duel["reavers"].owner,
                 cause="other")  # fmt: skip

    guard.refresh_from_db()
    assert (guard.state, guard.wounds_lost) == (state, 1)
    assert guard.cause == ("other" if state == play.OUT_OF_ACTION else "")


def test_the_injury_roll_asks_first_what_would_have_taken_him_out(duel):
    battle = game_of(duel)
    guard = fighter(battle, warriors(duel["reavers"])[2])
    with pytest.raises(RuleViolation, match="what wounded"):
        wounds.wound(battle.pk, guard.pk, entered="6", actor=duel["reavers"].owner)
    assert not DiceRoll.objects.filter(battle=battle).exists()


def test_a_wound_lost_is_undone_and_only_its_player_wounds_him(duel):
    captain = three_wound_captain(duel)
    battle = game_of(duel)
    adler = fighter(battle, captain)
    with pytest.raises(PermissionDenied):
        wounds.wound(battle.pk, adler.pk, actor=duel["scourge"].owner)
    wounds.wound(battle.pk, adler.pk, actor=duel["reavers"].owner)
    event = GameEvent.objects.filter(game__battle=battle, fighter=adler).latest("pk")

    moves.undo(battle.pk, event.pk, actor=duel["reavers"].owner)

    assert fighter(battle, captain).wounds_left == 3


def test_the_other_phone_sees_the_wounds_left_and_a_wound_costs_few_queries(client, duel):
    captain = three_wound_captain(duel)
    battle = game_of(duel)
    adler = fighter(battle, captain)
    client.force_login(duel["reavers"].owner)
    page = client.get(reverse("play_page", args=[battle.pk])).content.decode()
    assert re.search(rf'id="fighter-{adler.pk}".*?data-testid="wounds">3 of 3 wounds left', page,
                     re.S)  # fmt: skip
    assert 'data-testid="tap-wound"' in page
    seen = Game.objects.get(battle=battle).version

    with CaptureQueriesContext(connection) as captured:
        tapped = client.post(reverse("play_move", args=[battle.pk]), {
            "action": "wound", "fighter": adler.pk, "shown": seen}, headers=HTMX)  # fmt: skip
    client.force_login(duel["scourge"].owner)
    polled = client.get(reverse("play_board", args=[battle.pk]) + f"?v={seen}", headers=HTMX)

    assert tapped.status_code == 200
    assert sum(q["sql"] not in ("BEGIN", "COMMIT") for q in captured) <= 10
    for answer in (tapped, polled):
        shown = answer.content.decode()
        assert 'id="board"' not in shown
        assert 'data-testid="wounds">2 of 3 wounds left' in shown
        assert "Captain Adler loses a wound: 2 of 3 left." in shown
    assert 'data-testid="tap-wound"' not in polled.content.decode()  # not his to tap
