"""Every Grade 1b and 1c warband list mustered through the real services: a legal starting
warband of each (``grade_1b_1c_legal``: its cost summed by hand from the rule text), and one
illegal choice per list refused with nothing changed. The lists are checked against the texts
in ``test_grade_1b_1c_lists``, their own gear rules in ``test_grade_1b_1c_gear``."""

import pytest

from tests.factories import WarbandFactory, finish, hire, lead
from tests.warbands.grade_1b_1c_legal import LEGAL as LEGAL_1B
from tests.warbands.grade_1c_legal_a import ILLEGAL_A, LEGAL_A
from tests.warbands.grade_1c_legal_b import ILLEGAL_B, LEGAL_B
from tests.warbands.grade_1c_legal_c import ILLEGAL_C, LEGAL_C
from tests.warbands.grade_1c_legal_d import ILLEGAL_D, LEADERS_D, LEGAL_D
from tests.warbands.grade_1c_legal_e import ILLEGAL_E, LEGAL_E
from tests.warbands.test_grade_1b_1c_lists import SECTIONS
from tests.warbands.test_muster import refused
from warbands import services
from warbands.models import WarbandType

pytestmark = pytest.mark.django_db


def _a_mortar_for_a_pistolier(w):
    pistolier = hire(w, "pistolier")
    return lambda: services.buy_item(pistolier, actor=w.owner, item_key="hand_held_mortar")


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


def _a_helmet_for_the_troll_slayer(w):
    slayer = hire(w, "dwarf_troll_slayer")
    return lambda: services.buy_item(slayer, actor=w.owner, item_key="helmet")


def _a_shoota_without_boyz(w):
    hire(w, "black_orc_boss")
    return lambda: hire(w, "orc_shoota")


def _a_claw_for_an_amazon_warrior(w):
    hire(w, "priestess")
    warriors = hire(w, "amazon_warrior", models=2)
    return lambda: services.buy_item(warriors, actor=w.owner, item_key="claw_of_the_old_ones")


def _bolas_for_an_amazon_warrior(w):
    hire(w, "serpent_priestess")
    warriors = hire(w, "amazon_warrior", models=2)
    return lambda: services.buy_item(warriors, actor=w.owner, item_key="bolas")


def _saurus_without_skinks(w):
    hire(w, "skink_priest")
    return lambda: hire(w, "saurus_brave", models=1)


def _a_helmet_for_the_ranger_slayer(w):
    slayer = hire(w, "dwarf_troll_slayer")
    return lambda: services.buy_item(slayer, actor=w.owner, item_key="helmet")


def _light_armour_for_an_initiate(w):
    hire(w, "horned_hunter")
    initiate = hire(w, "initiate")
    return lambda: services.buy_item(initiate, actor=w.owner, item_key="light_armour")


def _a_boss_pole_for_a_goblin(w):
    goblin = hire(w, "forest_goblin")
    return lambda: services.buy_item(goblin, actor=w.owner, item_key="boss_pole")


def _a_katar_for_a_nomad_warrior(w):
    hire(w, "sheikh")
    warriors = hire(w, "nomad_warrior", models=2)
    return lambda: services.buy_item(warriors, actor=w.owner, item_key="katar")


def _a_squire_without_a_knight(w):
    hire(w, "questing_knight")
    hire(w, "squire")
    return lambda: hire(w, "squire")


def _a_bow_for_the_master_chef(w):
    chef = hire(w, "master_chef")
    return lambda: services.buy_item(chef, actor=w.owner, item_key="bow")


def _a_cleric_beside_two_champions_and_two_thieves(w):
    hire(w, "bandit_leader")
    for key in ("champion", "champion", "petty_thief", "petty_thief"):
        hire(w, key)
    return lambda: hire(w, "cleric")


# One illegal choice per list: the action, and the reason it is refused.
def _a_long_bow_for_a_warrior(w):
    warrior = hire(w, "warrior")
    return lambda: services.buy_item(warrior, actor=w.owner, item_key="long_bow")


