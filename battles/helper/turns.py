"""The turn sequence (core rules, the turn): recovery, movement, shooting, hand-to-hand, then
the next warband still on the table. As a warband's turn begins, what its warriors did last
turn is forgotten, its stunned warriors become knocked down and those knocked down already may
stand up in its recovery phase (``battles.rules.play``). What Animosity made a model do lasts
the turn it was rolled in (``battles.helper.animosity``)."""

from __future__ import annotations

from battles.helper.common import changed, log
from battles.models import Fighter, Game, GameEvent, GameSide
from battles.rules import play
from core.words import possessive


def start_of_turn(game: Game, side: GameSide) -> list[str]:
    """As a warband's turn begins: what its warriors did last turn is forgotten; stunned ones
    become knocked down, those knocked down already may stand up this recovery phase."""
    fighters = Fighter.objects.filter(side=side)
    fighters.update(ran=False, charged=False, fled=False, fell=False, fall_height=0)
    stunned = [f.name for f in fighters.filter(state=play.STUNNED).select_related("warrior")]
    fighters.update(may_stand=False)
    fighters.filter(state=play.KNOCKED_DOWN).update(may_stand=True)
    fighters.filter(state=play.STUNNED).update(state=play.KNOCKED_DOWN)
    return stunned


def advance_turn(game: Game, actor) -> None:
    """The next warband that has not routed takes its turn, beginning with recovery; the
    Animosity results of the turn that ends are over."""
    Fighter.objects.filter(game=game).exclude(animosity="").update(animosity="")
    sides = list(GameSide.objects.filter(game=game).select_related("participant__warband"))
    player, turn = game.player, game.turn
    for _ in sides:
        player, turn = play.next_turn(len(sides), player, turn)
        if not sides[player].participant.routed:
            break
    game.player, game.turn, game.phase = player, turn, play.PHASE_ORDER[0]
    game.save(update_fields=["player", "turn", "phase"])
    side = sides[player]
    stunned = start_of_turn(game, side)
    text = f"Turn {turn}: {possessive(side.participant.warband.name)} turn."
    if stunned:
        text += f" Stunned, now knocked down: {', '.join(stunned)}."
    log(game, text, kind=GameEvent.Kind.TURN, actor=actor, side=side)
    changed(game, whole=True)
