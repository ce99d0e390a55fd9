"""Rout tests, prompted (FACTS.md §8): as its turn begins (its recovery phase, not mid-turn),
a warband with a quarter or more of its models out of action tests on 2D6 against its
leader's Ld (or the best Ld of those neither stunned nor out of action, hired swords aside),
may rout of its own accord instead (also in a scenario without Rout tests, Occupy), and may
re-roll a failure with what it has (``battles.rules.play.rout_rerolls``). A rout ends the game
once one warband is left (with two, at once), and the rout order is kept for the report."""

from __future__ import annotations

from django.db import transaction

from battles.dice import check_used, holding_rolls
from battles.helper.common import changed, dice, locked, log, side_of
from battles.helper.end import finish
from battles.helper.permissions import check_side
from battles.helper.turns import advance_turn
from battles.models import Fighter, Game, GameEvent, GameSide
from battles.rules import play, scenarios
from core.errors import RuleViolation
from warbands.models import WarriorItem, WarriorSkill

SILK = "cathayan_silk_clothes"


def models_of(fighters) -> list[play.Model]:
    """The side's models as the rout test sees them (``fighters`` with warrior and type)."""
    return [
        play.Model(
            state=f.state,
            leadership=f.warrior.Ld,
            is_leader=f.warrior.is_leader,
            hired=f.warrior.hired_sword_id is not None,
            weight=play.rout_weight(
                f.warrior.warrior_type.key, f.side.participant.warband.warband_type.family
            ),
        )
        for f in fighters
    ]


def side_fighters(side: GameSide) -> list[Fighter]:
    return list(
        Fighter.objects.filter(side=side).select_related(
            "warrior__warrior_type", "side__participant__warband__warband_type"
        )
    )


def _turn_begins_a_quarter_down(game: Game, side: GameSide, fighters) -> bool:
    """The side's own turn is beginning (its recovery phase), with a quarter or more of it out
    of action, and it has not tested this turn. Losses in its own turn wait for the start of
    its next turn: the test is taken as a turn begins, never mid-turn."""
    if side.position != game.player or side.participant.routed:
        return False
    if game.phase != play.PHASE_ORDER[0] or side.rout_tested_turn >= game.turn:
        return False
    return play.must_test(models_of(fighters if fighters is not None else side_fighters(side)))


def rout_due(game: Game, side: GameSide, fighters=None) -> bool:
    """It is the side's turn and it must test (or decide on a re-roll) before it goes on. A
    scenario without Rout tests (Occupy) never asks for one."""
    if side.rout_failed:
        return side.position == game.player and not side.participant.routed
    if not scenarios.scenario(game.battle.scenario_key).rout_tests:
        return False
    return _turn_begins_a_quarter_down(game, side, fighters)


def rout_first(side: GameSide) -> str:
    """Why the side's turn waits: said beside the drawn-disabled Next phase and by its refusal."""
    return f"{side.participant.warband.name} takes its Rout test first (or routs)."


def may_rout(game: Game, side: GameSide, fighters=None) -> bool:
    """The side may rout of its own accord: when a Rout test is due, or, in a scenario without
    Rout tests, when one would have been (the text lets a warband give up there too)."""
    return rout_due(game, side, fighters) or _turn_begins_a_quarter_down(game, side, fighters)


def rerolls(side: GameSide, fighters: list[Fighter]) -> list[play.Reroll]:
    """The re-rolls the side may still take for the test in hand."""
    leader = next((f for f in fighters if f.warrior.is_leader), None)
    skills, silk = set(), False
    if leader is not None:
        skills = set(
            WarriorSkill.objects.filter(
                warrior=leader.warrior, skill__key__in=play.REROLLS
            ).values_list("skill__key", flat=True)
        )
        silk = WarriorItem.objects.filter(warrior=leader.warrior, item__key=SILK).exists()
    warband_type = side.participant.warband.warband_type
    offered = play.rout_rerolls(
        leader_skills=skills, leader_out=leader is None or leader.is_out,
        leader_has_silk=silk, family=warband_type.family,
        list_rules=warband_type.special_rules or (), used=set(side.rerolls_used),
    )  # fmt: skip
    return [r for r in offered if r.key not in side.rerolls_this_test]


def _acting_side(game: Game, side_id: int, actor) -> GameSide:
    """The side, for its own player (or an organiser). No lock of its own: every move holds
    the game's row (``common.locked``), so moves on one game never overlap."""
    side = side_of(game, side_id)
    check_side(actor, game, side)
    return side


