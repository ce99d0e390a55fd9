"""Exploration (post-battle step 3), selling wyrdstone (step 4), rarity rolls (step 6).

Source: FACTS.md sections 4 to 6 (S2 income page, S4/S5 sale table). Readings where the
sources are silent, each tested in tests/rules/test_exploration.py:

- The dice: one per hero not taken out of action, one more if the warband won, plus extra dice
  (skills, items); every one of them is rolled, and of seven or more the player keeps the six
  he chooses (section 4, keep at most six), setting aside the others one question each
  (``KEPT_DICE``). The Straggler's extra die comes on top, and the player discards one die of
  his choice first. The Sisters' Augur, if she is standing, rolls two dice and the player
  keeps one of them.
- Re-rolls (Wyrdstone Hunter, the catacombs' entrance, a Mordheim map's) are offered one
  after the other, each for one die of the player's choice; the second result stands.
- Multiples: only the largest set counts; two sets of the same size, the higher number.
- The Elf Ranger's Seeker (hired swords chapter): after the re-rolls, each Elf Ranger with the
  warband lets the player move one die up or down by one (a face stays between 1 and 6); the
  rule does not ask that he fought, only that he is with the warband.

The special locations a multiple finds are in ``battles.rules.exploration_locations`` and
``battles.rules.exploration_finds`` (re-exported here).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from battles.rules.exploration_finds import (
    MAGICAL_ARTEFACTS,
    Find,
    Hero,
    LocationContext,
    leadership_test,
)
from battles.rules.exploration_locations import location, resolve_location
from battles.rules.tasks import ask

__all__ = [
    "MAGICAL_ARTEFACTS",
    "SHARDS_BY_TOTAL",
    "WYRDSTONE_PRICES",
    "Exploration",
    "ExplorationSetup",
    "Find",
    "Hero",
    "LocationContext",
    "exploration_dice",
    "explore",
    "leadership_test",
    "location",
    "multiple",
    "rarity_modifier",
    "resolve_location",
    "shards_for",
    "variable_price",
    "wyrdstone_price",
]

KEPT_DICE = 6  # FACTS.md section 4: at most six dice are kept, however many are rolled

# FACTS.md section 4: (lowest total of the band, shards).
SHARDS_BY_TOTAL: tuple[tuple[int, int], ...] = (
    (1, 1),
    (6, 2),
    (12, 3),
    (18, 4),
    (25, 5),
    (31, 6),
    (36, 7),
)

# FACTS.md section 5: shards sold (1..8+) → price by warband size band
# (1-3, 4-6, 7-9, 10-12, 13-15, 16+ warriors). The total for the batch.
WYRDSTONE_PRICES: dict[int, tuple[int, int, int, int, int, int]] = {
    1: (45, 40, 35, 30, 30, 25),
    2: (60, 55, 50, 45, 40, 35),
    3: (75, 70, 65, 60, 55, 50),
    4: (90, 80, 70, 65, 60, 55),
    5: (110, 100, 90, 80, 70, 65),
    6: (120, 110, 100, 90, 80, 70),
    7: (145, 130, 120, 110, 100, 90),
    8: (155, 140, 130, 120, 110, 100),
}


def exploration_dice(*, heroes_standing: int, won: bool, extra: int = 0) -> int:
    """How many dice to roll, all of them (before the Straggler's die and the six kept)."""
    return heroes_standing + (1 if won else 0) + extra


@dataclass(frozen=True)
class ExplorationSetup:
    """What decides the exploration dice (FACTS.md section 4, Dice rolled)."""

    heroes_standing: int  # heroes not put out of action (the Augur among them)
    won: bool = False
    extra_dice: int = 0  # from skills and equipment
    augur: bool = False  # the Sisters' Augur was not put out of action
    straggler: bool = False  # found a straggler last time: one more die, discard one
    rerolls: tuple[str, ...] = ()  # each may re-roll one die: "Wyrdstone Hunter (Karl)" …
    seekers: tuple[str, ...] = ()  # each may move one die by one: "Seeker (Elf Ranger)" …
    # Shards found beyond the chart's (Incomparable Miners: the Dwarf lists find one more).
    # Read as "whenever the warband explores": with no die rolled there was no search.
    shard_bonus: int = 0


@dataclass
class Exploration:
    faces: list[int]
    shards: int
    multiple: tuple[int, int] | None
    detail: list[str] = field(default_factory=list)

    @property
    def location(self) -> str | None:
        return location(*self.multiple) if self.multiple else None


def _die_options(faces: Sequence[int]) -> tuple[tuple[str, str], ...]:
    return tuple((str(i), f"die {i + 1} (showing {face})") for i, face in enumerate(faces))


def explore(dice, setup: ExplorationSetup, answers: Mapping[str, str] | None = None) -> Exploration:
    """Roll the exploration dice, with the Augur's and the Straggler's choices, the six dice
    kept of more and the re-rolls, and read the shards and the multiple."""
    answers = answers or {}
    count = exploration_dice(
        heroes_standing=setup.heroes_standing, won=setup.won, extra=setup.extra_dice
    )
    faces: list[int] = []
    detail: list[str] = []
    if setup.augur and count:
        pair = list(dice.roll(2, 6, "Exploration: the Augur's two dice").faces)
        if pair[0] == pair[1]:
            kept = pair[0]
        else:
            kept = pair[int(ask(answers, "augur", "Which of the Augur's dice is kept?",
                                _die_options(pair)))]  # fmt: skip
        detail.append(f"the Augur rolled {pair[0]} and {pair[1]}, kept {kept}")
        faces.append(kept)
        count -= 1
    if count:
        faces.extend(dice.roll(count, 6, "Exploration dice").faces)
    if setup.straggler and faces:
        extra = dice.roll(1, 6, "Exploration: the Straggler's extra die").total
        faces.append(extra)
        drop = int(ask(answers, "discard", "The Straggler's extra die: which die is discarded?",
                       _die_options(faces)))  # fmt: skip
        detail.append(f"extra die {extra}, discarded {faces[drop]}")
        del faces[drop]
    _keep_six(faces, answers, detail)
    for n, source in enumerate(setup.rerolls):
        if not faces:
            break
        choice = ask(answers, f"reroll_{n}", f"{source}: re-roll one die?",
                     (*_die_options(faces), ("none", "No re-roll")))  # fmt: skip
        if choice == "none":
            continue
        index = int(choice)
        new = dice.roll(1, 6, f"Exploration: re-roll ({source})").total
        detail.append(f"{source}: re-rolled {faces[index]} into {new}")
        faces[index] = new
    for n, source in enumerate(setup.seekers):
        if faces:
            _seek(faces, n, source, answers, detail)
    shards = shards_for(sum(faces)) if faces else 0
    if faces and setup.shard_bonus:
        shards += setup.shard_bonus
        detail.append(f"Incomparable Miners: {setup.shard_bonus} more shard")
    return Exploration(faces, shards, multiple(faces), detail)


def _seek(faces: list[int], n: int, source: str, answers, detail: list[str]) -> None:
    """The Elf Ranger's Seeker: one die of the player's choice +1 or -1 (within 1-6)."""
    options = [
        (f"{i}{sign}", f"die {i + 1} (showing {face}) {sign}1")
        for i, face in enumerate(faces)
        for sign, allowed in (("+", face < 6), ("-", face > 1))
        if allowed
    ]
    choice = ask(answers, f"seeker_{n}", f"{source}: move one die by one?",
                 (*options, ("none", "No change")))  # fmt: skip
    if choice == "none":
        return
    index, step = int(choice[:-1]), 1 if choice[-1] == "+" else -1
    detail.append(f"{source}: {faces[index]} became {faces[index] + step}")
    faces[index] += step


def _keep_six(faces: list[int], answers: Mapping[str, str], detail: list[str]) -> None:
    """FACTS.md section 4: of more than six dice rolled, six are kept, the player's choice (not
    necessarily the best total: a multiple may matter more). He sets aside one die a
    question until six are left."""
    rolled = len(faces)
    aside: list[int] = []
    while len(faces) > KEPT_DICE:
        left = len(faces) - KEPT_DICE
        drop = int(ask(answers, f"set_aside_{len(aside)}",
                       f"{rolled} dice rolled, six are kept: set aside which die? "
                       f"({left} to set aside)", _die_options(faces)))  # fmt: skip
        aside.append(faces.pop(drop))
    if aside:
        detail.append(f"{rolled} dice rolled, six kept: set aside {', '.join(map(str, aside))}")


def shards_for(total: int) -> int:
    found = 0
    for lowest, shards in SHARDS_BY_TOTAL:
        if total >= lowest:
            found = shards
    return found


def multiple(faces: Sequence[int]) -> tuple[int, int] | None:
    """(face, how many) of the largest set of equal dice, the higher face on a tie; None
    without doubles."""
    counts = Counter(faces)
    best = max(counts.items(), key=lambda item: (item[1], item[0]), default=None)
    if best is None or best[1] < 2:
        return None
    return best


def wyrdstone_price(shards: int, warriors: int) -> int:
    """The batch total for ``shards`` sold by a warband of ``warriors`` warriors."""
    if shards <= 0:
        return 0
    row = WYRDSTONE_PRICES[min(shards, 8)]
    for index, upper in enumerate((3, 6, 9, 12, 15)):
        if warriors <= upper:
            return row[index]
    return row[5]


def variable_price(dice, base: int, price_dice: str, label: str) -> int:
    """Trading: an item with a variable price costs its fixed part plus its dice, rolled when
    it is bought ("2D6", "D6" or "D6x10": one D6 times ten)."""
    if not price_dice:
        return base
    match = re.fullmatch(r"(\d*)D6(?:x(\d+))?", price_dice)
    if match is None:
        raise ValueError(f"unknown price dice {price_dice!r}")
    count, times = int(match[1] or 1), int(match[2] or 1)
    return base + dice.roll(count, 6, f"{label}: price ({price_dice})").total * times


def rarity_modifier(*, streetwise: bool, warband_bonus: int, kept_gems: bool) -> int:
    """FACTS.md section 6: Streetwise +2, Marienburg +1 (the list's bonus), kept gems +1."""
    return (2 if streetwise else 0) + warband_bonus + (1 if kept_gems else 0)
