"""The warband lists loaded by the data migration, checked against FACTS.md entry by entry."""

import re
import shutil

import pytest
from django.apps import apps

from core.dice import ScriptedDice
from tests.factories import WarbandFactory, finish
from warbands import services, treasury
from warbands.models import (
    EquipmentListEntry,
    Item,
    RacialMaximum,
    Skill,
    SkillList,
    Spell,
    WarbandType,
    WarriorType,
)
from warbands.reference import DATA_DIR, ReferenceDataError, load_reference_data

pytestmark = pytest.mark.django_db

CORE_LISTS = {
    "reikland",
    "middenheim",
    "marienburg",
    "cult_of_the_possessed",
    "witch_hunters",
    "sisters_of_sigmar",
    "undead",
    "skaven",
}


def profile(warrior_type: WarriorType) -> str:
    return " ".join(str(value) for _, value in warrior_type.profile_cells())


def test_the_eight_core_warband_lists_are_loaded():
    assert set(WarbandType.objects.values_list("key", flat=True)) >= CORE_LISTS


# FACTS.md section 7: starting gold and maximum warriors of each list.
@pytest.mark.parametrize(
    ("key", "gold", "max_warriors"),
    [
        ("reikland", 500, 15),
        ("middenheim", 500, 15),
        ("marienburg", 600, 15),
        ("cult_of_the_possessed", 500, 15),
        ("skaven", 500, 20),
        ("undead", 500, 15),
        ("witch_hunters", 500, 12),
        ("sisters_of_sigmar", 500, 15),
    ],
)
def test_starting_gold_and_warband_size(key, gold, max_warriors):
    warband_type = WarbandType.objects.get(key=key)

    assert (warband_type.starting_gold, warband_type.max_warriors) == (gold, max_warriors)
    assert warband_type.min_warriors == 3
    assert warband_type.max_heroes == 6
    assert warband_type.source


# FACTS.md section 7, "Worked example: Reikland Mercenaries" and "starting Hero XP".
@pytest.mark.parametrize(
    ("warband", "warrior", "kind", "cost", "count", "xp", "profile_text"),
    [
        ("reikland", "mercenary_captain", "hero", 60, (1, 1), 20, "4 4 4 3 3 1 4 1 8"),
        ("reikland", "champion", "hero", 35, (0, 2), 8, "4 4 3 3 3 1 3 1 7"),
        ("reikland", "youngblood", "hero", 15, (0, 2), 0, "4 2 2 3 3 1 3 1 6"),
        ("reikland", "warrior", "henchman", 25, (0, None), 0, "4 3 3 3 3 1 3 1 7"),
        ("reikland", "marksman", "henchman", 25, (0, 7), 0, "4 3 4 3 3 1 3 1 7"),
        ("middenheim", "marksman", "henchman", 25, (0, 7), 0, "4 3 3 3 3 1 3 1 7"),
        ("reikland", "swordsman", "henchman", 35, (0, 5), 0, "4 4 3 3 3 1 3 1 7"),
        ("middenheim", "mercenary_captain", "hero", 60, (1, 1), 20, "4 4 4 4 3 1 4 1 8"),
        ("middenheim", "champion", "hero", 35, (0, 2), 8, "4 4 3 4 3 1 3 1 7"),
        ("marienburg", "champion", "hero", 35, (0, 2), 8, "4 4 3 3 3 1 3 1 7"),
    ],
)
def test_mercenary_warriors_match_facts(warband, warrior, kind, cost, count, xp, profile_text):
    warrior_type = WarriorType.objects.get(warband_type__key=warband, key=warrior)

    assert warrior_type.kind == kind
    assert warrior_type.cost == cost
    assert (warrior_type.min_count, warrior_type.max_count) == count
    assert warrior_type.starting_experience == xp
    assert profile(warrior_type) == profile_text
    assert warrior_type.race.key == "human"


