"""The Grade 1b and 1c warband lists against their rule texts, entry by entry, and mustered.

``../shared/rules/reference/warbands-grade-1b-part1.md``, ``-part2.md`` and
``warbands-grade-1c.md`` are read as they print each list: its starting gold and size, every
hero and henchman heading with its cost and numbers and the profile under it, the starting
experience, the Skill Table and the equipment lists. Where the app departs from the text the
exception is named here and its reason written in the list's ``warbands/data/lists/`` file.
Then a legal starting warband of each list musters through the real services, and one
illegal choice per list is refused and changes nothing."""

import json
import re
from itertools import takewhile
from pathlib import Path

import pytest

from tests.factories import WarbandFactory, finish, hire
from tests.warbands.test_grade_1a_rule_texts import _norm
from tests.warbands.test_muster import refused
from warbands import hired_swords, services
from warbands.data.convert_bsdata import BSDATA_DIR, LIST_SPECS
from warbands.models import EquipmentListEntry, HiredSwordType, WarbandType, WarriorType

pytestmark = pytest.mark.django_db
REFERENCE = BSDATA_DIR.parents[1] / "rules" / "reference"
TEXTS = ("warbands-grade-1b-part1.md", "warbands-grade-1b-part2.md", "warbands-grade-1c.md")
SPECS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(LIST_SPECS.glob("*.json"))]
# The text's section heading: (the app's list, its grade), from each list's spec ("section").
SECTIONS = {spec["section"].split(" — ")[0]: (spec["key"], spec["grade"]) for spec in SPECS}
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
    # Amazons (Lustria): the chart's own entry, apart from the Mordheim Amazons' Sunstaff
    "Sunstaff (Lustria)": "Sunstaff (Lustria)",
}
# Upgrades a text prices on its list, and the upgraded weapons the app sells as items: the
# app's name for each weapon of the list's part it upgrades, and its price from the weapon's.
UPGRADES = {
    # Dark Elves: "Dark Elf Blade (weapon upgrade, Heroes only) +15 gc", a sword or dagger
    "Dark Elf Blade": (("Sword", "Dagger"), "Dark Elf blade ({})", lambda price, up: price + up),
    # Shadow Warriors: "Ithilmar weapon* 2 x price", every weapon of the part
    "Ithilmar weapon": (None, "Ithilmar {}", lambda price, times: price * times),
}
# The parts of an equipment list, as the texts head them (in bold or plain).
PARTS = ("Hand-to-Hand Combat Weapons", "Missile Weapons", "Armour", "Miscellaneous Equipment")


def sections() -> dict[str, list[str]]:
    """{list key: the lines of its section} for every list of ``SECTIONS``."""
    found: dict[str, list[str]] = {}
    for name in TEXTS:
        path = Path(REFERENCE / name)
        if not path.exists():
            pytest.skip(f"the rule texts are not at {path}")
        key = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("## "):
                key = SECTIONS.get(line[3:].split(" — ")[0], (None,))[0]
                if key:
                    found[key] = []
            elif key:
                found[key].append(line)
    assert set(found) == {key for key, _ in SECTIONS.values()}, "a list's section is missing"
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
    for part in name.split("/"):
        found = [t for t in types if _norm(t.name) == _norm(part)]
        found = found or [t for t in types if _norm(t.name).endswith(_norm(part))]
        if len(found) == 1:
            return found[0]
    for part in name.split("/"):  # "Sorceress" of the Skill Table: the "Dark Elf Sorceress"
        found = [t for t in types if _norm(t.name).endswith(_norm(part))]
        if len(found) == 1:
            return found[0]
    raise AssertionError(f"{key}: no warrior {name!r}")