def _roll(game: Game, side: GameSide, entered: str, actor, label: str) -> None:
    fighters = side_fighters(side)
    leadership = play.rout_leadership(models_of(fighters))
    name = side.participant.warband.name
    purpose = f"{label}: {name}, 2D6 against Ld {leadership}"
    rolled, held = dice(game, entered, side, actor), []
    with holding_rolls(held):
        passed, total = play.leadership_test(rolled, leadership, purpose)
    check_used(rolled, "The Rout test")
    side.rout_tested_turn = game.turn
    if passed:
        side.rout_failed = False
        side.save()
        log(game, f"{name} passes its {label} ({total} against Ld {leadership}).",
            kind=GameEvent.Kind.ROUT, actor=actor, side=side, rolls=held)  # fmt: skip
        return
    offered = rerolls(side, fighters)
    side.rout_failed = bool(offered)
    side.save()
    text = f"{name} fails its {label} ({total} against Ld {leadership})"
    if offered:
        log(game, f"{text}: it may re-roll ({', '.join(r.label for r in offered)}).",
            kind=GameEvent.Kind.ROUT, actor=actor, side=side, rolls=held)  # fmt: skip
        return
    log(game, f"{text}.", kind=GameEvent.Kind.ROUT, actor=actor, side=side, rolls=held)
    _rout(game, side, actor)


@transaction.atomic
def take_rout_test(battle_id: int, side_id: int, *, entered: str = "", actor) -> GameSide:
    game = locked(battle_id, actor)
    side = _acting_side(game, side_id, actor)
    if not rout_due(game, side) or side.rout_failed:
        if not scenarios.scenario(game.battle.scenario_key).rout_tests:
            raise RuleViolation(f"{game.battle.scenario} has no Rout tests.")
        raise RuleViolation(f"{side.participant.warband.name} has no Rout test to take now.")
    side.rerolls_this_test = []
    _roll(game, side, entered, actor, "Rout test")
    # The whole board: passed, the turn goes on and its Next phase comes back.
    changed(game, whole=True)
    return side


@transaction.atomic
def reroll(battle_id: int, side_id: int, key: str, *, entered: str = "", actor) -> GameSide:
    game = locked(battle_id, actor)
    side = _acting_side(game, side_id, actor)
    if not side.rout_failed:
        raise RuleViolation("There is no failed Rout test to re-roll.")
    chosen = next((r for r in rerolls(side, side_fighters(side)) if r.key == key), None)
    if chosen is None:
        raise RuleViolation("That re-roll is not the warband's to take now.")
    side.rerolls_this_test = [*side.rerolls_this_test, key]
    if chosen.once_per_game:
        side.rerolls_used = [*side.rerolls_used, key]
    _roll(game, side, entered, actor, f"Rout test re-rolled ({chosen.label})")
    changed(game, whole=True)  # as the test itself

    return side


@transaction.atomic
def rout(battle_id: int, side_id: int, *, actor) -> GameSide:
    """The side routs: of its own accord when a test is due, or accepting a failed test
    rather than re-rolling it."""
    game = locked(battle_id, actor)
    side = _acting_side(game, side_id, actor)
    if not may_rout(game, side):
        raise RuleViolation(
            "A warband routs of its own accord when it must take a Rout test, at the start of "
            "its turn."
        )
    name = side.participant.warband.name
    text = (
        f"{name} accepts its failed Rout test."
        if side.rout_failed
        else f"{name} routs of its own accord."
    )
    log(game, text, kind=GameEvent.Kind.ROUT, actor=actor, side=side)
    _rout(game, side, actor)
    changed(game, whole=True)
    return side


def _rout(game: Game, side: GameSide, actor) -> None:
    """The side leaves the table, next in the rout order; the game ends when one side is
    left, or goes on with the next warband's turn."""
    participant = side.participant
    routed = GameSide.objects.filter(game=game, participant__routed=True).count()
    participant.routed, participant.rout_order = True, routed + 1
    participant.save(update_fields=["routed", "rout_order"])
    side.rout_failed, side.rout_tested_turn = False, game.turn
    side.save()
    log(game, f"{participant.warband.name} routs ({_nth(routed + 1)} to rout).",
        kind=GameEvent.Kind.ROUT, actor=actor, side=side)  # fmt: skip
    sides = list(GameSide.objects.filter(game=game).select_related("participant"))
    left = play.winners_after_rout(
        [s.participant.warband_id for s in sides],
        {s.participant.warband_id for s in sides if s.participant.routed},
    )
    if left is not None:
        finish(game, winners=left, actor=actor)
    elif side.position == game.player:
        advance_turn(game, actor)


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")
