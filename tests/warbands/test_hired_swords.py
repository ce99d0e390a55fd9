"""Hired swords: the catalogue against the rule text, hiring while
mustering (fee from the purse, refused where the rules refuse), their rating and size."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.factories import WarbandFactory, finish, hire
from tests.warbands.test_rule_summaries import rule_texts, runs
from warbands import hired_swords, services
from warbands.models import HiredSwordType, Skill, Spell, WarbandType
from warbands.reference import read
from warbands.rules import RosterEntry, check_hire, hired_sword_key
from warbands.rules import hired_swords as sword_rules

pytestmark = pytest.mark.django_db

RULES = Path(__file__).resolve().parents[3] / "shared/rules/reference/04-hired-swords.md"
DATA = Path(__file__).resolve().parents[2] / "warbands/data/hired_swords.json"
PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")


def entry_text(name: str) -> str:
    """The rule text's section for one hired sword (``### Name`` up to the next heading; the
    chapter spells some headings with a capital "Of")."""
    text = RULES.read_text(encoding="utf-8")
    heading = re.compile(rf"^### {re.escape(name)}\n", re.IGNORECASE | re.MULTILINE)
    start = heading.search(text, text.index("## Grade 1A Hired Swords")).start()
    end = min(i for i in (text.find("\n### ", start + 4), text.find("\n## ", start)) if i > 0)
    return text[start:end]


CATALOGUE = read(DATA)["hired_swords"]
MONEY = r"(?<![\dD])(\d+)\s*(?:\+\s*(\d?D\d+)\s*)?(?:gold crowns?|gcs|gc|gs)\b"
# Paid otherwise than in gold (none in gold then): the text's words for it.
IN_KIND = {
    "clan_skryre_rat_ogre": "1 piece of Wyrdstone upkeep",
    "old_prospector": "2 treasure to hire, +1 treasure upkeep",
}
# No rating printed: a hero of the warband (he replaces one), 5 + experience as every hero.
RATING_AS_A_HERO = {"priest_of_morr", "wolf_priest_of_ulric"}
# Profile values that are not a number: the text's cell, and the number stored (its special
# rule says the rest: the Chaos Centaur's second attack is his Trample).
NOT_A_NUMBER = {("chaos_centaur", "A"): ("1(2)", 1)}


def profile_row(section: str, label: str | None = None, key: str = "") -> list[int]:
    """The first row of the section's profile table (or the row of ``label``), its markers
    (✏️, ❓, a footnote's asterisk) left out, each value not a number (``NOT_A_NUMBER``) as
    stored."""
    rows = re.findall(r"^\|([^|\n]*)((?:\|[^|\n]*){9})\|\s*$", section, re.MULTILINE)
    rows = [(name.strip(), cells) for name, cells in rows]
    rows = [r for r in rows if r[0] not in ("Profile", "---") and label in (None, r[0])]
    cells = [re.sub(r"[^\d()]", "", cell) for cell in rows[0][1].split("|")[1:]]
    values = []
    for characteristic, cell in zip(PROFILE, cells, strict=True):
        text, stored = NOT_A_NUMBER.get((key, characteristic), (cell, None))
        assert cell == text
        values.append(int(cell) if stored is None else stored)
    return values


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e["key"])
def test_catalogue_entry_matches_the_rule_text(entry):
    section = entry_text(entry["name"])
    if entry["key"] in IN_KIND:
        assert IN_KIND[entry["key"]] in section
        kind = (entry.get("hire_in_kind"), entry.get("upkeep_in_kind"))
        assert kind in {(None, "1 wyrdstone shard"), ("2 treasures", "1 treasure")}
    fee = re.search(MONEY, section, re.IGNORECASE)
    upkeep = re.search(MONEY + r"(?:\s*\([^)]*\))?\s*upkeep", section, re.IGNORECASE)
    assert entry["hire_fee"] == (int(fee.group(1)) if fee else 0)
    assert entry.get("hire_fee_dice") == (fee.group(2) if fee else None)
    assert entry["upkeep"] == (int(upkeep.group(1)) if upkeep else 0)
    rating = re.search(r"rating(?: of the warband)? (?:by )?\+? ?(\d+) points", section)
    if entry["key"] in RATING_AS_A_HERO:
        assert rating is None and entry["rating"] == 5
    else:
        assert entry["rating"] == int(rating.group(1))
        line = section[rating.start() : section.index("\n", rating.start())]
        assert ("xperience" in line) == entry.get("gains_experience", True)
    assert [entry["profile"][c] for c in PROFILE] == profile_row(section, key=entry["key"])
    companion = entry.get("companions")
    if companion:
        assert [companion["profile"][c] for c in PROFILE] == profile_row(section, companion["name"])


@pytest.mark.parametrize(
    ("grade", "heading", "next_heading", "count"),
    [("1b", "## Grade 1B", "## Grade 1C", 30), ("1c", "## Grade 1C", "## Grade 2A", 9)],
)
def test_the_chapter_grades_are_all_in_the_catalogue(grade, heading, next_heading, count):
    """Every hired sword of the chapter's Grade 1b and 1c sections, in its order."""
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index(heading) : text.index(next_heading)]
    names = re.findall(r"^### (.+)$", section, re.MULTILINE)
    assert len(names) == count
    ours = [e["name"].lower() for e in CATALOGUE if e["grade"] == grade]
    assert ours == [name.lower() for name in names]