def headings(lines: list[str]):
    """(name, cost, (min, max), printed profile) for each "#### Name (…gold crowns…)", the
    numbers in the brackets ("0-2, 50 gold crowns") or before the name ("#### 0–2 Footpads
    (…)", "#### 1 Bandit Prince", "#### 1+ Amazon Warriors"); a profile's dash is 0, as the
    app stores it."""
    entries, heading = [], None
    for line in lines:
        if line.startswith("#### ") and "gold crowns" in line:
            name, _, detail = line[5:].partition(" (")
            before = re.match(r"(\d+)(?:[-–](\d+)|(\+))? (.+)", name)
            counts = re.match(r"(\d+)[-–](\d+)", detail)
            if before and before[3]:  # "#### 1+ Amazon Warriors": at least one, no maximum
                name, count = before[4], (int(before[1]), None)
            elif before:
                name, count = before[4], (int(before[1]), int(before[2] or before[1]))
            elif counts:
                count = (int(counts[1]), int(counts[2]))
            else:
                count = (1, 1) if "required" in detail else (0, None)
            heading = [name, int(re.search(r"(\d+) gold crowns", detail)[1]), count, None]
            entries.append(heading)
        elif heading and heading[3] is None and line.startswith("| ") and line[2:3].isdigit():
            cells = [re.match(r"\d*", c.strip())[0] for c in line.strip("|").split("|")]
            heading[3] = [int(c or 0) for c in cells]  # "-" (no value) is 0, "2*" is 2
    return entries


def test_each_list_is_loaded_with_its_grade_gold_and_size():
    for key, lines in sections().items():
        warband_type = WarbandType.objects.get(key=key)
        choice = " ".join(subsection(lines, "Choice of Warriors"))
        # "You have 500 gold crowns", "You start with 500 warp tokens" (Clan Pestilens),
        # "You have 500 gcs" (Amazons)
        gold = int(re.search(r"You (?:have|start with) (\d+) (?:gold crowns|warp tokens|gcs)",
                             choice, re.IGNORECASE)[1])  # fmt: skip
        # "may never exceed 15", "a maximum of 15 models", "maximum number of models … is 15"
        size = re.search(r"(?:may never exceed|a maximum of|in the warband is) (\d+)", choice)
        size = size or re.search(
            r"maximum number of \w+ [^.]*?(?:may never exceed|is) (\d+)", choice, re.I
        )
        size = int(size[1])
        assert (warband_type.starting_gold, warband_type.max_warriors) == (gold, size), key
        assert warband_type.grade == dict(SECTIONS.values())[key]


def test_every_warrior_of_the_text_has_its_cost_numbers_and_profile():
    for key, lines in sections().items():
        checked = set()
        for name, cost, count, profile in headings(lines):
            warrior = find(key, name)
            assert (warrior.cost, (warrior.min_count, warrior.max_count)) == (cost, count), name
            assert [value for _, value in warrior.profile_cells()] == profile, name
            checked.add(warrior.pk)
        everyone = WarriorType.objects.filter(warband_type__key=key).values_list("pk", flat=True)
        assert checked == set(everyone), f"{key}: a warrior the text does not print"


def starting_experience(lines: list[str]):
    """(names, experience) per line of "Starting Experience": "Berserkers & the Wulfen start
    with 11 experience"; "Henchmen" names every henchman."""
    for line in subsection(lines, "Starting Experience"):
        found = re.match(r"- (?:An? )?(.+?) starts? with (\d+) experience", line)
        if found:
            names = re.split(r" & | and |, ", found[1])
            yield [re.sub(r"^(?:an?|the|all) ", "", n, flags=re.I) for n in names], int(found[2])


def test_every_warrior_starts_with_the_experience_the_text_gives():
    for key, lines in sections().items():
        told = {}
        for names, experience in starting_experience(lines):
            for name in names:
                # "All Henchmen"; the Amazons' "Henchwomen"
                if _norm(name).removeprefix("all") in (_norm("Henchmen"), _norm("Henchwomen")):
                    kin = WarriorType.objects.filter(warband_type__key=key, kind="henchman")
                    told |= {t.pk: experience for t in kin}
                else:
                    told[find(key, name).pk] = experience
        types = WarriorType.objects.filter(warband_type__key=key)
        assert told == {t.pk: t.starting_experience for t in types}, key


def test_every_heroes_skill_lists_are_the_texts_skill_table():
    for key, lines in sections().items():
        start = next(n for n, line in enumerate(lines) if line.endswith("Skill Table**"))
        rest = lines[start + 1 :]
        first = next(n for n, line in enumerate(rest) if line.startswith("|"))
        table = list(takewhile(lambda line: line.startswith("|"), rest[first:]))
        columns = [c.strip().lower() for c in table[0].strip("|").split("|")]
        heroes = set()
        for row in table[2:]:
            cells = [c.strip() for c in row.strip("|").split("|")]
            ticked = {c for c, v in zip(columns, cells, strict=True) if v == "✓"}
            hero = find(key, cells[0])
            lists = list(hero.skill_lists.all())
            assert {s.key for s in lists if s.warband_type_id is None} == ticked - {"special"}
            assert any(s.warband_type_id for s in lists) == ("special" in ticked), cells[0]
            heroes.add(hero.pk)
        assert heroes == set(
            WarriorType.objects.filter(warband_type__key=key, kind="hero").values_list(
                "pk", flat=True
            )
        ), key


