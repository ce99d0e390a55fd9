"""Hired swords whose entry (``04-hired-swords.md``) lets them learn a warband list's special
skills: the Chameleon Skink the Lizardmen's, the Dark Elf Assassin the Dark Elves', the Dwarf
Pathfinder the Dwarf Rangers' Dwarf skills and the Shadow Warrior the Shadow Warriors'. Each is
linked to that list's own skill list, and his advance (post-battle step 2) offers exactly the
lists his entry's Skills line names: the standard ones, the list's, and his own."""

import re

import pytest

from battles import aftermath as sequences
from battles.models import SequenceTask
from tests.helpers import fought, play_to, roll, sequence_of
from tests.warbands.test_hired_swords import CATALOGUE, entry_text
from warbands import hired_swords
from warbands.data.convert_bsdata import LIST_SPECS
from warbands.models import HiredSwordType, SkillList, Warrior

pytestmark = pytest.mark.django_db

# The hired sword, and the warband list's skill list his entry links to.
LIST_SKILLS = {
    "chameleon_skink": "lizardmen",  # "[Lizardmen special](…/lizardmen#skinks-only)"
    "dark_elf_assassin": "dark_elves",  # "[Dark Elf](…/dark-elves#dark-elf-special-skills)"
    "dwarf_pathfinder": "dwarf_ranger",  # "[Dwarf](…/dwarf-rangers#dwarf-special-skills)"
    "shadow_warrior": "shadow_warriors",  # "[Shadow Warriors](…/shadow-warriors#…)"
}
# His own list besides (the chapter's "Dwarf Pathfinder Skills").
OWN_LISTS = {"dwarf_pathfinder": "dwarf_pathfinder"}
# Entries that link a warband list's page for something other than skills to learn.
NOT_LEARNED = {
    "ninja": "Battle Monks skills he has from the start; he gains no experience",
    "chaos_centaur": "a Cult of the Possessed mutation instead of a skill",
}
STANDARD = ("Combat", "Shooting", "Academic", "Strength", "Speed")


def skills_line(name: str) -> str:
    """His entry's Skills line ("**Skills:** …", the Old Prospector's unbolded; "" for none)."""
    return "\n".join(x for x in entry_text(name).splitlines() if re.match(r"(\*\*)?Skills:", x))


def list_page(skill_list: str) -> str:
    """The rule text's page of the warband list that owns ``skill_list`` (its spec's url)."""
    owner = SkillList.objects.select_related("warband_type").get(key=skill_list).warband_type
    spec = (LIST_SPECS / f"{owner.key}.json").read_text(encoding="utf-8")
    return re.search(r'"url": "https://mordheimer\.net(/docs/warbands/[^"]+)"', spec)[1]


def test_every_entry_that_names_a_lists_skills_is_linked_to_its_list():
    linking = {e["key"] for e in CATALOGUE if "/docs/warbands/" in skills_line(e["name"])}
    assert linking == set(LIST_SKILLS) | set(NOT_LEARNED)
    for key, skill_list in LIST_SKILLS.items():
        sword = HiredSwordType.objects.get(key=key)
        assert f"({list_page(skill_list)}#" in skills_line(sword.name), key
        assert sword.warrior_type.skill_lists.filter(key=skill_list).exists(), key


def expected_lists(key: str) -> set[str]:
    """The names of the lists his Skills line names: the standard lists it prints, the
    warband list's and his own."""
    line = skills_line(HiredSwordType.objects.get(key=key).name)
    keys = [name.lower() for name in STANDARD if name in line]
    keys += [LIST_SKILLS[key], *([OWN_LISTS[key]] if key in OWN_LISTS else [])]
    return set(SkillList.objects.filter(key__in=keys).values_list("name", flat=True))


@pytest.mark.parametrize("key", sorted(LIST_SKILLS))
def test_his_advance_offers_exactly_the_lists_his_entry_names(duel, key):
    reavers = duel["reavers"]
    sword = hired_swords.new_hired_sword(
        reavers, HiredSwordType.objects.get(key=key), at_creation=True
    )
    Warrior.objects.filter(pk=sword.pk).update(experience=4)  # 5 is his next advance
    sequence = sequence_of(fought(duel, [(sword, False, 0, 0, None)]), reavers)
    play_to(sequence, 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")
    task = SequenceTask.objects.get(sequence=sequence, warrior=sword)

    asked = roll(sequence, task, [1, 1], reavers.owner)  # 2D6 of 2: a new skill

    assert asked.question["key"] == "skill"
    offered = {re.fullmatch(r".+ \((.+)\)", label)[1] for _, label in asked.question["options"]}
    assert offered == expected_lists(key)
