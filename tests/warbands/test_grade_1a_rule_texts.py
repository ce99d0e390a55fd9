"""The 15 Grade 1a warband lists against the rule texts, entry by entry.

``../shared/rules/reference/warbands-core-and-grade-1a.md`` is read as the rulebook prints it:
every hero and henchman heading with its cost, numbers and profile, every Skill Table, and the
equipment lists of the seven lists converted from the BattleScribe data set. Where the app
departs from the text, the exception is named here and explained in warbands/data/README.md.
"""

import re

import pytest

from tests.warbands.rule_texts import norm
from warbands.data.convert_bsdata import BSDATA_DIR
from warbands.models import EquipmentListEntry, Spell, WarbandType, WarriorType

pytestmark = pytest.mark.django_db
RULE_TEXT = BSDATA_DIR.parents[1] / "rules" / "reference" / "warbands-core-and-grade-1a.md"
SECTIONS = {
    "Cult of the Possessed": "cult_of_the_possessed", "Mercenaries": "reikland",
    "The Sisters of Sigmar": "sisters_of_sigmar", "Skaven of Clan Eshin": "skaven",
    "The Undead": "undead", "Witch Hunters": "witch_hunters",
    "Averlander Mercenaries": "averland", "Beastmen Raiders": "beastmen_raiders",
    "Carnival of Chaos": "carnival_of_chaos", "Dwarf Treasure Hunters": "dwarf_treasure_hunters",
    "Kislevites": "kislevites", "Orc Mob": "orc_mob", "Ostlander Mercenaries": "ostland",
}  # fmt: skip
GRADE_1A = {*SECTIONS.values(), "middenheim", "marienburg"}
ALIASES = {"Dwarf Troll Slayers": "troll_slayer"}
# Where the app departs from the printed profile (warbands/data/README.md says why).
PROFILE_EXCEPTIONS = {
    ("reikland", "marksman"): "BS 4: Reikland's +1 BS for Marksmen is in the profile",
    ("ostland", "ogre"): "Ld 7, not the printed 10 (an Ogre's maximum is 9)",
    ("orc_mob", "cave_squig"): "M 2D6 is stored as 0",
    ("carnival_of_chaos", "plague_cart"): "one row for the cart, horses and Guardian",
}


def rule_text_entries():
    """(list key, heading, cost, (min, max), profile cells) for each warrior of the text: its
    heading "#### Name (0-2, 40 gold crowns to hire)" and the profile under it."""
    if not RULE_TEXT.exists():
        pytest.skip(f"the rule texts are not at {RULE_TEXT}")
    entries, section, heading = [], None, None
    for line in RULE_TEXT.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = SECTIONS.get(line[3:].split(" — ")[0])
        elif line.startswith("#### ") and section:
            name, _, detail = line[5:].partition(" (")
            cost = int(re.search(r"(\d+) gold crowns", detail)[1])
            counts = re.match(r"(\d+)-(\d+)", detail)
            if counts:
                count = (int(counts[1]), int(counts[2]))
            else:
                count = (1, 1) if "required" in detail else (0, None)
            heading = [section, name, cost, count, None]
            entries.append(heading)
        elif heading and heading[4] is None and line.startswith("| ") and line[2:3].isdigit():
            heading[4] = [cell.strip() for cell in line.strip("|").split("|")]
    return entries


