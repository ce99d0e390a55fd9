"""What the rule texts sell, read for the purchase tests: every item's cost and availability
from the equipment chapter (``02-weapons-armour-equipment.md``), and what the exploration
chart of the campaigns chapter (``03-campaigns-magic-optional-rules.md``) finds.

Nothing here is the app's data: each value is parsed from the text, and the few names the
text spells differently from the catalogue are mapped by hand below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest


def _reference() -> Path:
    """``shared/rules/reference`` beside the checkout (a worktree sits one level deeper)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "shared" / "rules" / "reference").is_dir():
            return parent / "shared" / "rules" / "reference"
    return here.parents[2] / "shared" / "rules" / "reference"


REFERENCE = _reference()
CHAPTER = REFERENCE / "02-weapons-armour-equipment.md"
CAMPAIGNS = REFERENCE / "03-campaigns-magic-optional-rules.md"
WARBANDS_1B = REFERENCE / "warbands-grade-1b-part2.md"
WARBANDS_1C = REFERENCE / "warbands-grade-1c.md"

# The chapter's heading, where the catalogue's key is not its snake_case.
KEYS = {
    "club, mace or hammer": None, "throwing knives/stars": "throwing_knives",
    "hunting rifle": "hochland_long_rifle", "rope & hook": "rope_and_hook",
    "holy (unholy) relic": "holy_relic", "TEARS OF SHALLAYA": "tears_of_shallya",
    "WARDOGS": "wardog", "RIDING/DRAFT HORSE": "riding_horse",
}  # fmt: skip
# The chapter's notes name warriors and warbands; the app's list that has them (None: a list
# the app does not have). A name not here fails the tests, so that no note is left unread.
WHO = {
    "Warrior-Priests": "witch_hunters", "Sisters of Sigmar": "sisters_of_sigmar",
    "Skaven": "skaven", "Goblins": "orc_mob", "Lizardmen": "lizardmen",
    "Forest Goblins": "forest_goblins", "Skink Heroes": None, "Dark Elves": "dark_elves",
    "Amazons (Lustria)": "amazons_lustria",
    "a brace": None,  # "Rare 12 for a brace": Nuln's pistols
}  # fmt: skip
# The Grade 1c lists' own items priced in their Special Equipment, not on the chart: the
# list's heading and the item's name there (two lists print a Misericordia of their own).
LIST_OWN = {
    "hedonist_whip": ("Court of the Profane Pleasures", "Hedonist Whip"),
    "slaaneshi_man_catcher": ("Court of the Profane Pleasures", "Slaaneshi Man-Catcher"),
    "cavalcade_misericordia": ("The Cursed Cavalcade", "Misericordia"),
    "boar_spear": ("The Cursed Cavalcade", "Boar Spear"),
    "bird_of_prey": ("The Cursed Cavalcade", "Bird of Prey"),
    "cathayan_quilted_silk_armour": ("The Cursed Cavalcade", "Cathayan Quilted Silk Armour"),
}
# Upgrades the chapter prices as a sum added to a weapon ("+ 20 gc"); the catalogue sells each
# upgraded weapon as an item of its own, keyed "<upgrade>_<weapon>".
UPGRADES = ("dark_elf_blade",)
# What the exploration chart finds, as the campaigns chapter words it (the magical artefacts
# are read from their table's headings).
FINDS = {
    "jewelled_sword": "Jewelled sword and dagger", "jewelled_dagger": "Jewelled sword and dagger",
    "gem": "Gems worth 10 gc", "training_manual": "You find a training manual",
    "freetraders_symbol": "symbol of the Order of Freetraders",
}  # fmt: skip


@dataclass(frozen=True)
class Terms:
    """An item as the chapter prices it: the fixed part, the dice, the rarity (None:
    Common) and the rarity its notes give some of the app's lists."""

    heading: str
    price: int
    dice: str | None
    rarity: int | None
    rarity_for: dict[str, int | None] = field(default_factory=dict)

    def rarity_of(self, warband: str) -> int | None:
        return self.rarity_for.get(warband, self.rarity)


