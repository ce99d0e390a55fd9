"""The Grade 1b and 1c warband lists against their rule texts, entry by entry.

``../shared/rules/reference/warbands-grade-1b-part1.md``, ``-part2.md`` and
``warbands-grade-1c.md`` are read as they print each list: its starting gold and size, every
hero and henchman heading with its cost and numbers and the profile under it, the starting
experience, the Skill Table and the equipment lists. Where the app departs from the text the
exception is named here and its reason written in the list's ``warbands/data/lists/`` file.
Each list is mustered in ``test_grade_1b_1c_musters``."""

import json
import re
from itertools import takewhile
from pathlib import Path

import pytest

from tests.warbands.rule_text_files import skill_table_line, text_files
from tests.warbands.rule_texts import norm, option_heading
from warbands.data.convert_bsdata import BSDATA_DIR, LIST_SPECS
from warbands.models import EquipmentListEntry, WarbandType, WarriorType

pytestmark = pytest.mark.django_db
REFERENCE = BSDATA_DIR.parents[1] / "rules" / "reference"
SPECS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(LIST_SPECS.glob("*.json"))]
TEXTS = text_files(SPECS)  # the chapters, and the core one for the Ostermarkers
# The app's list: (the text's section heading, its grade), from each list's spec ("section");
# one heading may print several lists (the Tileans: a list per city).
SECTIONS = {spec["key"]: (spec["section"].split(" — ")[0], spec["grade"]) for spec in SPECS}
# What a city's own rules change in the section it shares: its Skill Table is the one headed
# with its name ("Tilean Skill Table — Miragleans", or the one it borrows: ``rule_text_files``),
# the gold it adds (Trantios: 100 gc for a one-off game, a fifth more in a campaign: 600),
GOLD_ADDED = {"trantios": 100}
# the heroes whose Leadership it raises by one (the Remasen officers).
LEADERSHIP_ADDED = {"remasens": ("Captain", "Champion", "Youngblood")}
CITY = {spec["key"]: spec["name"] for spec in SPECS}
# The app's equipment lists: the text's list they print, and the parts of it left out (each
# spec's equipment list names them: "text_list", "text_left_out"): a part ("Armour") or an
# item as printed ("Serpent Staff*", marked for another warrior only).
EQUIPMENT_LISTS = {
    (spec["key"], row["key"]): (row["text_list"], tuple(row.get("text_left_out", ())))
    for spec in SPECS
    for row in spec["equipment_lists"]
}
# Items a text names its own way, and the chart's item the app sells for them.
ITEM_ALIASES = {
    "Throwing Axes": "Throwing knives",  # Norse: "same as Throwing Knives"
    "Cutlass": "Sword",  # Pirates: "Cutlass (Sword)"
    "Throwing Axe": "Throwing knives",  # Hochland Bandits: the Norse reading (README)
    "Staff": "Club",  # Tomb Guardians: the chart has no staff; a club (as "Staff/Club/Mace")
    "Choppa": "Morning star",  # Black Orcs: "Choppa (Counts as a Morning star)"
    # Amazons (Lustria): the chart's own entry, apart from the Mordheim Amazons' Sunstaff
    "Sunstaff (Lustria)": "Sunstaff (Lustria)",
    "Stone Axe": "Club",  # Lizardmen: "Stone Axe (counts as a club)"
    "Bone Helmet": "Helmet",  # Lizardmen: the chart has no bone helmet; read as a helmet
    "Two-handed weapon": "Double-handed weapon",  # Forest Goblins: the chart's name
    "Throwing Weapons": "Throwing knives",  # Forest Goblins: the chart's thrown weapon
    "Horse": "Riding",  # Bretonnians: the chart's "Riding/draft horse" (read up to its "/")
    "Staff/Club/Mace": "Club",  # Outlaws of Stirwood Forest: one line, the chart's club
    "Pike": "Pike (Tileans)",  # Tileans: the chart's own entry, apart from the Caravans' pike
    "Hunting Rifle": "Hochland long rifle",  # Tileans: the chart's hunting rifle
    "Pigeon Bombs": "Hersten-Wenkler pigeon bombs",  # Gunnery School: the chart's full name
    "Throwing stars": "Throwing knives",  # Battle Monks: the chart's "Throwing knives/stars"
    # Battle Monks, Merchant Caravans: the chart's name
    "Cathayan silk cloak": "Cathayan silk clothes",
    "Obsidian weapon": "Sons of Hashut obsidian weapon",  # The Sons of Hashut: their own
    "Hunting rifle": "Hochland long rifle",  # The Cursed Cavalcade: as the Tileans' own
    "Long rifle": "Hochland long rifle",  # Court of the Profane Pleasures: the chart's
    "Holy Relic": "Holy",  # Chapel Guard: the chart's "Holy/unholy relic" (read up to its "/")
    "Ball & Chain": "Ball and Chain",  # Night Goblins: the chart's name
    "Cleaver (counts as axe)": "Axe",  # Maneaters: the chart's axe, not the cook's cleaver
    "Pike*": "Pike (Merchant Caravans)",  # Merchant Caravans: the chart's own, not the Tileans'
}
# The same, for one list only (another list prints the name for another item).
LIST_ALIASES = {
    # Chapel Guard: 30 gc, the Bretonnian barding (the Outriders' "Barding" is the chart's)
    "bretonnian_chapel_guard": {"Barding": "Bretonnian barding"},
    "lustrian_reavers": {"Warhound": "Wardog"},  # the chart's (and the data set's) name
}
# Upgrades a text prices on its list, and the upgraded weapons the app sells as items: the
# app's name for each weapon of the list's part it upgrades, and its price from the weapon's.
UPGRADES = {
    # Dark Elves: "Dark Elf Blade (weapon upgrade, Heroes only) +15 gc", a sword or dagger
    "Dark Elf Blade": (("Sword", "Dagger"), "Dark Elf blade ({})", lambda price, up: price + up),
    # Shadow Warriors: "Ithilmar weapon* 2 x price", every weapon of the part
    "Ithilmar weapon": (None, "Ithilmar {}", lambda price, times: price * times),
    # Pit Fighters: "Gromril Weapon* 3 times the cost", every weapon of the part
    "Gromril Weapon": (None, "Gromril {}", lambda price, times: price * times),
    # Dwarf Rangers: "Gromril weapon* 3× the cost", every weapon of the part
    "Gromril weapon": (None, "Gromril {}", lambda price, times: price * times),
}
# Items a text prints as one row that the chart sells apart, each at the row's price.
SPLIT_ITEMS = {
    "Mace/Hammer": ("Mace", "Hammer"),  # Horned Hunters
}
# Pistols a text prices without a brace: the app sells the brace too, at twice the price
# (the core rules: a brace is two pistols), as for every list converted.
BRACED = ("Pistol",)
# Warriors a text names two ways: the name of its lists and tables, and its heading's.
NAMES = {
    "Pit Fighter Troll Slayer": "Dwarf Troll Slayer",  # Pit Fighters
    "Pit Fighter Veterans": "Pit Veteran",  # Pit Fighters
    "Underclassmen classmen": "Underclassmen",  # Gunnery School of Nuln: a slip of the text
    "Slaaneshi Wretches": "Slaaneshi Wretch",  # Court of the Profane Pleasures: "-es"
    "Bosses": "Boss",  # Night Goblins: the heading's plural of the Skill Table's Boss
}
# Items a warrior's own entry sells besides the text's list ("In addition, he may be armed
# with a pistol for 15 GC"): {(list, app list): {item: (price, first free, heroes only)}}.
EXTRAS = {
    ("mootlanders", "moot_elder"): {
        "Pistol": (15, False, False),
        "Brace of pistols": (30, False, False),
    },
    # Imperial Outriders: "may be upgraded to a Warhorse for an additional +40 gc"
    ("imperial_outriders", "outriders_knight"): {"Warhorse": (40, False, False)},
    ("imperial_outriders", "outriders_outrider"): {"Warhorse": (40, False, False)},
}
CORE_SKILLS = ("combat", "shooting", "academic", "strength", "speed", "special")
# The parts of an equipment list, as the texts head them (in bold or plain).
PARTS = ("Hand-to-Hand Combat Weapons", "Missile Weapons", "Armour", "Miscellaneous Equipment")