def _families_of_the_texts() -> set[str]:
    """The warband names the rule texts give: their chapters' headings, and the chapter's own
    list of warbands (Wood Elves of Athel Loren have no chapter yet)."""
    shared = RULES.parent
    names = set()
    for path in shared.glob("warbands-*.md"):
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"^## (.+?) — (?:Core|Grade)", text, re.MULTILINE))
    return names | {"Wood Elves of Athel Loren"}


def test_who_hires_him_names_families_of_the_lists_or_the_texts():
    known = set(WarbandType.objects.values_list("family", flat=True)) | _families_of_the_texts()
    keys = set(WarbandType.objects.values_list("key", flat=True))
    for sword in HiredSwordType.objects.all():
        hired_by = sword.hired_by
        families = [*hired_by.get("only", ()), *hired_by.get("except", ())]
        assert set(families) <= known, sword.key
        assert not any(name.startswith("@") for name in families), sword.key
        lists = [*hired_by.get("only_lists", ()), *hired_by.get("except_lists", ())]
        assert set(lists) <= keys, sword.key


@pytest.mark.skipif(not RULES.is_file(), reason="the rule texts (../shared/rules) are not here")
def test_equipment_and_special_rules_are_in_our_own_words():
    rule_runs = runs(rule_texts())
    copied = [
        (entry["key"], text)
        for entry in CATALOGUE
        for text in entry["equipment"] + entry["special_rules"]
        if runs(text) & rule_runs
    ]
    assert copied == []


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e["key"])
def test_each_entry_is_loaded(entry):
    sword = HiredSwordType.objects.select_related("warrior_type__spell_list").get(key=entry["key"])
    kind = sword.warrior_type
    assert (sword.name, sword.grade, sword.hire_fee, sword.upkeep, sword.rating) == (
        entry["name"], entry["grade"], entry["hire_fee"], entry["upkeep"], entry["rating"]
    )  # fmt: skip
    assert kind.profile.as_dict() == entry["profile"]
    assert sorted(kind.skill_lists.values_list("key", flat=True)) == sorted(entry["skill_lists"])
    assert kind.gains_experience == entry.get("gains_experience", True)
    assert kind.starting_experience == entry.get("starting_experience", 0)
    spell_list = kind.spell_list.key if kind.spell_list else None
    assert (spell_list, kind.starting_spells) == (
        entry.get("spell_list"), entry.get("starting_spells", 0)
    )  # fmt: skip
    assert sword.equipment == entry["equipment"] and sword.special_rules == entry["special_rules"]


def test_catalogue_is_loaded_with_terms_and_profile():
    ogre = HiredSwordType.objects.select_related("warrior_type").get(key="ogre_bodyguard")
    assert (ogre.hire_fee, ogre.upkeep, ogre.rating) == (80, 30, 25)
    assert ogre.warrior_type.profile.as_dict()["W"] == 3
    assert ogre.warrior_type.warband_type is None
    assert sorted(ogre.warrior_type.skill_lists.values_list("key", flat=True)) == [
        "combat",
        "strength",
    ]
    swords = HiredSwordType.objects.filter(kind=HiredSwordType.Kind.HIRED_SWORD)
    assert swords.count() == len(read(DATA)["hired_swords"])


