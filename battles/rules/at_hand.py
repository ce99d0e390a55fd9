"""The charts at hand beside the rolls they decide (post-battle steps 1 to 3, and the warband's
printout): each drawn from the very table the engine reads (``injuries.SERIOUS_INJURIES``, the
advance tables of ``experience``, the shards and locations of ``exploration``), so that what a
page shows is what a roll applies. What each serious injury does is told in a line of our own
words; a result the engine knows and this module does not describe fails its test.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.rules.experience import (
    HENCHMAN_CHOICES,
    HENCHMAN_RAISES,
    HERO_CHOICES,
    HERO_PAIRS,
    LADS_TALENT,
)
from battles.rules.exploration import SHARDS_BY_TOTAL, location
from battles.rules.injuries import SERIOUS_INJURIES
from warbands.rules.roster import CHARACTERISTIC_NAMES


@dataclass(frozen=True)
class Row:
    """One line of a chart: the roll (a number or a span, "11-15"), what it gives, and a line
    on what that means."""

    roll: str
    result: str
    summary: str = ""


# Our own words for each result of the serious injuries chart.
INJURY_SUMMARIES = {
    "Dead": "He is gone for good, with all he carried.",
    "Multiple injuries": "A D6 says how many more injuries he takes; death, capture and this "
    "result are rolled over.",
    "Leg wound": "Movement down by one.",
    "Arm wound": "A D6: on a 1 the arm is lost and he fights with one single-handed weapon; "
    "otherwise he sits out one game.",
    "Madness": "A D6: 1-3 he becomes stupid, 4-6 frenzied.",
    "Smashed leg": "A D6: on a 1 he can never run again (charging is still allowed); otherwise "
    "he sits out one game.",
    "Chest wound": "Toughness down by one.",
    "Blinded in one eye": "Ballistic Skill down by one; losing the second eye ends his career.",
    "Old battle wound": "Before every battle a D6 roll of 1 keeps him out of it.",
    "Nervous condition": "Initiative down by one.",
    "Hand injury": "Weapon Skill down by one.",
    "Deep wound": "He sits out the next D3 games.",
    "Robbed": "He comes back, but every item he had is gone.",
    "Full recovery": "He is back on his feet with nothing lasting.",
    "Bitter enmity": "He now hates whoever the D6 names: the one who downed him, that "
    "warband's leader, the warband, or its whole kind.",
    "Captured": "The enemy holds him; his warband may ransom or swap him.",
    "Hardened": "Fear no longer touches him.",
    "Horrible scars": "He now causes fear.",
    "Sold to the pits": "He fights a pit fighter: a win brings 50 gc and 2 experience; a loss "
    "means a roll of 11-35 on this chart, and he leaves without weapons and armour.",
    "Survives against the odds": "He crawls back with one experience more.",
}


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def _runs(results: list[tuple[int, str]]) -> list[Row]:
    """Consecutive rolls giving the same result, as one row each."""
    rows: list[list] = []
    for roll, result in results:
        if rows and rows[-1][2] == result:
            rows[-1][1] = roll
        else:
            rows.append([roll, roll, result])
    return [Row(_span(low, high), result) for low, high, result in rows]


def serious_injuries() -> list[Row]:
    """The heroes' serious injuries chart (D66), in its order."""
    return [
        Row(_span(low, high), name, INJURY_SUMMARIES[name]) for low, high, name in SERIOUS_INJURIES
    ]


def _named(characteristic: str) -> str:
    return f"+1 {CHARACTERISTIC_NAMES[characteristic]}"


def _either(pair: tuple[str, str]) -> str:
    return f"{_named(pair[0])} or {_named(pair[1])}, as you choose"


def hero_advance_result(roll: int) -> str:
    """What a hero's advance roll of ``roll`` (2D6) gives, as the engine reads it."""
    if roll in HERO_PAIRS:
        first, second = HERO_PAIRS[roll]
        return f"A D6: 1-3 {_named(first)}, 4-6 {_named(second)}"
    if roll in HERO_CHOICES:
        return _either(HERO_CHOICES[roll])
    return "A new skill from his lists (a wizard may roll a new spell instead)"


def henchman_advance_result(roll: int) -> str:
    """What a henchman group's advance roll of ``roll`` (2D6) gives, as the engine reads it."""
    if roll >= LADS_TALENT:
        return "The lad's got talent: one of them becomes a hero"
    if roll in HENCHMAN_CHOICES:
        return _either(HENCHMAN_CHOICES[roll])
    return _named(HENCHMAN_RAISES[roll])


ADVANCE_ROLLS = range(2, 13)


def hero_advances() -> list[Row]:
    return _runs([(roll, hero_advance_result(roll)) for roll in ADVANCE_ROLLS])


def henchman_advances() -> list[Row]:
    return _runs([(roll, henchman_advance_result(roll)) for roll in ADVANCE_ROLLS])


def shards() -> list[Row]:
    """The exploration dice's total → the wyrdstone shards found."""
    rows = []
    for (lowest, found), after in zip(SHARDS_BY_TOTAL, [*SHARDS_BY_TOTAL[1:], None], strict=True):
        roll = f"{lowest}+" if after is None else _span(lowest, after[0] - 1)
        rows.append(Row(roll, str(found)))
    return rows


MULTIPLES = {2: "Doubles", 3: "Triples", 4: "Four alike", 5: "Five alike", 6: "Six alike"}


def multiples() -> list[tuple[int, list[str]]]:
    """By face (1 to 6): the place each size of a set of that face leads to, smallest set
    first (``MULTIPLES``)."""
    return [(face, [location(face, count) for count in MULTIPLES]) for face in range(1, 7)]