def _a_third_champion(w):
    hire(w, "champion")
    hire(w, "champion")
    return lambda: hire(w, "champion")


def _a_shield_for_a_marksman(w):
    marksman = hire(w, "marksman")
    return lambda: services.buy_item(marksman, actor=w.owner, item_key="shield")


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
    # Pit Fighters: Slayers never wear armour; the helmet is the Ogre's.
    "pit_fighters": (
        _a_helmet_for_the_troll_slayer,
        "not on Dwarf Troll Slayer's equipment list",
    ),
    # Black Orcs: no more Shootaz than Boyz.
    "black_orcs": (_a_shoota_without_boyz, "at most one Orc Shoota for each Orc Boy"),
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
    # Saurus Rarity: never more Saurus Braves than Skink Braves
    "lizardmen": (_saurus_without_skinks, "at most one Saurus Brave for each Skink Brave"),
    # Forest Goblins: the boss pole is on the Hero Equipment List only
    "forest_goblins": (_a_boss_pole_for_a_goblin, "not on Forest Goblin's equipment list"),
    # Arabian Tomb Raiders: the katar is on the Slave Equipment List only
    "arabian_tomb_raiders": (
        _a_katar_for_a_nomad_warrior,
        "not on Nomad Warrior's equipment list",
    ),
    # Bretonnian Knights: never more Squires than Knights
    "bretonnian_knights": (_a_squire_without_a_knight, "at most one Squire for each Knight"),
    # Dwarf Rangers: Slayers never wear armour
    "dwarf_rangers": (
        _a_helmet_for_the_ranger_slayer,
        "not on Dwarf Troll Slayer's equipment list",
    ),
    # Horned Hunters, Strictures: Initiates never wear armour
    "horned_hunters": (_light_armour_for_an_initiate, "not on Initiate's equipment list"),
    # Mootlanders: the Master Chef buys from his utensils list only.
    "mootlanders": (_a_bow_for_the_master_chef, "not on Master Chef's equipment list"),
    # Outlaws: the Cleric takes a Champion's or a Petty Thief's place (five heroes at most).
    "outlaws_of_stirwood_forest": (
        _a_cleric_beside_two_champions_and_two_thieves,
        "at most 5 heroes",
    ),
    # Tileans: the long bow is on the Marksman's list only; two Champions at most; and no
    # shield on the Marksman's list.
    "miragleans": (_a_long_bow_for_a_warrior, "not on Warrior's equipment list"),
    "remasens": (_a_third_champion, "at most 2 Champion"),
    "trantios": (_a_shield_for_a_marksman, "not on Marksman's equipment list"),
    # Gunnery School: the mortar is on the Marksman Equipment List only.
    "gunnery_school_of_nuln": (_a_mortar_for_a_pistolier, "not on Pistolier's equipment list"),
    **ILLEGAL_A,
    **ILLEGAL_B,
    **ILLEGAL_C,
    **ILLEGAL_D,
    **ILLEGAL_E,
}
LEGAL = {**LEGAL_1B, **LEGAL_A, **LEGAL_B, **LEGAL_C, **LEGAL_D, **LEGAL_E}


def test_every_list_of_the_texts_has_a_legal_and_an_illegal_warband():
    assert set(LEGAL) == set(ILLEGAL) == set(SECTIONS)


@pytest.mark.parametrize("key", sorted(LEGAL))
def test_a_legal_starting_warband_musters(key):
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))
    for type_key, models, items in LEGAL[key][0]:
        hire(warband, type_key, models=models, items=items)
    if key in LEADERS_D:  # a list whose player names its leader
        lead(warband, LEADERS_D[key])

    assert warband.gold_crowns == LEGAL[key][1]
    finish(warband)
    assert warband.status == "active"


@pytest.mark.parametrize("key", sorted(ILLEGAL))
def test_one_illegal_choice_per_list_is_refused(key):
    setup, reason = ILLEGAL[key]
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))

    refused(warband, setup(warband), reason)
