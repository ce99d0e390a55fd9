"""Grade 1c lists (Battle Monks of Cathay, Black Dwarfs, The Sons of Hashut, Lustrian
Reavers) for ``test_grade_1b_1c_musters``: a legal starting warband of each, (type, models,
items) hires and the gold left, summed by hand from the rule text's costs; and one illegal
choice of each, the action and the reason it is refused."""

from tests.factories import hire
from warbands import services


def _armour_for_a_dragon_monk(w):
    monk = hire(w, "dragon_monk")
    return lambda: services.buy_item(monk, actor=w.owner, item_key="light_armour")


def _a_handgun_for_the_bull_centaur(w):
    centaur = hire(w, "bull_centaur")
    return lambda: services.buy_item(centaur, actor=w.owner, item_key="handgun")


def _three_hobgoblins_only(w):
    hire(w, "apprentice_sorcerer")
    hire(w, "hobgoblin", models=3)
    return lambda: services.finish_muster(w, actor=w.owner)


LEGAL_A = {
    "battle_monks_of_cathay": (
        [
            ("emissary", 1, ["sword", "duelling_pistol"]),
            ("officer", 1, ["spear", "shield"]),
            ("dragon_monk", 1, ["quarter_staff"]),
            ("dragon_monk", 1, ["chain_sticks"]),
            ("soldier", 2, ["spear"]),
            ("warrior_monk", 2, ["fish_hook_shot"]),
            ("raging_peasant", 2, []),
        ],
        500
        - (60 + 10 + 30)
        - (40 + 10 + 5)
        - (55 + 15)
        - (55 + 20)
        - 2 * (25 + 10)
        - 2 * (35 + 10)
        - 2 * 10,
    ),
    "black_dwarfs": (
        [
            ("sorcerer", 1, ["hammer"]),
            ("bull_centaur", 1, ["double_handed_weapon", "light_armour"]),
            ("gaoler", 1, ["man_catcher"]),
            ("chaos_dwarf", 2, ["blunderbuss"]),
            ("informer", 3, ["sling"]),
        ],
        500 - (85 + 3) - (100 + 15 + 20) - (50 + 25) - 2 * (40 + 30) - 3 * (15 + 2),
    ),
    "sons_of_hashut": (
        [
            ("apprentice_sorcerer", 1, ["hammer"]),
            ("bull_centaur", 1, ["axe", "light_armour"]),
            ("chaos_dwarf_champion", 1, ["sons_of_hashut_obsidian_weapon"]),
            ("blunderbuss_chaos_dwarf", 1, ["chaos_dwarf_blunderbuss"]),
            ("hobgoblin", 4, ["hobgoblin_poisoned_daggers"]),
        ],
        500 - (85 + 3) - (75 + 5 + 20) - (50 + 30) - (40 + 40) - 4 * (15 + 15),
    ),
}

ILLEGAL_A = {
    # Strictures: Dragon Monks never wear armour (the Monk Equipment List sells none).
    "battle_monks_of_cathay": (
        _armour_for_a_dragon_monk,
        "not on Dragon Monk's equipment list",
    ),
    # Black Dwarfs: the Bull Centaur never uses missile weapons.
    "black_dwarfs": (_a_handgun_for_the_bull_centaur, "not on Bull Centaur's equipment list"),
    # The Sons of Hashut, Indentured Servants: four Hobgoblins at least to start.
    "sons_of_hashut": (_three_hobgoblins_only, "must include 4 Hobgoblin"),
}
