"""Wounds and injuries (core rules, wounds and injuries): a model loses a wound for each one he
takes; while he has one left he fights on. The wound that leaves him none, and each one after
it, rolls a D6 on the injury chart, and of several such rolls the worst result applies. Pure:
dice injected.

A model knocked down or stunned already is never made better by a milder roll: the worst of
his state and the roll applies (the rulebook's "highest result" of rolls in one turn, which
players read the same way across turns)."""

from __future__ import annotations

from dataclasses import dataclass

from battles.rules.play import KNOCKED_DOWN, OUT_OF_ACTION, STUNNED
from core.dice import Dice

# Core rules, the injury chart (D6): 1-2 knocked down, 3-4 stunned, 5-6 out of action.
INJURY_CHART = {1: KNOCKED_DOWN, 2: KNOCKED_DOWN, 3: STUNNED, 4: STUNNED, 5: OUT_OF_ACTION,
                6: OUT_OF_ACTION}  # fmt: skip
SEVERITY = {KNOCKED_DOWN: 1, STUNNED: 2, OUT_OF_ACTION: 3}


def worst(state: str, injury: str) -> str:
    """The state after an injury: the worse of the two."""
    return state if SEVERITY.get(state, 0) >= SEVERITY[injury] else injury


@dataclass(frozen=True)
class Wounded:
    """What ``take`` did: the wounds lost in all, the injury rolls and the state after."""

    lost: int
    injuries: tuple[int, ...]
    state: str


def take(dice: Dice, count: int, *, wounds: int, lost: int, state: str, who: str) -> Wounded:
    """``count`` wounds to a model of ``wounds`` (his profile's W, at least 1) who has lost
    ``lost`` already, in state ``state``: each one takes a wound off; the one that leaves
    none, and each after it, rolls on the injury chart."""
    wounds = max(wounds, 1)
    rolls = []
    for _ in range(count):
        lost = min(lost + 1, wounds)
        if lost == wounds:
            rolls.append(dice.roll(1, 6, f"Injury: {who}").total)
    for face in rolls:
        state = worst(state, INJURY_CHART[face])
    return Wounded(lost, tuple(rolls), state)