# FACTS.md section 7, "Core warband size limits and starting Hero XP".
@pytest.mark.parametrize(
    ("warband", "warrior", "xp"),
    [
        ("cult_of_the_possessed", "magister", 20),
        ("cult_of_the_possessed", "possessed", 8),
        ("cult_of_the_possessed", "mutant", 0),
        ("skaven", "assassin_adept", 20),
        ("skaven", "eshin_sorcerer", 8),
        ("skaven", "black_skaven", 8),
        ("skaven", "night_runner", 0),
        ("undead", "vampire", 20),
        ("undead", "necromancer", 8),
        ("undead", "dreg", 0),
        ("witch_hunters", "witch_hunter_captain", 20),
        ("witch_hunters", "witch_hunter", 8),
        ("witch_hunters", "warrior_priest", 12),
        ("sisters_of_sigmar", "sigmarite_matriarch", 20),
        ("sisters_of_sigmar", "sister_superior", 8),
        ("sisters_of_sigmar", "augur", 0),
    ],
)
def test_starting_hero_experience(warband, warrior, xp):
    assert WarriorType.objects.get(warband_type__key=warband, key=warrior).starting_experience == xp


@pytest.mark.parametrize("key", sorted(CORE_LISTS))
def test_every_list_has_exactly_one_leader_type_and_heroes_with_skill_lists(key):
    types = WarriorType.objects.filter(warband_type__key=key)

    assert [t.key for t in types if t.is_leader and t.is_hero]
    assert types.filter(is_leader=True).count() == 1
    for hero in types.filter(kind="hero"):
        assert hero.skill_lists.exists(), hero.name
    for henchman in types.filter(kind="henchman"):
        assert not henchman.skill_lists.exists(), henchman.name


@pytest.mark.parametrize(
    ("warband", "warrior", "spell_list"),
    [
        ("cult_of_the_possessed", "magister", "chaos_rituals"),
        ("undead", "necromancer", "necromancy"),
        ("skaven", "eshin_sorcerer", "magic_of_the_horned_rat"),
        ("witch_hunters", "warrior_priest", "prayers_of_sigmar"),
        ("sisters_of_sigmar", "sigmarite_matriarch", "prayers_of_sigmar"),
    ],
)
def test_spellcasters_start_with_one_spell_from_their_list(warband, warrior, spell_list):
    caster = WarriorType.objects.get(warband_type__key=warband, key=warrior)

    assert caster.spell_list.key == spell_list
    assert caster.starting_spells == 1
    assert Spell.objects.filter(spell_list=caster.spell_list).count() == 6


def test_large_creatures_and_animals():
    rat_ogre = WarriorType.objects.get(warband_type__key="skaven", key="rat_ogre")

    assert rat_ogre.is_large and not rat_ogre.gains_experience
    for warband, key in [
        ("undead", "zombie"),
        ("undead", "dire_wolf"),
        ("witch_hunters", "warhound"),
    ]:
        assert not WarriorType.objects.get(warband_type__key=warband, key=key).gains_experience


def list_prices(warband: str, list_key: str) -> dict[str, int]:
    return dict(
        EquipmentListEntry.objects.filter(
            equipment_list__warband_type__key=warband, equipment_list__key=list_key
        ).values_list("item__key", "price")
    )


def test_mercenary_equipment_list_matches_facts():
    # FACTS.md section 7, Mercenary Equipment List.
    assert list_prices("reikland", "mercenary") == {
        "dagger": 2,
        "mace": 3,
        "hammer": 3,
        "axe": 5,
        "sword": 10,
        "morning_star": 15,
        "double_handed_weapon": 15,
        "spear": 10,
        "halberd": 10,
        "crossbow": 25,
        "pistol": 15,
        "brace_of_pistols": 30,
        "duelling_pistol": 25,
        "brace_of_duelling_pistols": 50,
        "bow": 10,
        "light_armour": 20,
        "heavy_armour": 50,
        "shield": 5,
        "buckler": 5,
        "helmet": 10,
    }
    assert list_prices("middenheim", "mercenary")["wolfcloak"] == 10
    assert "wolfcloak" not in list_prices("reikland", "mercenary")
    wolfcloak = EquipmentListEntry.objects.get(
        equipment_list__warband_type__key="middenheim", item__key="wolfcloak"
    )
    assert wolfcloak.heroes_only
    assert EquipmentListEntry.objects.get(
        equipment_list__warband_type__key="reikland",
        equipment_list__key="mercenary",
        item__key="dagger",
    ).first_free


def test_marksman_equipment_list_matches_facts():
    assert list_prices("reikland", "marksman") == {
        "dagger": 2,
        "mace": 3,
        "hammer": 3,
        "axe": 5,
        "sword": 10,
        "crossbow": 25,
        "pistol": 15,
        "brace_of_pistols": 30,
        "bow": 10,
        "long_bow": 15,
        "blunderbuss": 30,
        "handgun": 35,
        "hochland_long_rifle": 200,  # the list's "hunting rifle"
        "light_armour": 20,
        "shield": 5,
        "helmet": 10,
    }