@pytest.mark.parametrize(
    ("family", "list_rule", "key", "allowed"),
    [
        ("Mercenaries", None, "ogre_bodyguard", True),
        ("Skaven of Clan Eshin", None, "ogre_bodyguard", False),
        ("Undead", None, "freelancer", False),
        ("Witch Hunters", None, "warlock", False),
        ("Kislevites", "as_human_mercenaries", "freelancer", True),
        ("Dwarf Treasure Hunters", "no_elves", "elf_ranger", False),
        ("Mercenaries", ["ogre_bodyguard"], "pit_fighter", False),
        ("Carnival of Chaos", "none", "halfling_scout", False),
        # Grade 1b: the groups of the text ("any evil warband", "any human warband" …)
        ("Undead", None, "dark_elf_assassin", True),
        ("Mercenaries", None, "dark_elf_assassin", False),
        ("Cult of the Possessed", None, "shadow_warrior", False),
        ("Kislevites", None, "shadow_warrior", True),
        ("Dwarf Treasure Hunters", "no_elves", "dwarf_pathfinder", True),
        ("Cult of the Possessed", None, "dwarf_pathfinder", False),
        ("Skaven of Clan Eshin", None, "clan_skryre_rat_ogre", True),
        ("Orc Mob", None, "black_orc_overseer", True),
        ("Mercenaries", None, "black_orc_overseer", False),
        ("Undead", None, "pathfinder", True),
        ("Dwarf Treasure Hunters", "no_elves", "old_prospector", False),
        ("Witch Hunters", None, "witch", False),
        ("Sisters of Sigmar", None, "tomb_robber", True),
        ("Skaven of Clan Eshin", None, "tomb_robber", False),
    ],
)
def test_who_may_hire_whom(family, list_rule, key, allowed):
    terms = HiredSwordType.objects.get(key=key).as_terms()
    refusal = sword_rules.hire_refusal(terms, family=family, list_rule=list_rule)
    assert (refusal is None) == allowed


