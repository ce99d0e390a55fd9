"""The tests a warrior takes on the table, rolled by the server or typed in from the physical
dice, each roll in the battle's dice log (core rules: characteristic and Leadership tests,
the recovery phase, climbing, jumping down, diving charges, jumping gaps, falling)."""

from __future__ import annotations

from django.db import transaction

from battles.dice import check_used, holding_rolls
from battles.helper.common import changed, dice, fighter_of, is_turn_of, locked, log
from battles.models import Fighter, GameEvent
from battles.rules import play
from core.errors import RuleViolation
from core.words import possessive
from warbands.models import WarriorSkill


def _leader_of(side_id: int) -> Fighter | None:
    return (
        Fighter.objects.filter(side_id=side_id, warrior__is_leader=True)
        .select_related("warrior__warrior_type")
        .first()
    )


def leader_reach(side_id: int) -> int:
    """How far (inches) the side's warriors may use their leader's Leadership
    (``battles.rules.play.leader_reach``: 6", or the Reikland captain's and Battle Tongue's 12")."""
    leader = _leader_of(side_id)
    if leader is None:
        return play.LEADER_REACH
    skills = set(
        WarriorSkill.objects.filter(warrior=leader.warrior).values_list("skill__key", flat=True)
    )
    return play.leader_reach(leader.warrior.warrior_type.special_rules or [], skills)


def _leader_ld(fighter: Fighter) -> int:
    """A warrior within reach of his leader (``leader_reach``) uses the leader's Ld for
    Leadership tests while the leader is neither knocked down, stunned, fleeing nor out of
    action (the Leader rule)."""
    leader = _leader_of(fighter.side_id)
    if leader is None or leader.state not in (play.STANDING, play.HIDDEN):
        raise RuleViolation("The leader is not standing: each uses his own Leadership.")
    return leader.warrior.Ld


@transaction.atomic
def rally(
    battle_id: int, fighter_id: int, *, nearest_is_enemy: bool, near_leader: bool = False,
    entered: str = "", actor,
) -> Fighter:  # fmt: skip
    """A fleeing warrior's Rally test, once in each of his recovery phases: 2D6 equal to or
    under his Ld; none when the closest model is an enemy (fleeing, stunned, knocked-down and
    hidden enemies aside, which the player judges)."""
    game = locked(battle_id, actor)
    fighter = fighter_of(game, fighter_id, actor)
    name = fighter.name
    if fighter.state != play.FLEEING:
        raise RuleViolation(f"{name} is not fleeing.")
    if not (is_turn_of(game, fighter.side) and game.phase == "recovery"):
        raise RuleViolation(f"{name} takes his Rally test in his own recovery phase.")
    if fighter.rally_turn == game.turn:
        raise RuleViolation(f"{name} took his Rally test this turn already.")
    fighter.rally_turn = game.turn
    if nearest_is_enemy:
        fighter.save()
        log(game, f"{name} cannot rally: the closest model is an enemy. He flees on.",
            kind=GameEvent.Kind.TEST, actor=actor, fighter=fighter)  # fmt: skip
        changed(game, fighters=[fighter])
        return fighter
    leadership = _leader_ld(fighter) if near_leader else fighter.warrior.Ld
    purpose = f"Rally test: {name}, 2D6 against Ld {leadership}"
    rolled, held = dice(game, entered, fighter.side, actor), []
    with holding_rolls(held):
        passed, total = play.leadership_test(rolled, leadership, purpose)
    check_used(rolled, "The Rally test")
    if passed:
        fighter.state = play.STANDING
        text = f"{name} rallies ({total} against Ld {leadership}): he neither moves nor shoots"
        text += " this turn."
    else:
        text = f"{name} fails to rally ({total} against Ld {leadership}) and flees on."
    fighter.save()
    log(game, text, kind=GameEvent.Kind.TEST, actor=actor, fighter=fighter, rolls=held)
    changed(game, fighters=[fighter], dice=True)
    return fighter


@transaction.atomic
def initiative_test(
    battle_id: int, fighter_id: int, test_key: str, *, height: int = 0, entered: str = "", actor
) -> play.TestResult:
    """Climbing, jumping down, a diving charge, a gap, or an edge after being knocked down or
    stunned: one Initiative test, or one per full 2" jumped down. A failure that is a fall
    leaves the fall to roll (``battles.helper.wounds.fall``); a failed climb up only stops him
    this turn."""
    test = play.TESTS.get(test_key)
    if test is None:
        raise RuleViolation("Pick the test to take.")
    game = locked(battle_id, actor)
    fighter = fighter_of(game, fighter_id, actor)
    name = fighter.name
    if fighter.is_out:
        raise RuleViolation(f"{name} is out of action.")
    if fighter.fall_height:
        raise RuleViolation(f"Roll {possessive(name)} fall first.")
    if test.key == "edge":
        if fighter.state not in (play.KNOCKED_DOWN, play.STUNNED):
            raise RuleViolation(f"{name} tests at an edge when knocked down or stunned there.")
    elif fighter.state not in (play.STANDING, play.HIDDEN):
        raise RuleViolation(f"{name} is {play.STATES[fighter.state].lower()}: he cannot do that.")
    rolled, held = dice(game, entered, fighter.side, actor), []
    try:
        with holding_rolls(held):
            result = play.initiative_tests(
                rolled, test, height if test.asks_height else 0, fighter.warrior.I, name,
                movement=fighter.warrior.M or None,  # 0: a Move rolled in play (2D6)
            )  # fmt: skip
    except play.PlayError as refusal:
        raise RuleViolation(str(refusal)) from refusal
    if result.passed:  # after a failure, dice typed for the tests it spared go unused
        check_used(rolled, f"{test.label} (a die per test, until one fails)")
    text = f"{test.label}: {name}, {result.describe(fighter.warrior.I)}."
    if not result.passed and test.key == "climb_up":
        text += " He cannot move this turn."
    if result.fall_height:
        fighter.fall_height, fighter.fell = result.fall_height, True
        if fighter.state == play.HIDDEN:
            fighter.state = play.STANDING
        fighter.save()
    log(game, text, kind=GameEvent.Kind.TEST, actor=actor, fighter=fighter, rolls=held)
    changed(game, fighters=[fighter] if result.fall_height else [], dice=True)
    return result