# FACTS.md section 7, General price chart: key, price, dice, rarity (None: Common).
PRICE_CHART = [
    ("dagger", 2, "", None), ("mace", 3, "", None), ("hammer", 3, "", None), ("axe", 5, "", None),
    ("sword", 10, "", None), ("spear", 10, "", None), ("halberd", 10, "", None),
    ("double_handed_weapon", 15, "", None), ("flail", 15, "", None), ("morning_star", 15, "", None),
    ("lance", 40, "", 8), ("fighting_claws", 35, "", 7), ("weeping_blades", 50, "", 9),
    ("sigmarite_warhammer", 15, "", None), ("steel_whip", 10, "", None),
    ("sling", 2, "", None), ("short_bow", 5, "", None), ("bow", 10, "", None),
    ("long_bow", 15, "", None), ("crossbow", 25, "", None), ("throwing_knives", 15, "", 5),
    ("repeater_crossbow", 40, "", 8), ("crossbow_pistol", 35, "", 9), ("elf_bow", 35, "3D6", 12),
    ("blowpipe", 25, "", 7), ("pistol", 15, "", 8), ("brace_of_pistols", 30, "", 8),
    ("duelling_pistol", 30, "", 10), ("brace_of_duelling_pistols", 60, "", 10),
    ("blunderbuss", 30, "", 9), ("handgun", 35, "", 8), ("hochland_long_rifle", 200, "", 11),
    ("warplock_pistol", 35, "", 11), ("brace_of_warplock_pistols", 70, "", 11),
    ("light_armour", 20, "", None), ("heavy_armour", 50, "", None), ("shield", 5, "", None),
    ("buckler", 5, "", None), ("helmet", 10, "", None), ("ithilmar_armour", 90, "", 11),
    ("gromril_armour", 150, "", 11), ("barding", 80, "", 8),
    ("garlic", 1, "", None), ("lantern", 10, "", None), ("rope_and_hook", 5, "", None),
    ("net", 5, "", None), ("lucky_charm", 10, "", 6), ("blessed_water", 10, "3D6", 6),
    ("tears_of_shallya", 10, "2D6", 7), ("halfling_cookbook", 30, "3D6", 7),
    ("healing_herbs", 20, "2D6", 8), ("holy_relic", 15, "3D6", 8), ("hunting_arrows", 25, "D6", 8),
    ("crimson_shade", 35, "D6", 8), ("dark_venom", 30, "2D6", 8), ("mandrake_root", 25, "D6", 8),
    ("holy_tome", 100, "D6x10", 8), ("black_lotus", 10, "D6", 9),
    ("mad_cap_mushrooms", 30, "3D6", 9), ("mordheim_map", 20, "4D6", 9),
    ("bugmans_ale", 50, "3D6", 9), ("cathayan_silk_clothes", 50, "2D6", 9),
    ("superior_blackpowder", 30, "", 11), ("elven_cloak", 100, "D6x10", 12),
    ("tome_of_magic", 200, "D6x25", 12), ("wardog", 25, "2D6", 10), ("riding_horse", 40, "", 8),
    ("warhorse", 80, "", 11),
]  # fmt: skip


@pytest.mark.parametrize(("key", "price", "dice", "rarity"), PRICE_CHART, ids=lambda v: str(v))
def test_general_price_chart(key, price, dice, rarity):
    item = Item.objects.get(key=key)

    assert (item.price, item.price_dice, item.rarity) == (price, dice, rarity)


# FACTS.md section 3: racial maximums M WS BS S T W I A Ld.
RACIAL_MAXIMUMS = [
    ("human", "4 6 6 4 4 3 6 4 9"),
    ("elf", "5 7 7 4 4 3 9 4 10"),
    ("dwarf", "3 7 6 4 5 3 5 4 10"),
    ("ogre", "6 6 5 5 5 5 6 5 9"),
    ("halfling", "4 5 7 3 3 3 9 4 10"),
    ("possessed", "6 8 0 6 6 4 7 5 10"),
    ("vampire", "6 8 6 7 6 4 9 4 10"),
    ("skaven", "6 6 6 4 4 3 7 4 7"),
    ("ghoul", "5 5 2 4 5 3 5 5 7"),
    ("goblin", "4 5 6 4 4 3 6 4 7"),
    ("orc", "4 6 6 4 5 3 5 4 9"),
    ("black_orc", "4 7 6 5 6 3 5 4 9"),
]


