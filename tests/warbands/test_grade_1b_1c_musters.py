"""Every Grade 1b and 1c warband list mustered through the real services: a legal starting
warband of each, its cost summed by hand from the rule text, and one illegal choice per list
refused with nothing changed; then the lists' own gear rules. The lists themselves are checked
against the texts in ``test_grade_1b_1c_lists``."""

import pytest

from tests.factories import WarbandFactory, finish, hire
from tests.warbands.test_grade_1b_1c_lists import SECTIONS
from tests.warbands.test_muster import refused
from warbands import services
from warbands.models import WarbandType

pytestmark = pytest.mark.django_db

# --- Mustered through the real services ----------------------------------------------------
# A legal starting warband of each list: (type, models, items) hires, and the gold left,
# summed by hand from the rule text's costs.
LEGAL = {
    "norse_explorers": (
        [
            ("jarl", 1, ["axe", "shield"]),
            ("berserker", 1, ["double_handed_weapon"]),
            ("wulfen", 1, []),
            ("wolf", 2, []),
            ("hunter", 2, ["javelins"]),
            ("marauder", 1, ["throwing_knives"]),
        ],
        500 - (70 + 5 + 5) - (50 + 15) - 90 - 2 * 15 - 2 * (25 + 5) - (25 + 15),
    ),
    "pirates": (
        [
            ("pirate_captain", 1, ["sword", "pistol"]),
            ("ships_mate", 1, ["cat_o_nine_tails", "boat_hook"]),
            ("cabin_boy", 1, ["belaying_pins"]),
            ("crew", 3, ["sword", "buckler"]),
            ("gunner", 1, ["swivel_gun"]),
            ("boatswain", 1, ["mace"]),
        ],
        500 - (60 + 10 + 15) - (35 + 8 + 8) - (15 + 3) - 3 * (25 + 10 + 5) - (25 + 65) - (32 + 3),
    ),
    "hochland_bandits": (
        [
            ("bandit_prince", 1, ["sword", "shield"]),
            ("footpad", 1, ["spear", "throwing_knives"]),
            ("duelist", 1, ["rapier", "pistol"]),
            ("huckster", 1, ["sling"]),
            ("thug", 2, ["axe"]),
            ("gutterscum", 3, ["spear"]),
            ("poacher", 1, ["bow"]),
        ],
        500
        - (60 + 10 + 5)
        - (45 + 10 + 15)
        - (45 + 15 + 20)
        - (40 + 2)
        - 2 * (30 + 5)
        - 3 * (10 + 10)
        - (35 + 10),
    ),
    "skaven_of_clan_pestilens": (
        [
            ("plague_priest", 1, ["sword"]),
            ("pestilens_sorcerer", 1, []),
            ("plague_monk", 1, ["censer"]),
            ("monk_initiate", 1, ["disease_dagger"]),
            ("plague_novice", 3, ["spear"]),
            ("giant_rat", 3, []),
        ],
        500 - (85 + 10) - 45 - (45 + 40) - (20 + 15) - 3 * (20 + 10) - 3 * 15,
    ),
    "tomb_guardians": (
        [
            ("tomb_lord", 1, ["sword", "bow", "asp_arrows"]),
            ("liche_priest", 1, ["serpent_staff"]),
            ("acolyte", 1, ["club"]),
            ("skeleton_warrior", 3, ["spear"]),
            ("tomb_guard", 2, ["halberd"]),
            ("tomb_scorpion", 2, []),
        ],
        500 - (150 + 10 + 10 + 10) - (55 + 30) - (20 + 3) - 3 * (20 + 10) - 2 * (30 + 10) - 2 * 15,
    ),
    "dark_elves": (
        [
            ("high_born", 1, ["dark_elf_blade_sword", "dark_venom"]),
            ("beastmaster", 1, ["beastlash"]),
            ("cold_one_beasthound", 2, []),
            ("sorceress", 1, []),
            ("shade", 2, ["repeater_crossbow"]),
        ],
        500 - (70 + 25 + 15) - (45 + 10) - 2 * 30 - 55 - 2 * (30 + 35),
    ),
    "shadow_warriors": (
        [
            ("shadow_master", 1, ["ithilmar_sword", "elf_bow"]),
            ("shadow_weaver", 1, ["elven_runestones"]),
            ("shadow_walker", 1, ["long_bow", "elven_cloak"]),
            ("shadow_warrior", 2, ["bow"]),
            ("shadow_warrior_novice", 1, ["spear"]),
        ],
        500 - (70 + 20 + 35) - (55 + 50) - (45 + 15 + 75) - 2 * (35 + 10) - (25 + 10),
    ),
    "pit_fighters": (
        [
            ("pit_king", 1, ["orc_style"]),
            ("dwarf_troll_slayer", 1, ["dwarf_axe"]),
            ("ogre_pit_fighter", 1, ["mace"]),
            ("pursuer", 2, ["witch_elf_style"]),
            ("pit_fighter", 1, ["orc_style"]),
        ],
        500 - (80 + 20) - (50 + 15) - (165 + 3) - 2 * (25 + 30) - (35 + 20),
    ),
    "black_orcs": (
        [
            ("black_orc_boss", 1, ["sword", "shield"]),
            ("troll", 1, []),
            ("orc_boy", 2, ["axe"]),
            ("orc_shoota", 1, ["bow"]),
            ("orc_nutta", 1, ["double_handed_weapon"]),
            ("youngun", 1, ["spear"]),
        ],
        500 - (90 + 10 + 5) - 200 - 2 * (25 + 5) - (25 + 10) - (40 + 15) - (25 + 10),
    ),
    "amazons_mordheim": (
        [
            ("priestess", 1, ["club", "sunstaff"]),
            ("champion", 1, ["claw_of_the_old_ones"]),
            ("totem_warrior", 1, ["spear"]),
            ("amazon_warrior", 3, ["bow"]),
            ("scout", 2, ["javelins"]),
        ],
        500 - (70 + 3 + 50) - (35 + 30) - (30 + 10) - 3 * (25 + 10) - 2 * (30 + 5),
    ),
    "amazons_lustria": (
        [
            ("serpent_priestess", 1, ["starsword"]),
            ("eagle_warrior", 1, ["double_handed_weapon", "enchanted_skins"]),
            ("piranha_warrior", 1, ["bow"]),
            ("amazon_warrior", 3, ["sunstaff_lustria"]),
            ("jaguar_warrior", 2, ["bolas"]),
        ],
        500 - (70 + 30) - (35 + 15 + 20) - (30 + 10) - 3 * (25 + 35) - 2 * (30 + 5),
    ),
    "lizardmen": (
        [
            ("skink_priest", 1, ["blowpipe", "helmet"]),
            ("saurus_totem_warrior", 1, ["sword", "light_armour"]),
            ("skink_great_crest", 1, ["bolas"]),
            ("skink_brave", 3, ["javelins", "shield"]),
            ("saurus_brave", 2, ["spear"]),
        ],
        500 - (60 + 25 + 10) - (60 + 10 + 50) - (30 + 5) - 3 * (20 + 10 + 5) - 2 * (40 + 10),
    ),
    "forest_goblins": (
        [
            ("chieftain", 1, ["sword", "short_bow"]),
            ("brave", 1, ["boss_pole"]),
            ("shaman", 1, []),
            ("forest_goblin", 3, ["spear"]),
            ("red_toof_goblin", 2, ["sword"]),
            ("slugga", 1, ["throwing_knives"]),
            ("gigantic_spider", 1, []),
        ],
        500 - (50 + 10 + 5) - (20 + 20) - 20 - 3 * (15 + 5) - 2 * (25 + 10) - (20 + 15) - 200,
    ),
    "arabian_tomb_raiders": (
        [
            ("sheikh", 1, ["sword", "bow"]),
            ("champion", 1, ["spear"]),
            ("mystic", 1, []),
            ("bedouin", 1, ["bow"]),
            ("nomad_warrior", 3, ["mace", "shield"]),
            ("slave", 2, ["katar"]),
        ],
        500 - (60 + 10 + 10) - (40 + 10) - 40 - (35 + 10) - 3 * (25 + 3 + 5) - 2 * (15 + 5),
    ),
    "bretonnian_knights": (
        [
            ("questing_knight", 1, ["sword", "shield", "heavy_armour"]),
            ("knight_errant", 1, ["mace", "shield"]),
            ("squire", 1, ["bow"]),
            ("squire", 1, ["spear"]),
            ("man_at_arms", 2, ["halberd"]),
            ("bowman", 3, ["long_bow"]),
        ],
        500
        - (80 + 10 + 5 + 50)
        - (50 + 3 + 5)
        - (15 + 10)
        - (15 + 10)
        - 2 * (25 + 10)
        - 3 * (20 + 15),
    ),
    "dwarf_rangers": (
        [
            ("runesmith", 1, ["gromril_axe", "shield"]),
            ("apprentice_runesmith", 1, ["hammer"]),
            ("dwarf_troll_slayer", 1, ["dwarf_axe"]),
            ("dwarf_longbeard", 1, ["mace"]),
            ("dwarf_clansman", 2, ["axe"]),
            ("dwarf_crossbowman", 1, ["crossbow"]),
            ("beardling", 1, ["spear"]),
        ],
        500
        - (85 + 3 * 5 + 5)
        - (40 + 3)
        - (50 + 15)
        - (50 + 3)
        - 2 * (40 + 5)
        - (40 + 25)
        - (25 + 10),
    ),
    "horned_hunters": (
        [
            ("horned_hunter", 1, ["sword", "bow"]),
            ("priest_of_taal", 1, ["hammer", "light_armour"]),
            ("initiate", 1, ["spear", "short_bow"]),
            ("initiate", 1, ["spear", "short_bow"]),
            ("drunken_gang", 2, ["mace"]),
            ("zealot", 2, ["spear"]),
            ("warhound", 2, []),
        ],
        500
        - (60 + 10 + 10)
        - (45 + 3 + 20)
        - 2 * (40 + 5 + 5)
        - 2 * (30 + 3)
        - 2 * (20 + 5)
        - 2 * 15,
    ),
    "mootlanders": (
        [
            ("moot_elder", 1, ["bow", "pistol"]),
            ("master_chef", 1, ["ladle", "tenderiser"]),
            ("halfling_thief", 1, ["sling"]),
            ("halfling_warrior", 4, ["bow"]),
            ("halfling_scout", 2, ["short_bow"]),
        ],
        500 - (55 + 10 + 15) - (35 + 2 + 3) - (25 + 2) - 4 * (15 + 10) - 2 * (20 + 5),
    ),
    "outlaws_of_stirwood_forest": (
        [
            ("bandit_leader", 1, ["sword", "bow"]),
            ("champion", 1, ["long_bow", "forest_cloak"]),
            ("cleric", 1, ["club"]),
            ("petty_thief", 1, ["short_bow"]),
            ("marksman", 2, ["long_bow"]),
            ("outlaw", 3, ["bow"]),
        ],
        500 - (60 + 10 + 10) - (35 + 15 + 50) - (35 + 3) - (20 + 5) - 2 * (25 + 15) - 3 * (25 + 10),
    ),
    "gunnery_school_of_nuln": (
        [
            ("senior_gunnery_officer", 1, ["sword", "pistol"]),
            ("instructor", 1, ["repeater_pistol"]),
            ("senior_student", 1, ["duelling_pistol"]),
            ("underclassman", 1, ["axe"]),
            ("underclassman", 1, ["axe"]),
            ("marksman", 2, ["handgun"]),
            ("pistolier", 1, ["brace_of_pistols"]),
            ("son_of_the_guns", 1, ["mace"]),
        ],
        500
        - (60 + 10 + 10)
        - (45 + 25)
        - (45 + 20)
        - 2 * (20 + 5)
        - 2 * (30 + 25)
        - (35 + 20)
        - (25 + 3),
    ),
}


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
    # Gunnery School: the mortar is on the Marksman Equipment List only.
    "gunnery_school_of_nuln": (_a_mortar_for_a_pistolier, "not on Pistolier's equipment list"),
}


def test_every_list_of_the_texts_has_a_legal_and_an_illegal_warband():
    assert set(LEGAL) == set(ILLEGAL) == {key for key, _ in SECTIONS.values()}


@pytest.mark.parametrize("key", sorted(LEGAL))
def test_a_legal_starting_warband_musters(key):
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))
    for type_key, models, items in LEGAL[key][0]:
        hire(warband, type_key, models=models, items=items)

    assert warband.gold_crowns == LEGAL[key][1]
    finish(warband)
    assert warband.status == "active"


@pytest.mark.parametrize("key", sorted(ILLEGAL))
def test_one_illegal_choice_per_list_is_refused(key):
    setup, reason = ILLEGAL[key]
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=key))

    refused(warband, setup(warband), reason)