def sections() -> dict[str, list[str]]:
    """{list key: the lines of its section} for every list of ``SECTIONS``."""
    found: dict[str, list[str]] = {}
    for name in TEXTS:
        path = Path(REFERENCE / name)
        if not path.exists():
            pytest.skip(f"the rule texts are not at {path}")
        keys = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("## "):
                heading = line[3:].split(" — ")[0]
                keys = [key for key, (name, _) in SECTIONS.items() if name == heading]
                for key in keys:
                    found[key] = []
            else:
                for key in keys:
                    found[key].append(line)
    assert set(found) == set(SECTIONS), "a list's section is missing"
    return found


def subsection(lines: list[str], title: str) -> list[str]:
    """The lines under ``### title``, up to the next heading of that level or above."""
    start = lines.index(f"### {title}") + 1
    end = next((n for n in range(start, len(lines)) if lines[n].startswith(("## ", "### "))),
               len(lines))  # fmt: skip
    return lines[start:end]


def find(key: str, name: str) -> WarriorType:
    """The list's warrior the text names (a plural, "the", or one of "A/B" names), or the one
    warrior whose name ends with it (the Pirates' tables say "Captain" for "Pirate Captain")."""
    types = list(WarriorType.objects.filter(warband_type__key=key))
    name = NAMES.get(name, name)
    for part in name.split("/"):
        found = [t for t in types if norm(t.name) == norm(part)]
        found = found or [t for t in types if norm(t.name).endswith(norm(part))]
        if len(found) == 1:
            return found[0]
    for part in name.split("/"):  # "Sorceress" of the Skill Table: the "Dark Elf Sorceress"
        found = [t for t in types if norm(t.name).endswith(norm(part))]
        if len(found) == 1:
            return found[0]
    found = [t for t in types if norm(t.name).startswith(norm(name))]  # "Apprentice"
    if len(found) == 1:
        return found[0]
    raise AssertionError(f"{key}: no warrior {name!r}")


