"""Animosity (the Orc Mob list's special rules, shared by the greenskin lists of Grade 1b): as
the turn of a warband with warriors subject to it begins, each of those models rolls a D6; on a
1 he has taken offence, and a second D6 on the Animosity result table says what he does this
turn. Pure: dice injected.

Who rolls is decided by the rule's presence (``effect: animosity`` on a warrior type's special
rule), never by the warband's list. A rule with ``one_roll`` (the Night Goblins of Mordheimer's
Information Centre) rolls one D6 for all the models that carry it, and on a 1 they all squabble
and do nothing else that turn, with no result table. What the result makes a model do on the
table (charge or shoot a friend, trade insults, rush at the enemy) the players carry out; the
helper rolls, records the result for the turn and says it in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.dice import Dice

EFFECT = "animosity"
OFFENDED = 1  # the first D6: a 1 means he has taken offence


@dataclass(frozen=True)
class Result:
    """A line of the Animosity result table: its rulebook name and, in our own words, what
    the model does this turn."""

    key: str
    name: str
    does: str


# Orc Mob list, Animosity result table (D6): 1, 2-5, 6.
I_ERD_DAT = Result(
    "i_erd_dat", "I 'Erd Dat!",
    "he charges the closest friendly Orc or Goblin henchman or hired sword in reach for one "
    "round, then they part 1\"; none in reach: he shoots one if he can, else as on 2-5. "
    "Nothing else.",
)  # fmt: skip
WUD_YOO_SAY = Result(
    "wud_yoo_say", "Wud Yoo Say?",
    "he only shouts insults at the closest friendly Orc or Goblin, bar fighting back.",
)  # fmt: skip
ILL_SHOW_YER = Result(
    "ill_show_yer", "I'll Show Yer!",
    "he hurries toward the closest enemy, charging if he can; with none in sight he may make "
    "an extra move now, and must charge if it brings an enemy within reach.",
)  # fmt: skip
# Night Goblins (Mordheimer's Information Centre), Animosity: one D6, the goblins bicker on a 1.
SQUABBLE = Result("squabble", "Squabbling", "he bickers with his mates and does nothing else.")
TABLE = {1: I_ERD_DAT, 2: WUD_YOO_SAY, 3: WUD_YOO_SAY, 4: WUD_YOO_SAY, 5: WUD_YOO_SAY,
         6: ILL_SHOW_YER}  # fmt: skip
RESULTS = {r.key: r for r in (*TABLE.values(), SQUABBLE)}
# The Goblin Warrior's own note (``never_charges_orcs`` on his rule).
SPARES_ORCS = "(A Goblin never charges an Orc over it.)"


def subject(rules: Sequence[Mapping]) -> Mapping | None:
    """The warrior type's Animosity rule, when one of its special rules is one."""
    return next((r for r in rules or () if r.get("effect") == EFFECT), None)


@dataclass(frozen=True)
class Roll:
    """One model's Animosity: his first D6, and on a 1 the result's D6 and line."""

    first: int
    second: int | None = None
    result: Result | None = None

    @property
    def offended(self) -> bool:
        return self.result is not None


def roll(dice: Dice, who: str) -> Roll:
    """A model's Animosity: a D6, and on a 1 a second D6 on the result table."""
    first = dice.roll(1, 6, f"Animosity: {who}").total
    if first != OFFENDED:
        return Roll(first)
    second = dice.roll(1, 6, f"Animosity: {who}, the result").total
    return Roll(first, second, TABLE[second])


def roll_together(dice: Dice, who: str, models: int) -> Roll:
    """One D6 for ``models`` models whose rule has ``one_roll``: on a 1 they all squabble."""
    first = dice.roll(1, 6, f"Animosity: {who}, one roll for {models} models").total
    return Roll(first, None, SQUABBLE if first == OFFENDED else None)


def describe_together(rolled: Roll, names: Sequence[str]) -> str:
    """The log's line for models who squabble together."""
    return f"Squabbling ({rolled.first}): {', '.join(names)} bicker and do nothing else this turn."


def describe(who: str, rolled: Roll, rule: Mapping) -> str:
    """The log's line for a model who took offence."""
    result = rolled.result
    text = f"{who} ({rolled.first}, then {rolled.second}): {result.name} This turn {result.does}"
    if result is I_ERD_DAT and rule.get("never_charges_orcs"):
        text += f" {SPARES_ORCS}"
    return text
