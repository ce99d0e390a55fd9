"""Exploration (post-battle step 3), selling wyrdstone (step 4), rarity rolls (step 6).

Source: FACTS.md sections 4 to 6 (S2 income page, S4/S5 sale table). Readings where the
sources are silent, each tested in tests/rules/test_exploration.py:

- The dice: one per hero not taken out of action, one more if the warband won, plus extra dice
  (skills, items); at most six are rolled. The Straggler's extra die is a seventh if need be,
  and the player then discards one die of his choice. The Sisters' Augur, if she is standing,
  rolls two dice and the player keeps one of them.
- Re-rolls (Wyrdstone Hunter, the catacombs' entrance) are offered one after the other, each
  for one die of the player's choice; the second result stands.
- Multiples: only the largest set counts; two sets of the same size, the higher number.
- Tests of a characteristic (the Well's Toughness, the leader's Leadership at the Tavern and
  the Shattered Building) are rolled: D6 equal to or under Toughness, 2D6 equal to or under
  Leadership. A warband without a leader fails a leader's test.
- Choices on the table (which hero goes down the well or into the pit, who gets the
  experience, who keeps the gems, which group takes in a prisoner) are questions.
- "He is lost" in the Pit: the hero is dead, with his equipment. "D3 shields or bucklers":
  shields. "Roll for each other item" (Hidden Treasure, Slaughtered Warband): one D6 per item,
  at or above the number it is found.
- Anything else (the Catacombs' deployment, a blessed weapon, being hated, the Mordheim map's
  own roll) is returned as a note the player confirms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

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

MAX_DICE = 6

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

# FACTS.md section 4, magical artefacts (D6): (item key, name).
MAGICAL_ARTEFACTS = (
    ("boots_rope_of_pieter", "Boots & Rope of Pieter"),
    ("count_of_ventimiglias_misericordia", "Count of Ventimiglia's Misericordia"),
    ("attlas_plate_mail", "Att'la's Plate Mail"),
    ("bow_of_seeking", "Bow of Seeking"),
    ("executioners_hood", "Executioner's Hood"),
    ("all_seeing_eye_of_numas", "All-seeing Eye of Numas"),
)


def exploration_dice(*, heroes_standing: int, won: bool, extra: int = 0) -> int:
    """How many dice to roll (before the six-dice limit and the Straggler's discard)."""
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
    """Roll the exploration dice, with the Augur's and the Straggler's choices and the
    re-rolls, and read the shards and the multiple."""
    answers = answers or {}
    count = min(exploration_dice(heroes_standing=setup.heroes_standing, won=setup.won,
                                 extra=setup.extra_dice), MAX_DICE)  # fmt: skip
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
    return Exploration(faces, shards_for(sum(faces)) if faces else 0, multiple(faces), detail)


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


@dataclass(frozen=True)
class Hero:
    """A hero who may be chosen for a location's effect (on the roster, not captured)."""

    id: int
    name: str
    T: int = 3
    Ld: int = 7


@dataclass(frozen=True)
class LocationContext:
    family: str = ""
    heroes: tuple[Hero, ...] = ()
    leader: Hero | None = None
    prisoner_groups: tuple[tuple[int, str], ...] = ()  # human henchman groups with room
    owned_artefacts: frozenset[str] = frozenset()
    has_catacombs_reroll: bool = False


@dataclass
class Find:
    """What a special location gives."""

    name: str
    gold: int = 0
    shards: int = 0
    items: list[tuple[str, str, int]] = field(default_factory=list)  # (item key or "", name, n)
    zombies: int = 0
    experience: dict[int, int] = field(default_factory=dict)  # hero id → experience
    miss_game: list[int] = field(default_factory=list)
    hero_lost: int | None = None
    academic_skills: int | None = None
    kept_gems: int | None = None
    prisoner_joins: int | None = None  # henchman group id
    wardog_for_leader: bool = False
    free_hired_sword: bool = False
    straggler: bool = False
    catacombs_reroll: bool = False
    notes: list[str] = field(default_factory=list)

    def item(self, key: str, name: str, count: int = 1) -> None:
        if count:
            self.items.append((key, name, count))

    def give_experience(self, hero: int, amount: int = 1) -> None:
        self.experience[hero] = self.experience.get(hero, 0) + amount


# (face, count) → location name, FACTS.md section 4.
LOCATIONS = {
    (1, 2): "Well", (2, 2): "Shop", (3, 2): "Corpse", (4, 2): "Straggler",
    (5, 2): "Overturned Cart", (6, 2): "Ruined Hovels",
    (1, 3): "Tavern", (2, 3): "Smithy", (3, 3): "Prisoners", (4, 3): "Fletcher",
    (5, 3): "Market Hall", (6, 3): "Returning a Favour",
    (1, 4): "Gunsmith", (2, 4): "Shrine", (3, 4): "Townhouse", (4, 4): "Armourer",
    (5, 4): "Graveyard", (6, 4): "Catacombs",
    (1, 5): "Moneylender's House", (2, 5): "Alchemist's Laboratory", (3, 5): "Jewelsmith",
    (4, 5): "Merchant's House", (5, 5): "Shattered Building", (6, 5): "Entrance to the Catacombs",
    (1, 6): "The Pit", (2, 6): "Hidden Treasure", (3, 6): "Dwarf Smithy",
    (4, 6): "Slaughtered Warband", (5, 6): "Fighting Arena", (6, 6): "Noble's Villa",
}  # fmt: skip


def location(face: int, count: int) -> str:
    return LOCATIONS[(face, min(count, 6))]


def _d(dice, n: int, label: str) -> int:
    return dice.roll(n, 6, label).total


def _d3(dice, label: str) -> int:
    return (dice.roll(1, 6, label).total + 1) // 2


def _hero_options(heroes: Sequence[Hero]) -> tuple[tuple[str, str], ...]:
    return tuple((str(hero.id), hero.name) for hero in heroes)


def _pick_hero(answers, key: str, text: str, heroes: Sequence[Hero], *, optional: str = ""):
    """Ask which hero; ``optional`` adds a "nobody" answer with that label (returns None)."""
    options = _hero_options(heroes) + ((("none", optional),) if optional else ())
    chosen = ask(answers, key, text, options)
    return None if chosen == "none" else next(h for h in heroes if str(h.id) == chosen)


def _split_experience(answers, find: Find, heroes: Sequence[Hero], points: int) -> None:
    """Experience "split among the heroes": one question per point."""
    for n in range(1, points + 1):
        hero = _pick_hero(answers, f"xp_{n}", f"Experience point {n} of {points} goes to", heroes)
        find.give_experience(hero.id)


def leadership_test(dice, hero: Hero | None, label: str) -> bool:
    """2D6 equal to or under the leader's Leadership; no leader, no pass."""
    if hero is None:
        return False
    return dice.roll(2, 6, f"{label}: {hero.name}'s Leadership test ({hero.Ld})").total <= hero.Ld


ARMOURER = {3: ("helmet", "Helmet"), 4: ("light_armour", "Light armour"),
            5: ("heavy_armour", "Heavy armour")}  # fmt: skip
GUNSMITH = {1: ("blunderbuss", "Blunderbuss"), 2: ("brace_of_pistols", "Brace of pistols"),
            3: ("brace_of_duelling_pistols", "Brace of duelling pistols"),
            6: ("hochland_long_rifle", "Hochland long rifle")}  # fmt: skip
SMITHY = {1: ("sword", "Sword"), 2: ("double_handed_weapon", "Double-handed weapon"),
          3: ("flail", "Flail"), 5: ("lance", "Lance")}  # fmt: skip
CORPSE = {3: ("dagger", "Dagger"), 4: ("axe", "Axe"), 5: ("sword", "Sword"),
          6: ("light_armour", "Light armour")}  # fmt: skip


def resolve_location(
    dice,
    face: int,
    count: int,
    *,
    context: LocationContext,
    answers: Mapping[str, str] | None = None,
) -> Find:
    """Work out the special location of ``count`` dice showing ``face`` (FACTS.md section 4)."""
    answers = answers or {}
    name = location(face, count)
    find = Find(name)
    family = context.family
    skaven, possessed = family.startswith("Skaven"), family == "Cult of the Possessed"
    undead, pious = family == "Undead", family in ("Witch Hunters", "Sisters of Sigmar")
    heroes = context.heroes

    def roll(n: int = 1, what: str = "") -> int:
        return _d(dice, n, f"{name}{what}")

    def d3(what: str) -> int:
        return _d3(dice, f"{name}: {what} (D3)")

    if name == "Well":
        if heroes:
            hero = _pick_hero(answers, "hero", "Which hero goes down the well?", heroes)
            if roll(1, f": {hero.name}'s Toughness test ({hero.T})") <= hero.T:
                find.shards = 1
            else:
                find.miss_game.append(hero.id)
    elif name == "Shop":
        find.gold = roll()
        if find.gold == 1:
            find.item("lucky_charm", "Lucky charm")
    elif name == "Corpse":
        sub = roll(1, ": what is on the body")
        if sub <= 2:
            find.gold = roll(1, ": gold crowns")
        else:
            find.item(*CORPSE[sub])
    elif name == "Straggler":
        if skaven:
            find.gold = roll(2, ": sold to the slavers (2D6 gc)")
        elif possessed:
            if context.leader is not None:
                find.give_experience(context.leader.id)
        elif undead:
            find.zombies = 1
        else:
            find.straggler = True
    elif name == "Overturned Cart":
        sub = roll(1, ": what is in the cart")
        if sub <= 2:
            find.item("mordheim_map", "Mordheim map")
            find.notes.append("Roll for the Mordheim map's effect as its rules say.")
        elif sub <= 4:
            find.gold = roll(2, ": gold crowns (2D6)")
        else:
            find.item("jewelled_sword", "Jewelled sword")
            find.item("jewelled_dagger", "Jewelled dagger")
    elif name == "Ruined Hovels":
        find.gold = roll(1, ": gold crowns")
    elif name == "Tavern":
        if undead or pious or leadership_test(dice, context.leader, name):
            find.gold = roll(4, ": gold crowns (4D6)")
        else:
            find.gold = roll(1, ": gold crowns (D6)")
    elif name == "Smithy":
        sub = roll(1, ": what is at the forge")
        if sub == 4:
            find.item("halberd", "Halberd", d3("how many halberds"))
        elif sub == 6:
            find.gold = roll(2, ": metal worth (2D6 gc)")
        else:
            find.item(*SMITHY[sub])
    elif name == "Prisoners":
        if possessed:
            if heroes:
                _split_experience(answers, find, heroes, d3("experience"))
        elif undead:
            find.zombies = d3("free Zombies")
        elif skaven:
            find.gold = roll(3, ": sold (3D6 gc)")
        else:
            find.gold = roll(2, ": reward (2D6 gc)")
            if context.prisoner_groups:
                options = tuple((str(pk), label) for pk, label in context.prisoner_groups)
                group = ask(
                    answers,
                    "group",
                    "A prisoner may join a human henchman group (his equipment is paid for)",
                    (*options, ("none", "Nobody joins")),
                )
                find.prisoner_joins = None if group == "none" else int(group)
    elif name == "Fletcher":
        sub = roll(1, ": what is in the workshop")
        if sub <= 2:
            find.item("short_bow", "Short bow", d3("how many"))
        elif sub == 3:
            find.item("bow", "Bow", d3("how many"))
        elif sub == 4:
            find.item("long_bow", "Long bow", d3("how many"))
        elif sub == 5:
            find.item("hunting_arrows", "Hunting arrows")
        else:
            find.item("crossbow", "Crossbow", d3("how many"))
    elif name == "Market Hall":
        find.gold = roll(2, ": gold crowns (2D6)")
    elif name == "Returning a Favour":
        find.free_hired_sword = True
    elif name == "Gunsmith":
        sub = roll(1, ": what is in the workshop")
        if sub == 4:
            find.item("handgun", "Handgun", d3("how many"))
        elif sub == 5:
            find.item("superior_blackpowder", "Superior blackpowder", d3("how much"))
        else:
            find.item(*GUNSMITH[sub])
    elif name == "Shrine":
        find.gold = roll(3, ": offerings (3D6 gc)")
        if pious:
            find.notes.append(
                "One weapon of the warband becomes blessed: it wounds Undead and Possessed on 2+."
            )
    elif name == "Townhouse":
        find.gold = roll(3, ": gold crowns (3D6)")
    elif name == "Armourer":
        sub = roll(1, ": what is in the workshop")
        if sub <= 2:
            find.item("shield", "Shield", d3("how many"))
        elif sub == 6:
            find.item("ithilmar_armour", "Ithilmar armour")
        else:
            find.item(*ARMOURER[sub], d3("how many"))
    elif name == "Graveyard":
        if pious:
            if heroes:
                _split_experience(answers, find, heroes, roll(1, ": experience (D6)"))
        else:
            find.gold = roll(1, ": grave goods (D6 × 10 gc)") * 10
            find.notes.append(
                "The next Witch Hunter or Sisters of Sigmar warband you fight hates the whole "
                "warband."
            )
    elif name == "Catacombs":
        find.notes.append(
            "Next battle only: up to three fighters (not Rat Ogres or Possessed) may deploy "
            'anywhere at ground level at the end of your first turn, more than 8" from enemies.'
        )
    elif name == "Moneylender's House":
        find.gold = roll(1, ": gold crowns (D6 × 10)") * 10
    elif name == "Alchemist's Laboratory":
        find.gold = roll(3, ": gold crowns (3D6)")
        if heroes:
            hero = _pick_hero(
                answers, "hero", "Which hero gains access to Academic skills?", heroes
            )
            find.academic_skills = hero.id
    elif name == "Jewelsmith":
        sub = roll(1, ": what the jeweller left")
        if sub <= 2:
            value = roll(1, ": gems worth (D6 × 5 gc)") * 5
        elif sub <= 4:
            value = 20
        elif sub == 5:
            value = 50
        else:
            value = roll(1, ": gems worth (D6 × 15 gc)") * 15
        keeper = None
        if heroes:
            keeper = _pick_hero(
                answers, "keeper", f"Sell the gems for {value} gc, or a hero keeps them (+1 to "
                "his rarity rolls)?", heroes, optional=f"Sell them for {value} gc",
            )  # fmt: skip
        if keeper is None:
            find.gold = value
        else:
            find.kept_gems = keeper.id
    elif name == "Merchant's House":
        faces = dice.roll(2, 6, f"{name}: gold crowns (2D6 × 5)").faces
        if faces[0] == faces[1]:
            find.item("freetraders_symbol", "Freetraders symbol")
            find.notes.append("The hero who carries the Freetraders symbol gains the Haggle skill.")
        else:
            find.gold = sum(faces) * 5
    elif name == "Shattered Building":
        find.shards = d3("wyrdstone shards")
        find.wardog_for_leader = leadership_test(dice, context.leader, name)
    elif name == "Entrance to the Catacombs":
        if context.has_catacombs_reroll:
            find.notes.append("The warband knows this entrance already: no further re-roll.")
        else:
            find.catacombs_reroll = True
    elif name == "The Pit":
        hero = None
        if heroes:
            hero = _pick_hero(
                answers, "hero", "Send a hero into the pit?", heroes, optional="Nobody goes"
            )
        if hero is not None:
            if roll(1, f": {hero.name} in the pit") == 1:
                find.hero_lost = hero.id
            else:
                find.shards = roll(1, ": wyrdstone shards (D6+1)") + 1
    elif name == "Hidden Treasure":
        find.gold = roll(5, ": gold crowns (5D6 × 5)") * 5
        for key, label, needed in (
            ("", "Wyrdstone shards", 4), ("holy_relic", "Holy relic", 5),
            ("heavy_armour", "Heavy armour", 5), ("gem", "Gems", 4),
            ("elven_cloak", "Elven cloak", 5), ("holy_tome", "Holy tome", 5),
            ("", "Magical artefact", 5),
        ):  # fmt: skip
            if roll(1, f": {label.lower()} ({needed}+)") < needed:
                continue
            if label == "Wyrdstone shards":
                find.shards += d3("shards")
            elif key == "gem":
                find.item("gem", "Gem", d3("gems worth 10 gc each"))
            elif label == "Magical artefact":
                _artefact(dice, find, context.owned_artefacts)
            else:
                find.item(key, label)
    elif name == "Dwarf Smithy":
        sub = roll(1, ": what the dwarfs left")
        if sub == 1:
            find.item("double_handed_weapon", "Double-handed axe", d3("how many"))
        elif sub == 2:
            find.item("heavy_armour", "Heavy armour", d3("how many"))
        elif sub == 6:
            find.item("gromril_armour", "Gromril armour")
        else:
            find.item(
                "", {3: "Gromril axe", 4: "Gromril hammer", 5: "Gromril double-handed axe"}[sub]
            )
    elif name == "Slaughtered Warband":
        find.gold = roll(3, ": purses (3D6 × 5 gc)") * 5
        find.item("dagger", "Dagger", roll(1, ": daggers (D6)"))
        for key, label, needed in (
            ("light_armour", "Light armour", 4), ("heavy_armour", "Heavy armour", 5),
            ("mordheim_map", "Mordheim map", 4), ("halberd", "Halberd", 5),
            ("sword", "Sword", 3), ("shield", "Shield", 2), ("bow", "Bow", 4),
            ("helmet", "Helmet", 2),
        ):  # fmt: skip
            if roll(1, f": {label.lower()} ({needed}+)") < needed:
                continue
            single = label in ("Heavy armour", "Mordheim map")
            find.item(key, label, 1 if single else d3("how many"))
    elif name == "Fighting Arena":
        find.item("training_manual", "Training manual")
        find.notes.append(
            "The training manual sells for 100 gc, or a hero reads it: he gains access to Combat "
            "skills and +1 to his WS maximum (then it is gone)."
        )
    elif name == "Noble's Villa":
        sub = roll(1, ": what is in the villa")
        if sub <= 2:
            find.gold = roll(1, ": gold crowns (D6 × 10)") * 10
        elif sub <= 4:
            find.item("crimson_shade", "Crimson shade", roll(1, ": vials (D6)"))
        else:
            _artefact(dice, find, context.owned_artefacts)
    return find


def _artefact(dice, find: Find, owned: frozenset[str]) -> None:
    """FACTS.md: "Each artefact can exist only once in a campaign; if it is already owned,
    re-roll." With all six owned, nothing is found."""
    if len(owned) >= len(MAGICAL_ARTEFACTS):
        find.notes.append("Every magical artefact is owned already: nothing is found.")
        return
    while True:
        key, label = MAGICAL_ARTEFACTS[
            dice.roll(1, 6, f"{find.name}: which artefact (D6)").total - 1
        ]
        if key not in owned:
            find.item(key, label)
            return
