"""Hired swords: the catalogue against the rule text, hiring while
mustering (fee from the purse, refused where the rules refuse), their rating and size."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.factories import WarbandFactory, finish, hire
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
    """The rule text's section for one hired sword (``### Name`` up to the next one)."""
    text = RULES.read_text(encoding="utf-8")
    start = text.index(f"### {name}\n", text.index("## Grade 1A Hired Swords"))
    end = text.find("\n### ", start + 4)
    return text[start:end]


@pytest.mark.parametrize("entry", read(DATA)["hired_swords"], ids=lambda e: e["key"])
def test_catalogue_entry_matches_the_rule_text(entry):
    section = entry_text(entry["name"])
    fee, upkeep = re.search(
        r"(\d+) gold crowns to hire \+(\d+) gold crowns upkeep", section
    ).groups()
    assert (entry["hire_fee"], entry["upkeep"]) == (int(fee), int(upkeep))
    rating = re.search(r"rating by \+?(\d+) points", section).group(1)
    assert entry["rating"] == int(rating)
    first_row = re.search(r"\| --- \|.*\n\| [^|]+((?:\| \d+ )+)\|", section).group(1)
    values = [int(v) for v in re.findall(r"\d+", first_row)]
    assert [entry["profile"][c] for c in PROFILE] == values


def test_catalogue_is_loaded_with_terms_and_profile():
    ogre = HiredSwordType.objects.select_related("warrior_type").get(key="ogre_bodyguard")
    assert (ogre.hire_fee, ogre.upkeep, ogre.rating) == (80, 30, 25)
    assert ogre.warrior_type.profile.as_dict()["W"] == 3
    assert ogre.warrior_type.warband_type is None
    assert sorted(ogre.warrior_type.skill_lists.values_list("key", flat=True)) == [
        "combat",
        "strength",
    ]
    assert HiredSwordType.objects.count() == len(read(DATA)["hired_swords"])


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
    ],
)
def test_who_may_hire_whom(family, list_rule, key, allowed):
    terms = HiredSwordType.objects.get(key=key).as_terms()
    refusal = sword_rules.hire_refusal(terms, family=family, list_rule=list_rule)
    assert (refusal is None) == allowed


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


def test_muster_page_offers_the_catalogue_and_hires(client):
    warband = WarbandFactory()
    client.force_login(warband.owner)
    page = client.get(reverse("warband_muster", args=[warband.pk]))
    assert b"Ogre Bodyguard" in page.content and b"80 gc to hire" in page.content
    client.post(reverse("warband_hire_sword", args=[warband.pk]), {"sword": "halfling_scout"})
    assert warband.warriors.get().hired_sword.key == "halfling_scout"


def test_muster_hire_denied_to_a_stranger(client, django_user_model):
    warband = WarbandFactory()
    stranger = django_user_model.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    response = client.post(
        reverse("warband_hire_sword", args=[warband.pk]), {"sword": "halfling_scout"}
    )
    assert response.status_code in (403, 404)
    assert not warband.warriors.exists()


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


def test_the_warlock_rolled_by_the_server_on_the_muster_page(client):
    warband = WarbandFactory()
    client.force_login(warband.owner)
    client.post(
        reverse("warband_hire_sword", args=[warband.pk]), {"sword": "warlock", "name": "Zed"}
    )
    zed = warband.warriors.get(name="Zed")
    assert zed.spells.count() == 2


@pytest.mark.parametrize(
    ("key", "own_list", "skills"),
    [
        ("dwarf_troll_slayer", "dwarf_troll_slayer",
         {"Ferocious Charge", "Monster Slayer", "Berserker"}),
        ("elf_ranger", "elf_ranger", {"Fey", "Luck"}),
        ("imperial_assassin", "imperial_assassin", {"Backstabber", "Hide in Shadows"}),
        ("arabian_merchant", "arabian_merchant", {"Stone Cutter", "Guardian"}),
    ],
)  # fmt: skip
def test_a_hired_sword_has_his_own_skill_list(key, own_list, skills):
    sword = HiredSwordType.objects.get(key=key)
    lists = list(sword.warrior_type.skill_lists.values_list("key", flat=True))
    assert lists[-1] == own_list
    names = set(Skill.objects.filter(skill_list__key=own_list).values_list("name", flat=True))
    assert names == skills
    for name in skills:
        assert name in entry_text(sword.name)
