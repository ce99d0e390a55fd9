"""The Grade 1b and 1c lists' own gear and hiring rules, beyond their legal and illegal
musters (``test_grade_1b_1c_musters``): what a list's warriors may never carry or buy, and
whom it may never hire."""

import pytest

from tests.factories import WarbandFactory, hire
from tests.warbands.test_muster import refused_purchase
from warbands import hired_swords
from warbands.models import HiredSwordType, WarbandType

pytestmark = pytest.mark.django_db


def test_a_berserker_never_wears_armour():
    """Norse Explorers, Berserker: weapons from the hero list, never armour."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="norse_explorers"))
    berserker = hire(warband, "berserker")

    refused_purchase(warband, berserker, "shield", "not on Berserker's equipment list")


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
        refused_purchase(warband, warrior, item, reason)
    assert "sea_dragon_cloak" in [i.item.key for i in corsair.items.all()]


def test_shadow_warrior_henchmen_buy_no_starred_item():
    """Shadow Warriors: the starred items of the list (ithilmar, the standard, the horn, the
    wine) are for heroes; the Elven cloak is for anyone."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="shadow_warriors"))
    hire(warband, "shadow_master", items=["standard_of_nagarythe", "ithilmar_armour"])
    novices = hire(warband, "shadow_warrior_novice", models=2, items=["elven_cloak"])

    for item in ("ithilmar_dagger", "war_horn_of_nagarythe", "elven_wine"):
        refused_purchase(warband, novices, item, "heroes only")


@pytest.mark.parametrize("key", ["amazons_mordheim", "amazons_lustria"])
def test_the_amazons_hire_no_hired_sword(key):
    """Amazons, Not one of us: no outsider joins; a Pit Fighter, whom any human warband may
    hire, is refused (no hired sword of the catalogue is an Amazon)."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))
    pit_fighter = HiredSwordType.objects.get(key="pit_fighter")

    assert "hire no hired swords" in hired_swords.sword_refusal(warband, pit_fighter)
