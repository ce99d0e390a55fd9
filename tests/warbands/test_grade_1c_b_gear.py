"""The own gear and hiring rules of the Grade 1c lists Night Goblins, Maneaters, The Restless
Dead and Merchant Caravans, beyond their legal and illegal musters
(``test_grade_1b_1c_musters``)."""

import pytest

from tests.factories import WarbandFactory, hire
from tests.warbands.test_muster import refused, refused_purchase
from warbands import hired_swords
from warbands.models import HiredSwordType, WarbandType

pytestmark = pytest.mark.django_db


def _warband(key):
    return WarbandFactory(warband_type=WarbandType.objects.get(key=key))


def test_only_fanatics_swing_the_ball_and_chain():
    """Night Goblins: the ball and chain and the poison daggers are on the Fanatic list; a
    Night Goblin buys from his own list, a Fanatic carries no shield."""
    warband = _warband("night_goblins")
    goblins = hire(warband, "night_goblin", models=2)
    fanatic = hire(warband, "fanatic", items=["ball_and_chain", "poison_daggers"])

    for warrior, item, reason in [
        (goblins, "ball_and_chain", "not on Night Goblin's equipment list"),
        (fanatic, "shield", "not on Fanatic's equipment list"),
    ]:
        refused_purchase(warband, warrior, item, reason)
    assert {i.item.key for i in fanatic.items.all()} == {"ball_and_chain", "poison_daggers"}


def test_the_cathayan_longsword_is_the_captains_alone():
    """Maneaters: the Cathayan longsword is starred "Captain only"; Ogres get no free dagger."""
    warband = _warband("maneaters")
    captain = hire(warband, "captain", items=["cathayan_longsword"])
    youngblood = hire(warband, "youngblood")

    refused_purchase(warband, youngblood, "cathayan_longsword", "not on Youngblood's")
    refused_purchase(warband, youngblood, "dagger", "not on Youngblood's equipment list")
    assert [i.item.key for i in captain.items.all()] == ["cathayan_longsword"]


def test_the_maneaters_hire_halflings_but_no_human_sword():
    """Maneaters, Cannibals: a Halfling or the Ogre Bodyguard may join, a Pit Fighter not."""
    warband = _warband("maneaters")
    swords = {s.key: s for s in HiredSwordType.objects.all()}

    assert hired_swords.sword_refusal(warband, swords["halfling_scout"]) is None
    assert hired_swords.sword_refusal(warband, swords["ogre_bodyguard"]) is None
    assert hired_swords.sword_refusal(warband, swords["pit_fighter"])


def test_each_scarecrow_needs_a_master():
    """The Restless Dead, Animated Construct: the Liche and the Necromancer control one
    Scarecrow each, so a second needs the Necromancer."""
    warband = _warband("the_restless_dead")
    hire(warband, "liche")
    hire(warband, "scarecrow")

    refused(warband, lambda: hire(warband, "scarecrow"), "at most one Scarecrow for each")
    hire(warband, "necromancer")
    hire(warband, "scarecrow")
    assert warband.warriors.filter(warrior_type__key="scarecrow").count() == 2


def test_the_knights_vanguard_buy_from_both_their_lists():
    """Merchant Caravans: the Knights Vanguard buy from the Hero and the Cathayan lists, and
    they alone ride a warhorse (40 gc on the list)."""
    warband = _warband("merchant_caravans")
    merchant = hire(warband, "merchant")
    knight = hire(warband, "knights_vanguard", items=["warhorse", "dragon_sword", "pistol"])

    refused_purchase(warband, merchant, "warhorse", "not on Merchant's equipment list")
    assert warband.gold_crowns == 600 - 50 - (45 + 40 + 20 + 15)
    assert {i.item.key for i in knight.items.all()} >= {"warhorse", "dragon_sword", "pistol"}


def test_the_web_night_goblins_keep_distasteful_company():
    """Night Goblins (web), Distasteful Company: a Black Orc Overseer (he serves greenskins),
    a Warlock or a Pit Fighter may join; an Elf Ranger or a Halfling Scout not."""
    warband = _warband("night_goblins_web")
    swords = {s.key: s for s in HiredSwordType.objects.all()}

    for key in ("black_orc_overseer", "warlock", "pit_fighter"):
        assert hired_swords.sword_refusal(warband, swords[key]) is None, key
    for key in ("elf_ranger", "halfling_scout"):
        assert hired_swords.sword_refusal(warband, swords[key]), key