def text_equipment_lists(lines: list[str]) -> dict[str, dict[str, dict[str, str]]]:
    """{text list: {part ("Armour"…): {item as printed: cost as printed}}} from the tables
    under "**Hero Equipment List — Armour**", or under a part of the list named last
    ("**Dark Elf Equipment List**"; "Equipment List" if none is): a part of ``PARTS`` in
    plain or bold text, or any plain line after a list's name ("Missile Weapons" after
    "**Bandit Equipment List**"). Another bold line ("**Swivel Gun Ammo**") ends the list
    before it; "Armour: None." prints no part."""
    lists: dict[str, dict[str, dict[str, str]]] = {}
    current, part = None, None
    for line in subsection(lines, "Equipment Lists"):
        title = line.strip().strip("*")
        heading = re.match(r"\*\*(.+?)(?: — (.+))?\*\*$", line)
        plain = line.strip() and not line.startswith(("|", "*")) and ":" not in line
        if heading and heading[2]:
            current = heading[1] if heading[1].endswith("List") else None
            part = lists.setdefault(heading[1], {}).setdefault(heading[2], {})
        elif title in PARTS or (current and plain):
            part = lists.setdefault(current or "Equipment List", {}).setdefault(title, {})
        elif heading:
            current, part = (title if title.endswith("List") else None), None
        elif part is not None and line.startswith("| ") and not line.startswith("| Item"):
            item, cost = (c.strip() for c in line.strip("|").split("|"))
            part[item] = cost
    return lists


BRACE = r"\((\d+) for a brace\)"


def _price(cost: str) -> int:
    """The price as printed: "10 gc", "1st free/2 gc", "15 gc (30 for a brace)", "65 gc (Rare
    8; …)", or a multiple with no "gc" ("2 x price")."""
    gold = re.search(r"(\d+) gc", cost)
    return int(gold[1]) if gold else int(re.findall(r"\d+", cost)[-1])


def expected_entries(printed, left_out, starred) -> dict[str, tuple[int, bool, bool]]:
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
            heroes = "Heroes only" in item + cost or (starred and item.endswith("*"))
            brace = re.search(BRACE, cost)
            if brace:  # "15 gc (30 for a brace)": the brace is an item of its own
                expected[_norm(f"Brace of {printed_name}s")] = (int(brace[1]), False, heroes)
            if printed_name in UPGRADES:
                weapons, named, priced = UPGRADES[printed_name]
                for weapon in (w for w in weapons or prices if w in prices and w != item):
                    upgraded = priced(prices[weapon], price)
                    expected[_norm(named.format(weapon))] = (upgraded, False, heroes)
                continue
            name = _norm(ITEM_ALIASES.get(item, ITEM_ALIASES.get(printed_name, printed_name)))
            expected[name] = (price, "free" in cost, heroes)
    return expected


def test_every_equipment_list_sells_what_the_text_prints_at_its_price():
    for key, lines in sections().items():
        printed = text_equipment_lists(lines)
        starred = any(line.startswith("\\* Heroes only") for line in lines)
        for (list_key, app_list), (text_list, left_out) in EQUIPMENT_LISTS.items():
            if list_key != key:
                continue
            expected = expected_entries(printed[text_list], left_out, starred)
            entries = EquipmentListEntry.objects.filter(
                equipment_list__warband_type__key=key, equipment_list__key=app_list
            ).select_related("item")
            offered = {
                _norm(e.item.name.split("/")[0]): (e.price, e.first_free, e.heroes_only)
                for e in entries
            }
            assert offered == expected, (key, app_list)


def magic_section(name: str) -> list[str]:
    """The lines of "## Magic — <name>" in the campaigns chapter."""
    lines = (REFERENCE / "03-campaigns-magic-optional-rules.md").read_text(encoding="utf-8")
    lines = lines.splitlines()
    start = lines.index(f"## Magic — {name}") + 1
    end = next((n for n in range(start, len(lines)) if lines[n].startswith("## ")), len(lines))
    return lines[start:end]


