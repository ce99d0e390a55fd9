"""Wounds and injuries (core rules, wounds and injuries): a hit wounds on the D6 the wound chart
gives for its Strength against the model's Toughness; a model loses a wound for each one he
takes, and while he has one left he fights on. The wound that leaves him none, and each one
after it, rolls a D6 on the injury chart, and of several such rolls the worst result applies.
A fall (core rules, falling) is D3 hits at the Strength of the height, no armour save, each
rolled to wound. Pure: dice injected.

A model knocked down or stunned already is never made better by a milder roll: the worst of
his state and the roll applies (the rulebook's "highest result" of rolls in one turn, which
players read the same way across turns)."""

from __future__ import annotations

from dataclasses import dataclass

from battles.rules.play import KNOCKED_DOWN, OUT_OF_ACTION, STUNNED, fall_hits
from core.dice import Dice

# Core rules, the wound chart (the shooting and close combat chapters, which the texts of
# ../shared/rules do not hold; the chart is Warhammer's of the same years): what a D6 must
# reach for a hit of Strength S to wound Toughness T, by S - T. Two or more above: 2+; one
# above: 3+; equal: 4+; one below: 5+; two or three below: 6+; four or more below: no chance.
WOUND_CHART = {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}


def to_wound(strength: int, toughness: int) -> int | None:
    """The D6 a hit needs to wound (None: it cannot)."""
    gap = strength - toughness
    return 2 if gap >= 2 else WOUND_CHART.get(gap)


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


@dataclass(frozen=True)
class Fall:
    """A fall's hits, their Strength, the roll each needs to wound (None: none can), the
    to-wound rolls and the wounds they caused."""

    hits: int
    strength: int
    needs: int | None
    rolls: tuple[int, ...]
    wounds: int


def fall(dice: Dice, height: int, toughness: int, who: str) -> Fall:
    """The hits of a fall of ``height`` inches, rolled to wound against ``toughness``; no
    armour save, and no critical hits (the wounds are plain ones)."""
    hits, strength = fall_hits(dice, height, who)
    needs = to_wound(strength, toughness)
    rolls = ()
    if needs is not None:
        rolls = tuple(
            dice.roll(1, 6, f'A fall of {height}": {who}, to wound (hit {n})').total
            for n in range(1, hits + 1)
        )
    return Fall(hits, strength, needs, rolls, sum(1 for r in rolls if r >= needs))
