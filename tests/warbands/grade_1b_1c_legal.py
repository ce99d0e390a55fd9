"""A legal starting warband of each Grade 1b and 1c list, for ``test_grade_1b_1c_musters``:
(type, models, items) hires, and the gold left, summed by hand from the rule text's costs."""

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
    # Tileans, a list per city: the text's shared costs (mace 3, duelling pistol 25, pike 12)
    "miragleans": (
        [
            ("captain", 1, ["sword", "crossbow"]),
            ("champion", 1, ["spear", "helmet"]),
            ("marksman", 3, ["crossbow"]),
            ("duellist", 2, ["rapier"]),
            ("warrior", 2, ["pike_tileans"]),
        ],
        500 - (60 + 10 + 25) - (35 + 10 + 10) - 3 * (25 + 25) - 2 * (35 + 15) - 2 * (25 + 12),
    ),
    "remasens": (
        [
            ("captain", 1, ["duelling_pistol", "sword"]),
            ("champion", 1, ["halberd"]),
            ("youngblood", 1, ["mace"]),
            ("warrior", 4, ["spear", "shield"]),
            ("marksman", 2, ["handgun"]),
        ],
        500 - (60 + 25 + 10) - (35 + 10) - (15 + 3) - 4 * (25 + 10 + 5) - 2 * (25 + 35),
    ),
    # Trantios: 600 gc, the text's 500 and a fifth more
    "trantios": (
        [
            ("captain", 1, ["brace_of_duelling_pistols", "light_armour"]),
            ("champion", 1, ["rapier", "buckler"]),
            ("champion", 1, ["rapier", "buckler"]),
            ("youngblood", 1, ["bow"]),
            ("marksman", 1, ["hochland_long_rifle"]),
            ("warrior", 3, ["sword"]),
        ],
        600 - (60 + 50 + 20) - 2 * (35 + 15 + 5) - (15 + 10) - (25 + 200) - 3 * (25 + 10),
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