def test_every_casters_spell_list_is_the_texts_table_with_its_difficulties():
    """Each caster's list, spell by spell: the D6 table and each spell's printed difficulty."""
    casters = WarriorType.objects.filter(
        warband_type__key__in=[key for key, _ in SECTIONS.values()], spell_list__isnull=False
    ).select_related("spell_list")
    assert casters, "no caster in the lists"
    for caster in casters:
        lines = magic_section(caster.spell_list.name)
        table = {}
        for line in lines:
            row = re.match(r"\| (\d) \| (.+?) \|$", line)
            if row:
                table[int(row[1])] = row[2]
        difficulty = {}
        for n, line in enumerate(lines):
            if line.startswith("#### "):
                printed = next(x for x in lines[n + 1 :] if x.strip())
                found = re.fullmatch(r"\*Difficulty: (\d+|Auto)\*", printed)
                difficulty[line[5:].lower()] = int(found[1]) if found[1].isdigit() else None
        # the table and the headings may differ in case ("scroll" and "Scroll")
        expected = {d6: (name.lower(), difficulty[name.lower()]) for d6, name in table.items()}
        spells = caster.spell_list.spells.all()
        assert {s.d6: (s.name.lower(), s.difficulty) for s in spells} == expected, caster.name
        assert caster.starting_spells == 1, caster.name


# --- Mustered through the real services ----------------------------------------------------
# A legal starting warband of each list: (type, models, items) hires, and the gold left,
# summed by hand from the rule text's costs.
LEGAL = {
    "norse_explorers": (
        [
            ("jarl", 1, ["axe", "shield"]),
            ("berserker", 1, ["double_handed_weapon"]),
            ("wulfen", 1, []),
            ("wolf", 2, []),
            ("hunter", 2, ["javelins"]),
            ("marauder", 1, ["throwing_knives"]),
        ],
        500 - (70 + 5 + 5) - (50 + 15) - 90 - 2 * 15 - 2 * (25 + 5) - (25 + 15),
    ),
    "pirates": (
        [
            ("pirate_captain", 1, ["sword", "pistol"]),
            ("ships_mate", 1, ["cat_o_nine_tails", "boat_hook"]),
            ("cabin_boy", 1, ["belaying_pins"]),
            ("crew", 3, ["sword", "buckler"]),
            ("gunner", 1, ["swivel_gun"]),
            ("boatswain", 1, ["mace"]),
        ],
        500 - (60 + 10 + 15) - (35 + 8 + 8) - (15 + 3) - 3 * (25 + 10 + 5) - (25 + 65) - (32 + 3),
    ),
    "hochland_bandits": (
        [
            ("bandit_prince", 1, ["sword", "shield"]),
            ("footpad", 1, ["spear", "throwing_knives"]),
            ("duelist", 1, ["rapier", "pistol"]),
            ("huckster", 1, ["sling"]),
            ("thug", 2, ["axe"]),
            ("gutterscum", 3, ["spear"]),
            ("poacher", 1, ["bow"]),
        ],
        500
        - (60 + 10 + 5)
        - (45 + 10 + 15)
        - (45 + 15 + 20)
        - (40 + 2)
        - 2 * (30 + 5)
        - 3 * (10 + 10)
        - (35 + 10),
    ),
    "skaven_of_clan_pestilens": (
        [
            ("plague_priest", 1, ["sword"]),
            ("pestilens_sorcerer", 1, []),
            ("plague_monk", 1, ["censer"]),
            ("monk_initiate", 1, ["disease_dagger"]),
            ("plague_novice", 3, ["spear"]),
            ("giant_rat", 3, []),
        ],
        500 - (85 + 10) - 45 - (45 + 40) - (20 + 15) - 3 * (20 + 10) - 3 * 15,
    ),
    "tomb_guardians": (
        [
            ("tomb_lord", 1, ["sword", "bow", "asp_arrows"]),
            ("liche_priest", 1, ["serpent_staff"]),
            ("acolyte", 1, ["club"]),
            ("skeleton_warrior", 3, ["spear"]),
            ("tomb_guard", 2, ["halberd"]),
            ("tomb_scorpion", 2, []),
        ],
        500 - (150 + 10 + 10 + 10) - (55 + 30) - (20 + 3) - 3 * (20 + 10) - 2 * (30 + 10) - 2 * 15,
    ),
    "dark_elves": (
        [
            ("high_born", 1, ["dark_elf_blade_sword", "dark_venom"]),
            ("beastmaster", 1, ["beastlash"]),
            ("cold_one_beasthound", 2, []),
            ("sorceress", 1, []),
            ("shade", 2, ["repeater_crossbow"]),
        ],
        500 - (70 + 25 + 15) - (45 + 10) - 2 * 30 - 55 - 2 * (30 + 35),
    ),
    "shadow_warriors": (
        [
            ("shadow_master", 1, ["ithilmar_sword", "elf_bow"]),
            ("shadow_weaver", 1, ["elven_runestones"]),
            ("shadow_walker", 1, ["long_bow", "elven_cloak"]),
            ("shadow_warrior", 2, ["bow"]),
            ("shadow_warrior_novice", 1, ["spear"]),
        ],
        500 - (70 + 20 + 35) - (55 + 50) - (45 + 15 + 75) - 2 * (35 + 10) - (25 + 10),
    ),
    "amazons_mordheim": (
        [
            ("priestess", 1, ["club", "sunstaff"]),
            ("champion", 1, ["claw_of_the_old_ones"]),
            ("totem_warrior", 1, ["spear"]),
            ("amazon_warrior", 3, ["bow"]),
            ("scout", 2, ["javelins"]),
        ],
        500 - (70 + 3 + 50) - (35 + 30) - (30 + 10) - 3 * (25 + 10) - 2 * (30 + 5),
    ),
    "amazons_lustria": (
        [
            ("serpent_priestess", 1, ["starsword"]),
            ("eagle_warrior", 1, ["double_handed_weapon", "enchanted_skins"]),
            ("piranha_warrior", 1, ["bow"]),
            ("amazon_warrior", 3, ["sunstaff_lustria"]),
            ("jaguar_warrior", 2, ["bolas"]),
        ],
        500 - (70 + 30) - (35 + 15 + 20) - (30 + 10) - 3 * (25 + 35) - 2 * (30 + 5),
    ),
}


