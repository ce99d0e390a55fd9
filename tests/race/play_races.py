"""The races of the battle helper (``battles.play``): a Rout test rolled once, a phase moved
on once, whoever presses (``tests.race.harness``)."""

from __future__ import annotations

from django.urls import reverse

from battles.models import Fighter, Game, GameSide
from battles.play import moves, start
from battles.rules import play
from tests.helpers import mustered_duel
from tests.race.harness import Shot, race

NOT_RACED = {
    "play_start": "each post starts a game of its own; moves no treasure",
    "play_page": "a page",
    "play_board": "a page",
    "play_panel": "a page",
}


def game_of(duel):
    return start.start_game(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[duel["reavers"].pk, duel["scourge"].pk],
    )  # fmt: skip


@race("play_move", "the Rout test is rolled once however often it is sent")
def rout_test():
    duel = mustered_duel()
    battle = game_of(duel)
    scourge = GameSide.objects.get(game__battle=battle, position=1)
    for fighter in Fighter.objects.filter(side=scourge)[:2]:
        moves.set_state(battle.pk, fighter.pk, play.OUT_OF_ACTION, actor=duel["scourge"].owner,
                        cause="other")  # fmt: skip
    for _ in play.PHASE_ORDER:
        moves.next_phase(battle.pk, actor=duel["reavers"].owner)
    return Shot(
        duel["scourge"].owner,
        reverse("play_move", args=[battle.pk]),
        {"action": "rout_test", "side": scourge.pk, "dice": "2 2"},
        applied=lambda: battle.dice_rolls.count(),
    )


@race("play_move:next_phase", "two tabs pressing Next phase move the game on once")
def next_phase():
    duel = mustered_duel()
    battle = game_of(duel)
    return Shot(
        duel["reavers"].owner,
        reverse("play_move", args=[battle.pk]),
        {"action": "next_phase", "seen": "1:0:recovery"},
        applied=lambda: play.PHASE_ORDER.index(Game.objects.get(battle=battle).phase),
    )