@pytest.mark.parametrize(
    ("warband_list", "key", "allowed"),
    [
        ("middenheim", "wolf_priest_of_ulric", True),
        ("reikland", "wolf_priest_of_ulric", False),
        ("middenheim", "warrior_priest_of_sigmar", False),
        ("marienburg", "warrior_priest_of_sigmar", True),
    ],
)
def test_a_hired_sword_that_names_one_list_of_a_family(warband_list, key, allowed):
    """Wolf Priest of Ulric: only a Middenheim warband; Warrior Priest of Sigmar: never one,
    though both are Mercenaries."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=warband_list))
    sword = HiredSwordType.objects.get(key=key)
    assert (hired_swords.sword_refusal(warband, sword) is None) == allowed
    if not allowed:
        with pytest.raises(RuleViolation, match="may not hire"):
            hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key=key)


def test_a_rat_ogre_gains_no_experience_and_costs_his_value_alone(client):
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="skaven"))
    ogre = hired_swords.hire_at_muster(
        warband, actor=warband.owner, sword_key="clan_skryre_rat_ogre"
    )
    assert ogre.warrior_type.race is None and not ogre.warrior_type.gains_experience
    assert services.rating(list(services.roster(warband))) == 25
    client.force_login(warband.owner)
    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()
    assert "Clan Skryre Rat Ogre" in page and "Paid in wyrdstone" in page


def test_hired_at_muster_pays_the_fee_and_stays_out_of_the_size():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain", items=["sword"], name="Adler")
    before = warband.gold_crowns

    ogre = hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="ogre_bodyguard")

    warband.refresh_from_db()
    assert warband.gold_crowns == before - 80
    assert (
        ogre.is_hero and ogre.hired_sword.key == "ogre_bodyguard" and ogre.name == "Ogre Bodyguard"
    )
    roster = list(services.roster(warband))
    entries = services.roster_entries(roster)  # the Ogre: in no count, only his presence
    assert [(e.type_key, e.models, e.is_hero) for e in entries] == [
        ("mercenary_captain", 1, True),
        ("hired_sword:ogre_bodyguard", 0, False),
    ]
    assert services.rating(roster) == (5 + 20) + 25  # captain 5 + 20 xp; the Ogre his own 25
    with pytest.raises(RuleViolation, match="one of each type"):
        hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="ogre_bodyguard")


def test_hire_refused_for_a_warband_that_may_not_hire_him():
    skaven = WarbandFactory(warband_type=WarbandType.objects.get(key="skaven"))
    with pytest.raises(RuleViolation, match="may not hire"):
        hired_swords.hire_at_muster(skaven, actor=skaven.owner, sword_key="ogre_bodyguard")
    skaven.refresh_from_db()
    assert skaven.gold_crowns == skaven.warband_type.starting_gold
    assert not skaven.warriors.exists()


def test_hire_refused_when_the_purse_cannot_pay():
    warband = WarbandFactory()
    warband.gold_crowns = 79
    warband.save()
    with pytest.raises(RuleViolation, match="costs 80 gc"):
        hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="ogre_bodyguard")


def test_dismissing_him_while_mustering_refunds_the_fee():
    warband = WarbandFactory()
    before = warband.gold_crowns
    slayer = hired_swords.hire_at_muster(
        warband, actor=warband.owner, sword_key="dwarf_troll_slayer"
    )
    services.dismiss_warrior(slayer, actor=warband.owner)
    warband.refresh_from_db()
    assert warband.gold_crowns == before


def test_rating_counts_his_value_and_experience_in_sql_and_rules():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain", items=["sword"], name="Adler")
    hire(warband, "champion", items=["axe"])
    hire(warband, "warrior", models=3, items=["spear"])
    assassin = hired_swords.hire_at_muster(
        warband, actor=warband.owner, sword_key="imperial_assassin"
    )
    finish(warband)
    assassin.experience = 3
    assassin.save()
    roster = list(services.roster(warband))
    # captain 5 + 20 xp, champion 5 + 8 xp, three warriors 5 each, the Assassin 22 + 3 xp
    expected = (5 + 20) + (5 + 8) + 3 * 5 + (22 + 3)
    assert services.rating(roster) == expected
    assert services.ratings_of([warband])[warband.pk] == expected


def test_roster_shows_the_hired_sword_his_terms_and_equipment(client):
    warband = WarbandFactory()
    hire(warband, "mercenary_captain", items=["sword"], name="Adler")
    hired_swords.hire_at_muster(
        warband, actor=warband.owner, sword_key="halfling_scout", name="Pip"
    )
    client.force_login(warband.owner)
    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()
    assert "Pip" in page and "Hired sword · upkeep 5 gc · rating 5 + experience" in page
    assert "Cooking pot (counts as a helmet)" in page
    assert "never leads the warband" in page


def test_a_hired_sword_is_never_offered_command():
    ogre = HiredSwordType.objects.get(key="ogre_bodyguard")
    effects = [rule.get("effect") for rule in ogre.warrior_type.special_rules]
    assert "never_leader" in effects


def test_a_highwayman_never_joins_beside_a_roadwarden():
    warband = WarbandFactory()
    hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="roadwarden")
    with pytest.raises(RuleViolation, match="will not serve beside"):
        hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="highwayman")


# --- The Cook, the Warlock's magic, a hired sword's own skill lists --------------------------


def test_the_halfling_scouts_cook_makes_room_for_one_more_warrior():
    """Halfling Scout, Cook: the warband's maximum size is one more while he is with it (its
    heroes are not)."""
    warband = WarbandFactory()  # Reikland: at most 15 warriors
    hire(warband, "mercenary_captain", name="Adler")
    for models in (5, 5, 4):
        hire(warband, "warrior", models=models)
    with pytest.raises(RuleViolation, match="at most 15 warriors"):
        hire(warband, "warrior")

    pip = hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="halfling_scout")

    roster = list(services.roster(warband))
    keys = [e.type_key for e in services.roster_entries(roster)]
    assert warband.warband_type.limits.max_size(keys) == 16
    hire(warband, "warrior")  # the 16th
    with pytest.raises(RuleViolation, match="at most 16 warriors"):
        hire(warband, "warrior")

    def size_problems():
        problems = services.muster_problems(warband, list(services.roster(warband)))
        return [p.message for p in problems if "at most" in p.message]

    assert size_problems() == []
    services.dismiss_warrior(pip, actor=warband.owner)  # without him, 16 are too many
    assert size_problems() == ["A warband may have at most 15 warriors (it has 16)."]


def test_the_cook_is_no_extra_hero():
    limits = WarbandType.objects.get(key="reikland").limits
    roster = [
        RosterEntry("mercenary_captain", True, True, 1),
        *[RosterEntry("champion", True, False, 1) for _ in range(5)],
        RosterEntry(hired_sword_key("halfling_scout"), False, False, 0),
    ]
    kind = WarbandType.objects.get(key="reikland").warrior_types.get(key="youngblood").as_rule()
    with pytest.raises(RuleViolation, match="at most 6 heroes"):
        check_hire(limits, roster, kind, models=1, gold=None)


def test_the_warlock_is_hired_with_two_spells_of_lesser_magic():
    """Warlock, Wizard: two spells generated at random from Lesser Magic (rolled again when
    one comes up twice, as for a wizard of a warband list)."""
    lesser = {s.d6: s for s in Spell.objects.filter(spell_list__key="lesser_magic")}
    assert {d6: (s.name, s.difficulty) for d6, s in lesser.items()} == {
        1: ("Fires of U'Zhul", 7),
        2: ("Flight of Zimmeran", 7),
        3: ("Dread of Aramar", 7),
        4: ("Silver Arrows of Arha", 7),
        5: ("Luck of Shemtek", 6),
        6: ("Sword of Rezhebel", 8),
    }
    warband = WarbandFactory()

    warlock = hired_swords.hire_at_muster(
        warband, actor=warband.owner, sword_key="warlock", dice=ScriptedDice([4, 4, 1])
    )

    assert sorted(warlock.spells.values_list("spell__key", "roll")) == [
        ("fires_of_uzhul", 1),
        ("silver_arrows_of_arha", 4),
    ]
    assert warlock.warrior_type.spell_list.key == "lesser_magic"
    ogre = hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="ogre_bodyguard")
    assert not ogre.spells.exists()


@pytest.mark.parametrize(
    ("key", "own_list", "skills"),
    [
        ("dwarf_troll_slayer", "dwarf_troll_slayer",
         {"Ferocious Charge", "Monster Slayer", "Berserker"}),
        ("elf_ranger", "elf_ranger", {"Fey", "Luck"}),
        ("imperial_assassin", "imperial_assassin", {"Backstabber", "Hide in Shadows"}),
        ("arabian_merchant", "arabian_merchant", {"Stone Cutter", "Guardian"}),
        ("dwarf_pathfinder", "dwarf_pathfinder", {"Pathfinder"}),
        ("halfling_thief", "halfling_thief", {"Wily Thief", "Stealthy"}),
        ("human_scout", "human_scout", {"Expert Hunter", "Sit in Wait"}),
        ("kislev_ranger", "kislev_ranger", {"Animal Call", "Herb Lore"}),
        ("mule_skinner", "mule_skinner", {"Whip Master"}),
        ("pathfinder", "pathfinder", {"Lookout!", "This Way!"}),
        ("cathayan_merchant", "cathayan_merchant", {"Stone Cutter", "Guardian"}),
        ("hobgoblin_scout", "hobgoblin_scout", {"Spy", "Potshot"}),
        ("pyromaniac", "pyromaniac", {"Rocket Science", "Display Artist"}),
        ("swordsmith", "swordsmith", {"Honing", "Farrier"}),
    ],
)  # fmt: skip
def test_a_hired_sword_has_his_own_skill_list(key, own_list, skills):
    sword = HiredSwordType.objects.get(key=key)
    # beside the standard lists and a warband list's (``test_hired_sword_list_skills``)
    assert sword.warrior_type.skill_lists.filter(key=own_list).exists()
    names = set(Skill.objects.filter(skill_list__key=own_list).values_list("name", flat=True))
    assert names == skills
    for name in skills:
        assert name.lower() in entry_text(sword.name).lower()