def _wolves_without_a_wulfen(w):
    hire(w, "jarl")
    return lambda: hire(w, "wolf", models=2)


def _a_cat_for_the_crew(w):
    crew = hire(w, "crew", models=2)
    return lambda: services.buy_item(crew, actor=w.owner, item_key="cat_o_nine_tails")


def _a_pistol_for_a_thug(w):
    thug = hire(w, "thug")
    return lambda: services.buy_item(thug, actor=w.owner, item_key="pistol")


def _a_novice_with_a_censer(w):
    novice = hire(w, "plague_novice")
    return lambda: services.buy_item(novice, actor=w.owner, item_key="censer")


def _an_acolyte_with_a_serpent_staff(w):
    acolyte = hire(w, "acolyte")
    return lambda: services.buy_item(acolyte, actor=w.owner, item_key="serpent_staff")


def _hounds_without_a_beastmaster(w):
    hire(w, "high_born")
    return lambda: hire(w, "cold_one_beasthound", models=1)


def _runestones_for_a_walker(w):
    hire(w, "shadow_master")
    walker = hire(w, "shadow_walker")
    return lambda: services.buy_item(walker, actor=w.owner, item_key="elven_runestones")


def _a_claw_for_an_amazon_warrior(w):
    hire(w, "priestess")
    warriors = hire(w, "amazon_warrior", models=2)
    return lambda: services.buy_item(warriors, actor=w.owner, item_key="claw_of_the_old_ones")


def _bolas_for_an_amazon_warrior(w):
    hire(w, "serpent_priestess")
    warriors = hire(w, "amazon_warrior", models=2)
    return lambda: services.buy_item(warriors, actor=w.owner, item_key="bolas")


