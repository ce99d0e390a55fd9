"""The races of the battle helper (``battles.helper``): a Rout test rolled once, a phase moved
on once, whoever presses (``tests.race.harness``)."""

from __future__ import annotations

from django.urls import reverse

from battles.helper import moves, start
from battles.models import Fighter, Game, GameEvent, GameSide
from battles.rules import play
from tests.battles.test_play_animosity import orc_mob
from tests.helpers import game_of, mustered_duel
from tests.race.harness import Shot, race

NOT_RACED = {
    "play_start": "each post starts a game of its own; moves no treasure",
    "play_page": "a page",
    "play_board": "a page",
    "play_panel": "a page",
}


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


@race("play_move:undo", "two tabs undoing the same change put back one change only")
def undo():
    duel = mustered_duel()
    battle = game_of(duel)
    owner = duel["reavers"].owner
    captain = Fighter.objects.get(game__battle=battle, warrior__is_leader=True,
                                  warrior__warband=duel["reavers"])  # fmt: skip
    moves.set_state(battle.pk, captain.pk, play.KNOCKED_DOWN, actor=owner)
    moves.set_state(battle.pk, captain.pk, play.STUNNED, actor=owner)
    latest = GameEvent.objects.filter(game__battle=battle, fighter=captain).latest("pk")
    return Shot(
        owner,
        reverse("play_move", args=[battle.pk]),
        {"action": "undo", "event": latest.pk},
        # stunned, then knocked down again after one undo; standing after two
        applied=lambda: {play.STUNNED: 0, play.KNOCKED_DOWN: 1}.get(
            Fighter.objects.get(pk=captain.pk).state, 2
        ),
    )


@race("play_move:mark", "two tabs marking a runner mark him once (not once and back)")
def mark():
    duel = mustered_duel()
    battle = game_of(duel)
    captain = Fighter.objects.get(game__battle=battle, warrior__is_leader=True,
                                  warrior__warband=duel["reavers"])  # fmt: skip
    return Shot(
        duel["reavers"].owner,
        reverse("play_move", args=[battle.pk]),
        {"action": "mark", "fighter": captain.pk, "deed": "ran", "doing": "1"},
        applied=lambda: GameEvent.objects.filter(game__battle=battle, kind="state").count(),
    )


@race("play_move:animosity", "two tabs rolling the Orc Mob's Animosity roll it once a turn")
def animosity():
    duel = mustered_duel()
    mob = orc_mob(duel)
    battle = start.start_game(
        actor=mob.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[mob.pk, duel["reavers"].pk],
    )  # fmt: skip
    side = GameSide.objects.get(game__battle=battle, position=0)
    return Shot(
        mob.owner,
        reverse("play_move", args=[battle.pk]),
        {"action": "animosity", "side": side.pk, "dice": "2 3 4"},
        applied=lambda: GameEvent.objects.filter(
            game__battle=battle, text__startswith="Animosity,"
        ).count(),
    )