def headings(lines: list[str]):
    """(name, cost, (min, max), printed profile) for each "#### Name (…gold crowns…)", the
    numbers in the brackets ("0-2, 50 gold crowns", "1, 85 gold crowns", "4+, 15 gold crowns")
    or before the name ("#### 0–2 Footpads (…)", "#### 1 Bandit Prince", "#### 1+ Amazon
    Warriors"), or one where the section says the warband "must have one" of him ("must have
    one Emissary – no more, no less": Grade 1c); a profile's dash is 0, as the app stores it."""
    one = {norm(n) for line in lines for n in re.findall(r"must have one (.+?) [–-] no more", line)}
    text = " ".join(lines)
    entries, heading = [], None
    for line in lines:
        if (option := option_heading(line)) is not None:  # the Reavers' War Beasts
            entries.append(heading := option)
        elif line.startswith("#### ") and "gold crowns" in line:
            name, _, detail = line[5:].partition(" (")
            before = re.match(r"(\d+)(?:[-–](\d+)|(\+))? (.+)", name)
            counts = re.match(r"(\d+)[-–](\d+)", detail)
            bare = re.match(r"(\d+)(\+)?, ", detail)  # "(1, 85 gold crowns", "(4+, 15 …"
            must = re.search(rf"must have one {re.escape(name)}\b", text)
            if before and before[3]:  # "#### 1+ Amazon Warriors": at least one, no maximum
                name, count = before[4], (int(before[1]), None)
            elif before:
                name, count = before[4], (int(before[1]), int(before[2] or before[1]))
            elif counts:
                count = (int(counts[1]), int(counts[2]))
            elif bare:
                count = (int(bare[1]), None if bare[2] else int(bare[1]))
            elif norm(name) in one or must:
                count = (1, 1)
            else:
                count = (1, 1) if "required" in detail else (0, None)
            heading = [name, int(re.search(r"(\d+) gold crowns", detail)[1]), count, None]
            entries.append(heading)
        elif heading and heading[3] is None and line.startswith("| Base"):
            # the Court's Devout: a "Base*" row above his two forms, which the roster holds
            line = "|" + line.split("|", 2)[2]
        if heading and heading[3] is None and line.startswith("| ") and line[2:3].isdigit():
            # "-" (no value) is 0, "2*" is 2; a roll ("D6", "2D6", "D6+1") is 0, its rule
            # saying the dice (the Marauders' Condemned and Spawn)
            cells = [
                "" if "D" in c else re.match(r"\d*", c.strip())[0]
                for c in line.strip("|").split("|")
            ]
            heading[3] = [int(c or 0) for c in cells]
    return entries


