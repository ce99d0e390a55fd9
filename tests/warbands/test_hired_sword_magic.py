"""The spell lists of the Grade 1b hired swords' casters, entry by entry against the
rule texts: each spell's D6 number, name and difficulty (the Magic sections of
03-campaigns-magic-optional-rules.md; the Runesmith Journeyman's runes from his entry in
04-hired-swords.md, numbered in the order of its table)."""

import re
from pathlib import Path

import pytest

from warbands.models import HiredSwordType, Spell
from warbands.reference import DATA_DIR, read

pytestmark = pytest.mark.django_db

SHARED = Path(__file__).resolve().parents[3] / "shared/rules/reference"
MAGIC = SHARED / "03-campaigns-magic-optional-rules.md"
HIRED = SHARED / "04-hired-swords.md"
LISTS = {  # our key: the Magic section's heading
    "spells_of_the_djedhi": "Spells of the Djed'hi",
    "norse_runes": "Norse Runes",
    "funerary_rites": "Funerary Rites",
    "charms_and_hexes": "Charms & Hexes",
    "prayers_of_ulric": "Prayers of Ulric",
}


def _ours(key: str) -> list[tuple[int, str, int | None]]:
    spell_list = next(row for row in read(DATA_DIR / "spells.json")["lists"] if row["key"] == key)
    return [(s["d6"], s["name"].lower(), s["difficulty"]) for s in spell_list["spells"]]


def _magic_section(heading: str) -> list[tuple[int, str, int | None]]:
    text = MAGIC.read_text(encoding="utf-8")
    start = text.index(f"## Magic — {heading}\n")
    section = text[start : text.index("\n## ", start + 4)]
    rows = []
    for d6, name in re.findall(r"^\| (\d) \| (.+?) \|$", section, re.MULTILINE):
        pattern = rf"^#### {re.escape(name)}\n+\*Difficulty: (\w+)\*"
        difficulty = re.search(pattern, section, re.MULTILINE | re.IGNORECASE).group(1)
        rows.append((int(d6), name.lower(), None if difficulty == "Auto" else int(difficulty)))
    return rows


@pytest.mark.parametrize(("key", "heading"), LISTS.items())
def test_spell_list_matches_the_magic_section(key, heading):
    assert _ours(key) == _magic_section(heading)


def test_the_runesmiths_runes_match_his_entry():
    text = HIRED.read_text(encoding="utf-8")
    table = text[text.index("| Rune | Effect |") : text.index("Before the battle the Runesmith")]
    rows = re.findall(r"^\| (\w+) \| [^|]+ \| \w+ \| (\d+) \|$", table, re.MULTILINE)
    expected = [(d6, name.lower(), int(diff)) for d6, (name, diff) in enumerate(rows, start=1)]
    assert _ours("runesmith_runes") == expected


@pytest.mark.parametrize(
    ("key", "spell_list", "starting"),
    [
        ("elf_mage", "spells_of_the_djedhi", 3),
        ("norse_shaman", "norse_runes", 2),
        ("witch", "charms_and_hexes", 2),
        ("runesmith_journeyman", "runesmith_runes", 1),
        ("warrior_priest_of_sigmar", "prayers_of_sigmar", 1),
        ("wolf_priest_of_ulric", "prayers_of_ulric", 1),
        ("priest_of_morr", "funerary_rites", 0),
    ],
)
def test_each_caster_is_loaded_with_his_list(key, spell_list, starting):
    kind = HiredSwordType.objects.get(key=key).warrior_type
    assert (kind.spell_list.key, kind.starting_spells) == (spell_list, starting)
    assert Spell.objects.filter(spell_list=kind.spell_list).count() == 6
