"""The charts at hand beside the rolls they decide (post-battle steps 1 to 3, and the warband's
printout): each drawn from the very table the engine reads (``injuries.SERIOUS_INJURIES``, the
advance tables of ``experience``, the shards and locations of ``exploration``), so that what a
page shows is what a roll applies. What each serious injury does and what each special location
gives is told in a line of our own words; a result the engine knows and this module does not
describe fails its test.
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


# Our own words for what each special location gives, read from its rule in
# ``exploration_locations.LOCATION_RULES`` (and checked against the rulebook's paragraph).
LOCATION_SUMMARIES = {
    "Well": "A chosen hero rolls a D6: at or under his Toughness he brings up a shard; above it he "
    "misses the next game, sick.",
    "Shop": "Loot worth D6 gc; if that D6 shows a 1, a Lucky Charm as well.",
    "Corpse": "A D6 on the body: 1-2 D6 gc, 3 a dagger, 4 an axe, 5 a sword, 6 light armour.",
    "Straggler": "Skaven sell him for 2D6 gc; a Possessed leader gains 1 experience; Undead gain a "
    "free Zombie; others: one extra die next exploration, dropping one.",
    "Overturned Cart": "D6: 1-2 a Mordheim map, 3-4 a purse of 2D6 gc, 5-6 a jewelled sword and "
    "dagger, which sell for twice the plain ones.",
    "Ruined Hovels": "Scraps of loot worth D6 gc.",
    "Tavern": "The leader tests Leadership: a pass keeps 4D6 gc of drink, a fail only D6 gc. "
    "Undead, Witch Hunters and Sisters always pass.",
    "Smithy": "D6: 1 a sword, 2 a double-handed weapon, 3 a flail, 4 halberds (D3), 5 a lance, 6 "
    "scrap metal worth 2D6 gc.",
    "Prisoners": "Possessed: D3 experience for heroes; Undead: D3 Zombies, free; Skaven sell them: "
    "3D6 gc; others: 2D6 gc, and one may join a human henchman group.",
    "Fletcher": "D6: 1-2 short bows (D3), 3 bows (D3), 4 long bows (D3), 5 a quiver of hunting "
    "arrows, 6 crossbows (D3).",
    "Market Hall": "Goods left lying about, worth 2D6 gc.",
    "Returning a Favour": "A hired sword of your choice fights your next battle for nothing; after "
    "it, pay his upkeep or he leaves.",
    "Gunsmith": "D6: 1 blunderbuss, 2 a brace of pistols, 3 a brace of duelling pistols, 4 "
    "handguns (D3), 5 superior blackpowder (D3), 6 Hochland long rifle.",
    "Shrine": "Stripped for 3D6 gc; Witch Hunters and Sisters also have one weapon blessed: it "
    "wounds Undead and Possessed on 2+.",
    "Townhouse": "Loot worth 3D6 gc.",
    "Armourer": "D6: 1-2 shields or bucklers (D3, your pick), 3 helmets (D3), 4 light armour (D3), "
    "5 heavy armour (D3), 6 ithilmar armour.",
    "Graveyard": "Most warbands loot D6×10 gc and are hated by the next Witch Hunters or Sisters "
    "they fight; those two seal it: D6 experience for heroes.",
    "Catacombs": "Next battle: up to three fighters (no Rat Ogres or Possessed) come up at ground "
    'level after your first turn, not within 8" of enemies.',
    "Moneylender's House": "D6×10 gc hidden in the debris.",
    "Alchemist's Laboratory": "Loot worth 3D6 gc, and a notebook: one hero may pick Academic "
    "skills from now on.",
    "Jewelsmith": "D6: 1-2 quartz, D6×5 gc; 3-4 amethyst, 20 gc; 5 necklace, 50 gc; 6 ruby, D6×15 "
    "gc. Kept by a hero: +1 finding rare items.",
    "Merchant's House": "Valuables worth 2D6×5 gc; if those dice show a double, instead the "
    "Freetraders' symbol, whose hero gains Haggle.",
    "Shattered Building": "D3 wyrdstone shards, and a wardog joins if the leader passes a "
    "Leadership test.",
    "Entrance to the Catacombs": "From now on, re-roll one exploration die; finding another "
    "entrance adds nothing.",
    "The Pit": "You may send a hero in and roll a D6: on a 1 he never returns, on 2+ he brings up "
    "D6+1 shards.",
    "Hidden Treasure": "5D6×5 gc; a D6 each: shards (D3), gems (D3, 10 gc each) 4+; holy relic, "
    "heavy armour, elven cloak, holy tome, magical artefact 5+.",
    "Dwarf Smithy": "D6: 1 double-handed axes (D3), 2 heavy armour (D3), 3 a gromril axe, 4 a "
    "gromril hammer, 5 a gromril double-handed axe, 6 gromril armour.",
    "Slaughtered Warband": "3D6×5 gc, D6 daggers; a D6 each: 2+ shields, helmets; 3+ swords; 4+ "
    "light armour, bows, map; 5+ halberds, heavy armour (most D3).",
    "Fighting Arena": "A training manual: sell it for 100 gc, or a hero reads it for Combat skills "
    "and one more point of Weapon Skill maximum.",
    "Noble's Villa": "D6: 1-2 D6×10 gc, 3-4 Crimson Shade (D6 vials), 5-6 a magical artefact (D6 "
    "on the artefacts table).",
}


def places() -> list[tuple[str, list[Row]]]:
    """By size of the set (``MULTIPLES``): each place it leads to, face by face, with the dice
    that find it ("3 3 3") and what it gives."""
    chart = []
    for count, label in MULTIPLES.items():
        rows = []
        for face in range(1, 7):
            name = location(face, count)
            rows.append(Row(" ".join([str(face)] * count), name, LOCATION_SUMMARIES[name]))
        chart.append((label, rows))
    return chart