def test_each_list_is_loaded_with_its_grade_gold_and_size():
    for key, lines in sections().items():
        warband_type = WarbandType.objects.get(key=key)
        choice = " ".join(subsection(lines, "Choice of Warriors"))
        # "You have 500 gold crowns", "You start with 500 warp tokens" (Clan Pestilens),
        # "You have 500 gcs" (Amazons, Lizardmen), "You have 500 points" (Tileans), "You
        # start with 500gc" (Chapel Guard)
        printed = r"You (?:have|start with) (\d+) ?(?:gold crowns|warp tokens|gcs?|points)"
        gold = int(re.search(printed, choice, re.IGNORECASE)[1]) + GOLD_ADDED.get(key, 0)
        # "may never exceed 15", "a maximum of 15 models", "maximum number of models … is 15",
        # "may not exceed 12" (The Restless Dead)
        size = re.search(
            r"(?:may (?:never|not) exceed|a maximum of|in the warband is) (\d+)", choice
        )
        size = size or re.search(
            r"maximum number of \w+ [^.]*?(?:may (?:never|not initially) exceed|is) (\d+)",
            choice,
            re.I,
        )
        size = int(size[1])
        assert (warband_type.starting_gold, warband_type.max_warriors) == (gold, size), key
        assert warband_type.grade == SECTIONS[key][1]


def test_every_warrior_of_the_text_has_its_cost_numbers_and_profile():
    for key, lines in sections().items():
        checked = set()
        for name, cost, count, profile in headings(lines):
            warrior = find(key, name)
            assert (warrior.cost, (warrior.min_count, warrior.max_count)) == (cost, count), name
            if name in LEADERSHIP_ADDED.get(key, ()):
                profile = [*profile[:-1], profile[-1] + 1]
            assert [value for _, value in warrior.profile_cells()] == profile, name
            checked.add(warrior.pk)
        everyone = WarriorType.objects.filter(warband_type__key=key).values_list("pk", flat=True)
        assert checked == set(everyone), f"{key}: a warrior the text does not print"


def starting_experience(lines: list[str]):
    """(names, experience) per line of "Starting Experience": "Berserkers & the Wulfen start
    with 11 experience"; "Henchmen" names every henchman (the Arabians and the Mootlanders print
    "Experience"). The Grade 1c texts print one paragraph ("**Starting Experience:** An
    Emissary starts with 20 Experience. Dragon Monks start with 15 Experience. …"; "20
    exp."): a line per sentence."""
    if "### Starting Experience" in lines:
        told = subsection(lines, "Starting Experience")
    else:
        paragraph = next(x for x in lines if x.startswith("**Starting Experience:**"))
        told = ["- " + x for x in re.split(r"(?<=\.) ", paragraph.partition(":** ")[2])]
    for line in told:
        found = re.match(r"- (?:An? |The )?(.+?) starts? with (\d+) exp", line, re.I)
        if found:
            names = re.split(r" & | and |, ", found[1])
            yield [re.sub(r"^(?:an?|the|all) ", "", n, flags=re.I) for n in names], int(found[2])


# Lists that name some henchmen, not "Henchmen", in Starting Experience: the rest start at 0.
HENCHMEN_UNNAMED = {"the_restless_dead"}


