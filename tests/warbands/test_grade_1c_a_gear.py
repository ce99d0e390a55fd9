"""Battle Monks of Cathay, Black Dwarfs and The Sons of Hashut (Grade 1c): their own gear
and hiring rules, beyond the legal and illegal musters of ``test_grade_1b_1c_musters``: the
starred items of a list kept to the warriors the text names, what a warrior may never buy,
and whom the warband may never hire."""

import pytest

from core.words import possessive
from tests.factories import WarbandFactory, hire
from tests.warbands.test_muster import refused_purchase
from warbands import hired_swords
from warbands.models import HiredSwordType, WarbandType

pytestmark = pytest.mark.django_db


def _warband(key: str):
    return WarbandFactory(warband_type=WarbandType.objects.get(key=key))


def test_the_emissarys_starred_gear_is_his_alone_and_monks_wear_no_armour():
    """Battle Monks: the Cathayan longsword (75 gc), silk cloak and horse (30 gc) are for the
    Emissary only; Strictures keep armour off the monks."""
    warband = _warband("battle_monks_of_cathay")
    hire(warband, "emissary", items=["cathayan_longsword", "riding_horse"])
    assert warband.gold_crowns == 500 - 60 - 75 - 30
    officer = hire(warband, "officer")
    soldiers = hire(warband, "soldier", models=2)
    monks = hire(warband, "warrior_monk", models=2)

    for warrior, item in [
        (officer, "cathayan_longsword"),
        (officer, "riding_horse"),
        (soldiers, "cathayan_silk_clothes"),
        (monks, "helmet"),
        (monks, "shield"),
    ]:
        refused_purchase(warband, warrior, item, f"not on {possessive(warrior.warrior_type.name)}")


def test_the_battle_monks_hire_only_those_who_name_them():
    """Outsiders: a Swordsmith (his entry names the Battle Monks) may join, a Pit Fighter may
    not."""
    warband = _warband("battle_monks_of_cathay")

    assert hired_swords.sword_refusal(warband, HiredSwordType.objects.get(key="swordsmith")) is None
    pit_fighter = HiredSwordType.objects.get(key="pit_fighter")
    assert hired_swords.sword_refusal(warband, pit_fighter)


def test_black_dwarf_starred_gear_goes_to_gaolers_and_the_sorcerer():
    """Black Dwarfs: the steel whip and man-catcher are the Gaolers', the mechanical suit the
    Sorcerer's (175 gc while founding)."""
    warband = _warband("black_dwarfs")
    sorcerer = hire(warband, "sorcerer", items=["mechanical_suit"])
    assert warband.gold_crowns == 500 - 85 - 175
    gaoler = hire(warband, "gaoler", items=["steel_whip"])
    dwarfs = hire(warband, "chaos_dwarf", models=1)

    for warrior, item in [
        (sorcerer, "man_catcher"),
        (gaoler, "mechanical_suit"),
        (dwarfs, "steel_whip"),
        (dwarfs, "mechanical_suit"),
    ]:
        refused_purchase(warband, warrior, item, f"not on {possessive(warrior.warrior_type.name)}")


@pytest.mark.parametrize("key", ["black_dwarfs", "sons_of_hashut"])
def test_chaos_dwarfs_never_hire_an_elf(key):
    """Hired Swords: a Dark Elf Assassin, whom any evil warband may hire, is refused; the
    Hobgoblin Scout, who names both Chaos Dwarf lists, may join."""
    warband = _warband(key)
    assassin = HiredSwordType.objects.get(key="dark_elf_assassin")
    scout = HiredSwordType.objects.get(key="hobgoblin_scout")

    assert hired_swords.sword_refusal(warband, assassin)
    assert hired_swords.sword_refusal(warband, scout) is None


def test_hobgoblins_keep_their_poisoned_daggers_and_come_in_any_number():
    """The Sons of Hashut: poisoned daggers are for Hobgoblins only; Hobgoblins have no
    maximum (groups of up to five), Blunderbussers stop at three."""
    warband = _warband("sons_of_hashut")
    hire(warband, "apprentice_sorcerer")
    warriors = hire(warband, "chaos_dwarf_warrior", models=1)
    hire(warband, "hobgoblin", models=5)
    hire(warband, "hobgoblin", models=2)
    hire(warband, "blunderbuss_chaos_dwarf", models=3)

    refused_purchase(
        warband, warriors, "hobgoblin_poisoned_daggers", "not on Chaos Dwarf Warrior's"
    )
    assert warband.warriors.filter(warrior_type__key="hobgoblin").count() == 2