def test_every_warrior_of_the_rule_text_is_in_its_list_with_its_cost_count_and_profile():
    checked = set()
    for key, name, cost, count, cells in rule_text_entries():
        types = WarriorType.objects.filter(warband_type__key=key)
        found = [t for t in types if ALIASES.get(name) == t.key or norm(name) in
                 (norm(t.name), norm(t.key.replace("_", " ")))]  # fmt: skip
        assert len(found) == 1, (key, name)
        warrior = found[0]
        assert (warrior.cost, (warrior.min_count, warrior.max_count)) == (cost, count), name
        if (key, warrior.key) not in PROFILE_EXCEPTIONS:
            printed = [int(re.match(r"\d+", cell)[0]) for cell in cells]  # "1(2)": 1
            assert [value for _, value in warrior.profile_cells()] == printed, name
        checked.add(warrior.pk)
    # Every warrior of the 13 lists the text prints (Middenheim and Marienburg share
    # Reikland's profiles but for their own rules, checked above against FACTS.md).
    assert checked == set(
        WarriorType.objects.filter(warband_type__key__in=SECTIONS.values()).values_list(
            "pk", flat=True
        )
    )


def rule_text_skill_tables():
    """(list key, row name, ticked columns) of every Skill Table of the text; the Mercenaries
    chapter prints Reikland's, Middenheim's and Marienburg's tables in that order."""
    if not RULE_TEXT.exists():
        pytest.skip(f"the rule texts are not at {RULE_TEXT}")
    mercenaries = iter(["reikland", "middenheim", "marienburg", "ostermark (no table)"])
    rows, section, columns = [], None, None
    for line in RULE_TEXT.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = SECTIONS.get(line[3:].split(" — ")[0])
        elif line.endswith("Skill Table**"):
            columns, key = [], next(mercenaries) if section == "reikland" else section
        elif columns is not None and line.startswith("|"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if not columns:
                columns = [cell.lower() for cell in cells]
            elif not cells[0].startswith("-"):
                rows.append(
                    (key, cells[0], {c for c, v in zip(columns, cells, strict=True) if v == "✓"})
                )
        elif columns is not None and line.strip():
            columns = None
    return rows


def test_every_heroes_skill_lists_match_the_rule_texts_skill_table():
    rows = rule_text_skill_tables()
    heroes = WarriorType.objects.filter(kind="hero", warband_type__key__in=GRADE_1A)
    assert len(rows) == heroes.count() == 49
    for key, row, ticked in rows:
        heroes = WarriorType.objects.filter(warband_type__key=key, kind="hero")
        found = [h for h in heroes if norm(h.name) == norm(row)] or [
            h for h in heroes if norm(row) in norm(h.name)
        ]
        assert len(found) == 1, (key, row)
        lists = found[0].skill_lists.all()
        assert {s.key for s in lists if s.warband_type_id is None} == ticked - {"special"}, row
        assert any(s.warband_type_id for s in lists) == ("special" in ticked), row


# --- The seven new lists against the rule text, entry by entry -----------------------------
# The text's equipment lists, by (section, list name): the app's list.
TEXT_LISTS = {
    "Scout Equipment List": "scout", "Marksman Equipment List": "marksman",
    "Mountainguard Equipment List": "mountainguard", "Beastmen Equipment List": "beastmen",
    "Ungor Equipment List": "ungor", "Carnival Equipment List": "carnival",
    "Brute Equipment List": "brute", "Dwarf Warrior Equipment List": "dwarf_warrior",
    "Thunderer Equipment List": "thunderer", "Kislev Warrior Equipment List": "kislev_warrior",
    "Streltsi Equipment List": "streltsi", "Orc Equipment List": "orc",
    "Goblin Equipment List": "goblin", "Ostlander Equipment List": "ostlander",
    "Ruffian Equipment List": "ruffian", "Jaeger Equipment List": "jaeger",
    "Ogre Equipment List": "ogre",
}  # fmt: skip
TEXT_ITEMS = {
    "battle axe": "axe", "short bow": "short_bow", "shortbow": "short_bow", "long bow": "long_bow",
    "ball & chain": "ball_and_chain", "hunting rifle": "hochland_long_rifle",
    "gromril armour**": "gromril_armour", "throwing knives": "throwing_knives",
    "double-barrelled pistol": "ostlander_double_barrelled_pistol",
    "double-barrelled hunting rifle": "ostlander_double_barrelled_hunting_rifle",
}  # fmt: skip
BRACES = {
    "pistol": "brace_of_pistols",
    "duelling_pistol": "brace_of_duelling_pistols",
    "ostlander_double_barrelled_pistol": "brace_of_ostlander_double_barrelled_pistols",
}
ARMOUR = {"helmet", "shield", "buckler", "light_armour", "heavy_armour", "gromril_armour"}


def rule_text_equipment_lists() -> dict[str, dict[str, int]]:
    """Each list of the seven new chapters as {item key: price}; "Bergjaeger only" items
    under the key "bergjaeger", gromril weapons ("3 times the cost") under "gromril"."""
    if not RULE_TEXT.exists():
        pytest.skip(f"the rule texts are not at {RULE_TEXT}")
    lists: dict[str, dict[str, int]] = {}
    current = None
    for line in RULE_TEXT.read_text(encoding="utf-8").splitlines():
        if line.startswith("**") and line.strip("*") in TEXT_LISTS:
            current = lists.setdefault(TEXT_LISTS[line.strip("*")], {})
        elif line.startswith("### Heroes"):
            current = None
        elif current is not None and line.startswith("| ") and not line.startswith("| Item"):
            name, cost = (cell.strip() for cell in line.strip("|").split("|"))
            key = TEXT_ITEMS.get(name.lower(), name.lower().replace("-", "_").replace(" ", "_"))
            if "times the cost" in cost:
                current["gromril"] = int(cost.split()[0])
                continue
            price = int(re.search(r"(\d+) gc", cost)[1])  # "1st free/2 gc": 2
            target = lists.setdefault("bergjaeger", {}) if "Bergjaeger only" in cost else current
            target[key] = price
            brace = re.search(r"\((\d+) for a brace\)", cost)
            if brace:
                target[BRACES[key]] = int(brace[1])
    return lists


def list_prices(warband: str, list_key: str) -> dict[str, int]:
    return dict(
        EquipmentListEntry.objects.filter(
            equipment_list__warband_type__key=warband, equipment_list__key=list_key
        ).values_list("item__key", "price")
    )


NEW_LISTS = {
    "averland": ["scout", "marksman", "mountainguard"],
    "beastmen_raiders": ["beastmen", "ungor"],
    "carnival_of_chaos": ["carnival", "brute"],
    "dwarf_treasure_hunters": ["dwarf_warrior", "thunderer"],
    "kislevites": ["kislev_warrior", "streltsi"],
    "orc_mob": ["orc", "goblin"],
    "ostland": ["ostlander", "ruffian", "jaeger", "ogre"],
}


@pytest.mark.parametrize("warband", sorted(NEW_LISTS))
def test_equipment_lists_match_the_rule_text(warband):
    text = rule_text_equipment_lists()
    for list_key in NEW_LISTS[warband]:
        expected = dict(text[list_key])
        gromril = expected.pop("gromril", None)
        prices = list_prices(warband, list_key)
        if gromril:  # every hand-to-hand weapon of the list again, in gromril, at 3×
            for key, price in list(prices.items()):
                if key.startswith("gromril_") and key != "gromril_armour":
                    assert price == gromril * prices[key.removeprefix("gromril_")], key
                    del prices[key]
        assert prices == expected, list_key


def test_the_restricted_lists_are_their_lists_less_what_the_rule_text_forbids():
    text = rule_text_equipment_lists()
    scout = text["scout"]
    assert list_prices("averland", "bergjaeger") == scout | text["bergjaeger"]
    beastmen = list_prices("beastmen_raiders", "beastmen")
    assert list_prices("beastmen_raiders", "beastmen_shaman") == {
        k: v for k, v in beastmen.items() if k not in ARMOUR
    }
    orc = list_prices("orc_mob", "orc")
    assert list_prices("orc_mob", "orc_shaman") == {k: v for k, v in orc.items() if k not in ARMOUR}
    ostlander = list_prices("ostland", "ostlander")
    assert list_prices("ostland", "priest_of_taal") == {
        k: v for k, v in ostlander.items() if k != "heavy_armour"
    }
    dwarf = list_prices("dwarf_treasure_hunters", "dwarf_warrior")
    assert list_prices("dwarf_treasure_hunters", "troll_slayer") == {
        k: v for k, v in dwarf.items() if k not in ARMOUR | {"pistol", "brace_of_pistols"}
    }


# Starting Experience of each chapter (henchmen start with 0).
STARTING_EXPERIENCE = {
    "averland": {"captain": 20, "sergeant": 8, "bergjaeger": 4, "youngblood": 0},
    "beastmen_raiders": {"beastmen_chieftain": 20, "beastmen_shaman": 11, "bestigor": 8,
                         "centigor": 8},
    "carnival_of_chaos": {"carnival_master": 20, "brute": 8, "tainted_one": 0},
    "dwarf_treasure_hunters": {"dwarf_noble": 20, "dwarf_engineer": 10, "troll_slayer": 8},
    "kislevites": {"druzhina_captain": 20, "bear_tamer": 8, "esaul": 8, "youth": 0},
    "orc_mob": {"orc_boss": 20, "orc_shaman": 10, "orc_big_un": 15},
    "ostland": {"elder": 20, "blood_brother": 12, "priest_of_taal": 12},
}  # fmt: skip
# Choice of Warriors: starting gold and the maximum size.
SIZES = {
    "averland": 15, "beastmen_raiders": 15, "carnival_of_chaos": 15,
    "dwarf_treasure_hunters": 12, "kislevites": 15, "orc_mob": 20, "ostland": 15,
}  # fmt: skip


@pytest.mark.parametrize("warband", sorted(STARTING_EXPERIENCE))
def test_starting_experience_gold_and_size_match_the_rule_text(warband):
    warband_type = WarbandType.objects.get(key=warband)
    types = warband_type.warrior_types.all()

    assert {t.key: t.starting_experience for t in types if t.is_hero} == (
        STARTING_EXPERIENCE[warband]
    )
    assert {t.starting_experience for t in types if not t.is_hero} == {0}
    assert (warband_type.starting_gold, warband_type.min_warriors) == (500, 3)
    assert (warband_type.max_warriors, warband_type.max_heroes) == (SIZES[warband], 6)
    assert [t.key for t in types if t.is_leader] == [next(t.key for t in types)]


def test_casters_animals_and_large_creatures_of_the_new_lists():
    types = {
        (t.warband_type.key, t.key): t
        for t in WarriorType.objects.filter(warband_type__key__in=NEW_LISTS)
    }
    casters = {k: (t.spell_list.key, t.starting_spells) for k, t in types.items() if t.spell_list}
    assert casters == {
        ("beastmen_raiders", "beastmen_shaman"): ("chaos_rituals", 1),
        ("carnival_of_chaos", "carnival_master"): ("nurgle_rituals", 1),
        ("orc_mob", "orc_shaman"): ("waaagh_magic", 1),
        ("ostland", "priest_of_taal"): ("prayers_of_taal", 1),
    }
    for spell_list in ("waaagh_magic", "nurgle_rituals", "prayers_of_taal"):
        assert sorted(
            Spell.objects.filter(spell_list__key=spell_list).values_list("d6", flat=True)
        ) == [1, 2, 3, 4, 5, 6]
    never = {k[1] for k, t in types.items() if not t.gains_experience}
    assert never == {"warhound_of_chaos", "plague_bearer", "nurgling", "plague_cart",
                     "trained_bear", "cave_squig", "troll"}  # fmt: skip
    assert {k[1] for k, t in types.items() if t.is_large} == {
        "minotaur",
        "trained_bear",
        "troll",
        "ogre",
    }
    assert all(t.race_id is None for k, t in types.items() if k[1] in never)