def _snake(heading: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", heading.lower().replace("'", "")).strip("_")


def _rarity(word: str) -> int | None:
    return None if word == "Common" else int(word.split()[1])


def _notes(notes: str) -> dict[str, int | None]:
    """The rarity the notes after an availability give some lists: "Common for
    Warrior-Priests and Sisters of Sigmar", "Rare 7 for Skaven and Lizardmen", "Common if
    warband includes Goblins"."""
    found: dict[str, int | None] = {}
    pattern = r"(Common|Rare \d+) (?:[Ff]or|if warband includes) (.+?)(?=, \d|\.|\)(?:\s|$)|$)"
    for note in re.finditer(pattern, notes):
        for name in re.split(r", | and ", note[2].strip()):
            key = WHO[name]  # a KeyError names a note this module does not read yet
            if key is not None:
                found[key] = _rarity(note[1])
    return found


@cache
def chapter_terms() -> dict[str, Terms]:
    """{catalogue key: Terms} for every priced entry of the chapter, with the braces of
    pistols ("15 gc (30 gc for a brace)") as entries of their own and the gromril and
    ithilmar weapons ("4 x Price", "3 x Price") under ``gromril_weapon``/``ithilmar_weapon``
    with their multiple as the price, and the upgrades of a weapon ("+ 20 gc": the Dark Elf
    Blade) with the sum they add."""
    if not CHAPTER.exists():
        pytest.skip(f"the rule texts are not at {CHAPTER}")
    terms: dict[str, Terms] = {}
    heading = None
    line_pattern = r"\*\*Source:\*\* .* · \*\*Cost:\*\* (.*) · \*\*Availability:\*\* (.*)"
    for line in CHAPTER.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
            continue
        found = re.match(line_pattern, line)
        if not found or heading is None:
            continue
        cost, availability = found.groups()
        key = KEYS.get(heading, _snake(heading))
        if key is None:
            continue
        plain = re.match(r"Common|Rare \d+", availability)
        if plain is None:  # a paragraph instead of an availability (the Rhinox's search)
            continue
        rarity, notes = _rarity(plain[0]), _notes(availability[plain.end() :])
        multiple = re.match(r"(\d) x Price", cost)
        if multiple:
            terms[key] = Terms(heading, int(multiple[1]), None, rarity, notes)
            continue
        upgrade = re.fullmatch(r"\+ (\d+) gc", cost)
        if upgrade:  # an upgrade's price: no item of its own, see ``terms_of``
            terms[key] = Terms(heading, int(upgrade[1]), None, rarity, notes)
            continue
        price = re.match(r"(?:1st free/)?(\d+)(?: gc)?(?: \+ (\d*D6(?: x \d+)?))?", cost)
        if price is None:
            continue
        dice = price[2].replace(" x ", "x").removeprefix("1") if price[2] else None
        terms[key] = Terms(heading, int(price[1]), dice, rarity, notes)
        brace = re.search(r"\((\d+)(?: \+ (\d*D6))? gc for a brace\)", cost)
        if brace:  # "brace_of_pistols"; Nuln's "(46 + 2D6 gc for a brace)", "(Rare 10 for a brace)"
            brace_rarity = re.search(r"\(Rare (\d+) for a brace\)", availability)
            terms[f"brace_of_{key}s"] = Terms(
                f"{heading} (brace)",
                int(brace[1]),
                brace[2].removeprefix("1") if brace[2] else None,
                int(brace_rarity[1]) if brace_rarity else rarity,
                notes,
            )
    return terms


@cache
def fighting_styles() -> dict[str, Terms]:
    """{key: Terms} of the Pit Fighters' fighting styles: fixed sets of arms and armour that
    their warband chapter prices as one ("| Orc Style | Helmet; Dagger; Axe; Shield | 20 gc
    |"), sold on their lists only, Common (the chart has no entry for them)."""
    text = WARBANDS_1B.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ((?:\w+ )+Style) \| .+ \| (\d+) gc \|$", text, flags=re.M)
    return {_snake(name): Terms(name, int(price), None, None) for name, price in rows}


@cache
def special_equipment(heading: str) -> dict[str, Terms]:
    """{name: Terms} of a Grade 1c list's own Special Equipment ("**Hedonist Whip** — Cost:
    15 gc · Availability: Common (Heroes only)"), in its section ("## heading — …")."""
    text = WARBANDS_1C.read_text(encoding="utf-8")
    text = text[text.index(f"## {heading} — ") :]
    text = text[: text.find("\n## ", 1)]
    pattern = r"^\*\*(.+?)\*\*(?: \(.+?\))? — Cost: (\d+) gc · Availability: (Common|Rare \d+)"
    rows = re.findall(pattern, text, flags=re.M)
    return {name: Terms(name, int(price), None, _rarity(rare)) for name, price, rare in rows}


def terms_of(key: str) -> Terms | None:
    """The chapter's terms for a catalogue item: its own entry, a gromril or ithilmar
    weapon's (the multiple of its weapon's price, at the metal's rarity), or an upgraded
    weapon's (``dark_elf_blade_sword``: the sword's price and the upgrade's, at its rarity);
    or a Pit Fighters' fighting style as their chapter prices it."""
    terms = chapter_terms()
    if key in fighting_styles():
        return fighting_styles()[key]
    if key in terms and key not in UPGRADES:
        return terms[key]
    if key in LIST_OWN:
        heading, name = LIST_OWN[key]
        return special_equipment(heading)[name]
    for upgrade in UPGRADES:
        base = key.removeprefix(f"{upgrade}_")
        if base != key and base in terms and upgrade in terms:
            rule = terms[upgrade]
            return Terms(f"{upgrade} {base}", rule.price + terms[base].price, None, rule.rarity)
    for metal in ("gromril", "ithilmar"):
        base = key.removeprefix(f"{metal}_")
        if base != key and base in terms and f"{metal}_weapon" in terms:
            rule = terms[f"{metal}_weapon"]
            return Terms(f"{metal} {base}", rule.price * terms[base].price, None, rule.rarity)
    return None


@cache
def exploration_text() -> str:
    """The campaigns chapter from its exploration chart to the trading rules."""
    if not CAMPAIGNS.exists():
        pytest.skip(f"the rule texts are not at {CAMPAIGNS}")
    text = CAMPAIGNS.read_text(encoding="utf-8")
    return text[text.index("### exploration chart") : text.index("## Trading Rules")]


@cache
def magical_artefacts() -> tuple[str, ...]:
    """The names of the Magical Artefacts table ("#### 4 Bow of Seeking")."""
    return tuple(re.findall(r"^#### \d (.+)$", exploration_text(), flags=re.MULTILINE))


def _plain(name: str) -> str:
    name = name.lower().replace("&", "and").replace("’", "'")
    return re.sub(r"\s+", " ", name.removeprefix("the ")).strip()


def found_in_exploration(key: str, name: str) -> bool:
    """The item is something the exploration chart finds: a magical artefact of its table,
    or one of ``FINDS`` as the chart words it."""
    if _plain(name) in {_plain(artefact) for artefact in magical_artefacts()}:
        return True
    return key in FINDS and FINDS[key] in exploration_text()