def test_every_warrior_starts_with_the_experience_the_text_gives():
    for key, lines in sections().items():
        told = {}
        if key in HENCHMEN_UNNAMED:
            kin = WarriorType.objects.filter(warband_type__key=key, kind="henchman")
            told |= {t.pk: 0 for t in kin}
        for names, experience in starting_experience(lines):
            for name in names:
                # "All Henchmen"; the Amazons' "Henchwomen"
                if norm(name).removeprefix("all") in (norm("Henchmen"), norm("Henchwomen")):
                    kin = WarriorType.objects.filter(warband_type__key=key, kind="henchman")
                    told |= {t.pk: experience for t in kin}
                else:
                    told[find(key, name).pk] = experience
        types = WarriorType.objects.filter(warband_type__key=key)
        assert told == {t.pk: t.starting_experience for t in types}, key


def test_every_heroes_skill_lists_are_the_texts_skill_table():
    for key, lines in sections().items():
        start = skill_table_line(key, CITY[key], lines)
        rest = list(takewhile(lambda line: not line.startswith("### "), lines[start + 1 :]))
        heroes = set(
            WarriorType.objects.filter(warband_type__key=key, kind="hero").values_list(
                "pk", flat=True
            )
        )
        if not any(line.startswith("|") for line in rest):  # the Court: "no skill table"
            assert not WarriorType.skill_lists.through.objects.filter(
                warriortype_id__in=heroes
            ).exists(), key
            continue
        first = next(n for n, line in enumerate(rest) if line.startswith("|"))
        table = list(takewhile(lambda line: line.startswith("|"), rest[first:]))
        # "Academic*": a footnote's star (Dwarf Rangers: never Arcane Lore); so is a tick's
        # ("✓*", Night Goblins (web): only the leader takes Strength), but a starred Special
        # is no list (the Forest Goblins' Brave gives up animosity instead)
        columns = [c.strip().strip("*").lower() for c in table[0].strip("|").split("|")]
        # a list's own table under another name is its special list (the Outriders' Cavalry)
        columns = [c if c in CORE_SKILLS or not c else "special" for c in columns]
        ticked_heroes = set()
        for row in table[2:]:
            cells = [c.strip() for c in row.strip("|").split("|")]
            marks = zip(columns, cells, strict=True)
            ticked = {c for c, v in marks if v == "✓" or (v == "✓*" and c != "special")}
            hero = find(key, cells[0])
            lists = list(hero.skill_lists.all())
            assert {s.key for s in lists if s.warband_type_id is None} == ticked - {"special"}
            assert any(s.warband_type_id for s in lists) == ("special" in ticked), cells[0]
            ticked_heroes.add(hero.pk)
        assert ticked_heroes == heroes, key