# One illegal choice per list: the action, and the reason it is refused.
ILLEGAL = {
    "norse_explorers": (_wolves_without_a_wulfen, "Wolves may only join a Norse warband"),
    "pirates": (_a_cat_for_the_crew, "for heroes only"),
    # Powder's Expensive!: no henchman may buy blackpowder
    "hochland_bandits": (_a_pistol_for_a_thug, "not on Thug's equipment list"),
    # Clan Pestilens: the censer is on the heroes' list only.
    "skaven_of_clan_pestilens": (
        _a_novice_with_a_censer,
        "not on Plague Novice's equipment list",
    ),
    # Tomb Guardians: the serpent staff is the Liche Priest's alone.
    "tomb_guardians": (_an_acolyte_with_a_serpent_staff, "not on Acolyte's equipment list"),
    "dark_elves": (_hounds_without_a_beastmaster, "Cold One Beasthounds may only join"),
    "shadow_warriors": (_runestones_for_a_walker, "not on Shadow Walker's equipment list"),
    # Amazons (Mordheim): the Claw of the Old Ones is on the Heroines' list only.
    "amazons_mordheim": (
        _a_claw_for_an_amazon_warrior,
        "not on Amazon Warrior's equipment list",
    ),
    # Amazons (Lustria): bolas are on the Jaguar Warriors' list only.
    "amazons_lustria": (
        _bolas_for_an_amazon_warrior,
        "not on Amazon Warrior's equipment list",
    ),
}


def test_every_list_of_the_texts_has_a_legal_and_an_illegal_warband():
    assert set(LEGAL) == set(ILLEGAL) == {key for key, _ in SECTIONS.values()}


@pytest.mark.parametrize("key", sorted(LEGAL))
def test_a_legal_starting_warband_musters(key):
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))
    for type_key, models, items in LEGAL[key][0]:
        hire(warband, type_key, models=models, items=items)

    assert warband.gold_crowns == LEGAL[key][1]
    finish(warband)
    assert warband.status == "active"


@pytest.mark.parametrize("key", sorted(ILLEGAL))
def test_one_illegal_choice_per_list_is_refused(key):
    setup, reason = ILLEGAL[key]
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))

    refused(warband, setup(warband), reason)


def test_a_berserker_never_wears_armour():
    """Norse Explorers, Berserker: weapons from the hero list, never armour."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="norse_explorers"))
    berserker = hire(warband, "berserker")

    refused(
        warband,
        lambda: services.buy_item(berserker, actor=warband.owner, item_key="shield"),
        "not on Berserker's equipment list",
    )


def test_dark_elf_lists_keep_their_warriors_to_their_own_gear():
    """Dark Elves: the Beastlash is the Beastmaster's alone, Fellblades carry no missile
    weapon, and a Corsair buys no Dark Elf Blade (heroes only) but may wear a Sea Dragon
    Cloak."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="dark_elves"))
    high_born = hire(warband, "high_born")
    fellblade = hire(warband, "fellblade")
    corsair = hire(warband, "corsair", items=["sea_dragon_cloak"])

    for warrior, item, reason in [
        (high_born, "beastlash", "not on High Born's equipment list"),
        (fellblade, "repeater_crossbow", "not on Fellblade's equipment list"),
        (corsair, "dark_elf_blade_dagger", "heroes only"),
    ]:
        refused(
            warband,
            lambda w=warrior, i=item: services.buy_item(w, actor=warband.owner, item_key=i),
            reason,
        )
    assert "sea_dragon_cloak" in [i.item.key for i in corsair.items.all()]


def test_shadow_warrior_henchmen_buy_no_starred_item():
    """Shadow Warriors: the starred items of the list (ithilmar, the standard, the horn, the
    wine) are for heroes; the Elven cloak is for anyone."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="shadow_warriors"))
    hire(warband, "shadow_master", items=["standard_of_nagarythe", "ithilmar_armour"])
    novices = hire(warband, "shadow_warrior_novice", models=2, items=["elven_cloak"])

    for item in ("ithilmar_dagger", "war_horn_of_nagarythe", "elven_wine"):
        refused(
            warband,
            lambda i=item: services.buy_item(novices, actor=warband.owner, item_key=i),
            "heroes only",
        )


@pytest.mark.parametrize("key", ["amazons_mordheim", "amazons_lustria"])
def test_the_amazons_hire_no_hired_sword(key):
    """Amazons, Not one of us: no outsider joins; a Pit Fighter, whom any human warband may
    hire, is refused (no hired sword of the catalogue is an Amazon)."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))
    pit_fighter = HiredSwordType.objects.get(key="pit_fighter")

    assert "hire no hired swords" in hired_swords.sword_refusal(warband, pit_fighter)