@pytest.mark.parametrize(("key", "maximum"), RACIAL_MAXIMUMS)
def test_racial_maximums(key, maximum):
    assert profile(RacialMaximum.objects.get(key=key)) == maximum


# FACTS.md section 3, core skill names.
@pytest.mark.parametrize(
    ("skill_list", "names"),
    [
        ("combat", {"Strike to Injure", "Combat Master", "Weapons Training", "Web of Steel",
                    "Expert Swordsman", "Step Aside"}),
        ("shooting", {"Quick Shot", "Pistolier", "Eagle Eyes", "Weapons Expert", "Nimble",
                      "Trick Shooter", "Hunter", "Knife-Fighter"}),
        ("academic", {"Battle Tongue", "Sorcery", "Streetwise", "Haggle", "Arcane Lore",
                      "Wyrdstone Hunter", "Warrior Wizard", "Quartermaster"}),
        ("strength", {"Mighty Blow", "Pit Fighter", "Resilient", "Fearsome", "Strongman",
                      "Unstoppable Charge"}),
        ("speed", {"Leap", "Sprint", "Acrobat", "Lightning Reflexes", "Dodge", "Jump Up",
                   "Scale Sheer Surfaces"}),
    ],
)  # fmt: skip
def test_core_skill_lists(skill_list, names):
    assert set(Skill.objects.filter(skill_list__key=skill_list).values_list("name", flat=True)) == (
        names
    )


def test_only_quartermaster_needs_the_optional_rule():
    assert list(Skill.objects.exclude(optional_rule="").values_list("key", "optional_rule")) == [
        ("quartermaster", "quartermaster_skill")
    ]


def test_special_skill_lists_belong_to_their_warband():
    assert SkillList.objects.get(key="skaven").warband_type.key == "skaven"
    assert SkillList.objects.get(key="sisters_of_sigmar").warband_type.key == "sisters_of_sigmar"
    assert SkillList.objects.get(key="combat").warband_type is None


@pytest.mark.parametrize("key", sorted(CORE_LISTS))
def test_a_legal_starting_warband_can_be_built_within_the_starting_gold(key):
    """Hire the leader, then the cheapest other type that needs nothing at recruitment, until
    the warband has its minimum size; finishing the muster must succeed."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))
    types = list(warband.warband_type.warrior_types.all())
    leader = next(t for t in types if t.is_leader)
    services.hire_warrior(
        warband, actor=warband.owner, warrior_type=leader, name="Leader", dice=ScriptedDice([1])
    )
    cheapest = min(
        (t for t in types if not t.is_leader and not t.required_at_hire),
        key=lambda t: t.cost,
    )
    models = warband.warband_type.min_warriors - 1
    if cheapest.is_hero:
        for n in range(models):
            services.hire_warrior(
                warband, actor=warband.owner, warrior_type=cheapest, name=f"H{n}", dice=None
            )
    else:
        services.hire_warrior(
            warband,
            actor=warband.owner,
            warrior_type=cheapest,
            name="Group",
            group_size=models,
            dice=None,
        )

    left = warband.warband_type.starting_gold - leader.cost - cheapest.cost * models
    finish(warband)

    assert warband.status == "active"
    sacks = warband.containers.filter(kind="large_sack").count()
    assert treasury.totals(warband)["gold"] == left - 2 * sacks


def test_loading_the_reference_data_again_changes_nothing():
    models = [WarbandType, WarriorType, Item, EquipmentListEntry, Skill, Spell, RacialMaximum]
    before = {model.__name__: model.objects.count() for model in models}
    captain = WarriorType.objects.get(warband_type__key="reikland", key="mercenary_captain")

    load_reference_data(apps)

    assert {model.__name__: model.objects.count() for model in models} == before
    assert WarriorType.objects.get(pk=captain.pk).cost == 60


def test_a_reference_to_an_unknown_item_is_an_error_naming_the_file(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    broken = data / "warbands" / "reikland.json"
    broken.write_text(broken.read_text().replace('"item": "halberd"', '"item": "halbert"'))

    with pytest.raises(
        ReferenceDataError, match=re.escape("reikland.json: unknown item 'halbert'")
    ):
        load_reference_data(apps, data)