def text_equipment_lists(lines: list[str]) -> dict[str, dict[str, dict[str, str]]]:
    """{text list: {part ("Armour"…): {item as printed: cost as printed}}} from the tables
    under "**Hero Equipment List — Armour**", or under a part of the list named last
    ("**Dark Elf Equipment List**"; "Equipment List" if none is): a part of ``PARTS`` in
    plain or bold text, or any plain line after a list's name ("Missile Weapons" after
    "**Bandit Equipment List**"). Another bold line ("**Swivel Gun Ammo**") ends the list
    before it; "Armour: None." prints no part. A list of fixed loadouts ("**Pit Fighter
    Equipment List (fixed loadouts, choose one style)**", a table "| Style | Loadout | Cost |")
    is one part, "Styles", each style an item at its cost."""
    lists: dict[str, dict[str, dict[str, str]]] = {}
    current, part = None, None
    for line in subsection(lines, "Equipment Lists"):
        title = line.strip().strip("*")
        # "**Horned Hunter Equipment List** (Heroes)": a note after the bold name
        heading = re.match(r"\*\*(.+?)(?: — (.+))?\*\*(?: \(.+\))?$", line)
        plain = line.strip() and not line.startswith(("|", "*")) and ":" not in line
        if heading and heading[2]:
            current = heading[1] if heading[1].endswith("List") else None
            part = lists.setdefault(heading[1], {}).setdefault(heading[2], {})
        # the Outriders' own parts: "**Outrider Missile Weapons**", "**Scout Missile Weapons**"
        elif title in PARTS or title.endswith(" Missile Weapons") or (current and plain):
            part = lists.setdefault(current or "Equipment List", {}).setdefault(title, {})
        elif heading:
            name = heading[1].split(" (")[0]
            current, part = (name if name.endswith("List") else None), None
        elif current and line.startswith("| Style |"):
            part = lists.setdefault(current, {}).setdefault("Styles", {})
        elif part is not None and line.startswith("| ") and not line.startswith("| Item"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            part[cells[0]] = cells[-1]  # "| Item | Cost |", "| Style | Loadout | Cost |"
    return lists


BRACE = r"\((\d+)(?: gc)? for a brace\)"  # "(30 for a brace)", "(60 gc for a brace)"


def _price(cost: str) -> int:
    """The price as printed: "10 gc", "1st free/2 gc", "15 gc (30 gc for a brace)", "65 gc (Rare
    8; …)", or a multiple with no "gc" ("2 x price")."""
    gold = re.search(r"(\d+) gc", cost)
    return int(gold[1]) if gold else int(re.findall(r"\d+", cost)[-1])


def expected_entries(
    printed, left_out, starred, aliases=ITEM_ALIASES
) -> dict[str, tuple[int, bool, bool]]:
    """{item: (price, first free, heroes only)} of a text's list (its parts as
    ``text_equipment_lists`` reads them), less the parts and items left out; an upgrade
    stands for the upgraded weapons (``UPGRADES``). "Heroes only" is printed in the item's
    brackets, or as a star where the list's footnote says so (``starred``)."""
    expected = {}
    for part, rows in printed.items():
        if part in left_out:
            continue
        prices = {item.split(" (")[0]: _price(c) for item, c in rows.items()}
        for item, cost in rows.items():
            printed_name = item.split(" (")[0].rstrip("*")
            if printed_name in left_out or item in left_out:
                continue
            price = _price(cost)
            heroes = "Heroes only" in item + cost or bool(starred and item.endswith(starred))
            brace = re.search(BRACE, cost)
            if brace:  # "15 gc (30 for a brace)": the brace is an item of its own
                expected[norm(f"Brace of {printed_name}s")] = (int(brace[1]), False, heroes)
            elif printed_name in BRACED:
                expected[norm(f"Brace of {printed_name}s")] = (2 * price, False, heroes)
            if printed_name in UPGRADES:
                weapons, named, priced = UPGRADES[printed_name]
                for weapon in (w for w in weapons or prices if w in prices and w != item):
                    upgraded = priced(prices[weapon], price)
                    expected[norm(named.format(weapon))] = (upgraded, False, heroes)
                continue
            for one in SPLIT_ITEMS.get(printed_name, (printed_name,)):
                name = norm(aliases.get(item, aliases.get(one, one)))
                expected[name] = (price, "free" in cost, heroes)
    return expected


def test_every_equipment_list_sells_what_the_text_prints_at_its_price():
    for key, lines in sections().items():
        printed = text_equipment_lists(lines)
        # The stars that mark an item heroes only: "\\* Heroes only", or the Outlaws'
        # "\\*\\* Available to Heroes only" (their single star is heroes and Marksmen).
        starred = "*" if any(line.startswith("\\* Heroes only") for line in lines) else ""
        if any("\\*\\* Available to Heroes only" in line for line in lines):
            starred = "**"
        for (list_key, app_list), (text_list, left_out) in EQUIPMENT_LISTS.items():
            if list_key != key:
                continue
            aliases = {**ITEM_ALIASES, **LIST_ALIASES.get(key, {})}
            expected = expected_entries(printed[text_list], left_out, starred, aliases)
            extras = EXTRAS.get((list_key, app_list), {})
            expected |= {norm(item): terms for item, terms in extras.items()}
            entries = EquipmentListEntry.objects.filter(
                equipment_list__warband_type__key=key, equipment_list__key=app_list
            ).select_related("item")
            offered = {
                norm(e.item.name.split("/")[0]): (e.price, e.first_free, e.heroes_only)
                for e in entries
            }
            assert offered == expected, (key, app_list)


def magic_section(name: str) -> list[str]:
    """The lines of "## Magic — <name>" in the campaigns chapter, or where a list prints its
    own ("### Dwarf Runes": "- **Rune of Stone:** … Difficulty 8.", numbered in order) the
    same as a D6 table and headings."""
    lines = (REFERENCE / "03-campaigns-magic-optional-rules.md").read_text(encoding="utf-8")
    lines = lines.splitlines()
    if f"## Magic — {name}" not in lines:
        own = [row for lines in sections().values() if f"### {name}" in lines
               for row in subsection(lines, name)]  # fmt: skip
        printed = [re.match(r"- \*\*(.+?):\*\* .*Difficulty (\d+)\.$", r) for r in own]
        printed = [p for p in printed if p]
        table = [f"| {n} | {p[1]} |" for n, p in enumerate(printed, start=1)]
        return table + [x for p in printed for x in (f"#### {p[1]}", f"*Difficulty: {p[2]}*")]
    start = lines.index(f"## Magic — {name}") + 1
    end = next((n for n in range(start, len(lines)) if lines[n].startswith("## ")), len(lines))
    return lines[start:end]


# Spell lists the campaigns chapter heads its own way: the app's name, the chapter's. The
# Restless Dead's Necromancy prints one D6 row for two spells ("Death Visage/Living Horror"),
# each its caster's own (headed "Living Horror (Liche only)"): the app has a list per caster.
MAGIC_NAMES = {
    "Waaagh! Magic": "Waaaagh! Magic",
    "Necromancy (Restless Dead Liche)": "Necromancy (The Restless Dead)",
    "Necromancy (Restless Dead Necromancer)": "Necromancy (The Restless Dead)",
}
STARTING_SPELLS = {("the_restless_dead", "liche"): 2}  # casters of more than one spell


def test_every_casters_spell_list_is_the_texts_table_with_its_difficulties():
    """Each caster's list, spell by spell: the D6 table and each spell's printed difficulty
    (names compared by their letters: "Led'z Go!" is the table's "Led'z go")."""
    casters = WarriorType.objects.filter(
        warband_type__key__in=list(SECTIONS), spell_list__isnull=False
    ).select_related("spell_list")
    assert casters, "no caster in the lists"
    for caster in casters:
        name = caster.spell_list.name
        lines = magic_section(MAGIC_NAMES.get(name, name))
        table = {}
        # the D6 table above the spells (a spell may print a table of its own: Chaos Rituals)
        for line in takewhile(lambda line: not line.startswith("#### "), lines):
            row = re.match(r"\| (\d) \| (.+?) \|$", line)
            if row:
                table[int(row[1])] = row[2]
        difficulty, own = {}, {}
        for n, line in enumerate(lines):
            if line.startswith("#### "):
                printed = next(x for x in lines[n + 1 :] if x.strip())
                found = re.fullmatch(r"\*Difficulty: (\d+|Auto)\*", printed)
                heading, _, only = line[5:].partition(" (")
                difficulty[heading.lower()] = int(found[1]) if found[1].isdigit() else None
                if only.endswith(" only)") and norm(caster.name) == norm(only[: -len(" only)")]):
                    own[heading.lower()] = heading  # "Living Horror (Liche only)"
        for d6, name in table.items():
            if "/" in name:  # "Death Visage/Living Horror": the caster's own of the two
                (table[d6],) = own.values()
        # the table and the headings may differ in case ("scroll" and "Scroll")
        expected = {d6: (norm(name), difficulty[name.lower()]) for d6, name in table.items()}
        spells = caster.spell_list.spells.all()
        assert {s.d6: (norm(s.name), s.difficulty) for s in spells} == expected, caster.name
        told = STARTING_SPELLS.get((caster.warband_type.key, caster.key), 1)
        assert caster.starting_spells == told, caster.name
