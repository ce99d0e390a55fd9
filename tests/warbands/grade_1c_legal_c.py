"""A legal starting warband and one illegal choice of each Grade 1c list written without a
catalogue (Marauders of Chaos, Bretonnian Chapel Guard, Court of the Profane Pleasures, The
Cursed Cavalcade) and of the Imperial Outriders, for ``test_grade_1b_1c_musters``: costs
summed by hand from the rule text."""

from tests.factories import hire
from warbands import services

# A legal starting warband of each list: (type, models, items) hires, and the gold left.
LEGAL_C = {
    "marauders_of_chaos": (
        [
            ("marauder_chieftain", 1, ["sword", "shield", "helmet"]),
            ("seer", 1, ["axe"]),
            ("champion", 1, ["barbed_whip"]),
            ("condemned", 1, []),
            ("chaos_marauder", 3, ["spear"]),
            ("warhound_of_chaos", 2, []),
        ],
        500 - (95 + 10 + 5 + 10) - (45 + 5) - (45 + 15) - 55 - 3 * (35 + 10) - 2 * 15,
    ),
    "bretonnian_chapel_guard": (
        [
            ("questing_knight", 1, ["sword", "shield", "heavy_armour"]),
            ("damsel", 1, ["shortsword"]),
            ("knight_errant", 1, ["spear", "kite_shield"]),
            ("squire", 2, ["bow"]),
            ("battle_pilgrim", 2, ["halberd"]),
            ("bowman", 3, ["long_bow"]),
        ],
        500
        - (75 + 10 + 5 + 50)
        - (35 + 7)
        - (35 + 10 + 10)
        - 2 * (25 + 10)
        - 2 * (30 + 10)
        - 3 * (15 + 15),
    ),
    "court_of_the_profane_pleasures": (
        [
            ("slaaneshi_whipmaster", 1, ["hedonist_whip", "light_armour"]),
            ("slaaneshi_danseuse", 1, ["sword"]),
            ("slaaneshi_priest_of_obscene", 1, ["mace"]),
            ("cultist", 2, ["sword"]),
            ("slaaneshi_wretch", 5, ["spear"]),
            ("slaaneshi_chaos_hound", 2, []),
        ],
        500 - (70 + 15 + 20) - (70 + 10) - (50 + 3) - 2 * (25 + 10) - 5 * (10 + 10) - 2 * 15,
    ),
    "imperial_outriders": (
        [
            ("knight", 1, ["sword", "shield", "warhorse"]),
            ("outrider", 1, ["pistol"]),
            ("scout", 1, ["throwing_knives"]),
            ("chasseur", 2, ["handgun"]),
        ],
        500 - (85 + 10 + 5 + 40) - (65 + 15) - (45 + 15) - 2 * (55 + 35),
    ),
    "the_cursed_cavalcade": (
        [
            ("aristocrat", 1, ["sword", "shield", "boar_spear"]),
            ("companion", 1, ["sword", "light_armour"]),
            ("twisted_scholar", 1, ["hammer"]),
            ("cursed_piper", 1, ["duelling_pistol"]),
            ("thrall", 3, ["spear"]),
            ("wild_beast", 2, []),
        ],
        500 - (70 + 10 + 5 + 30) - (45 + 10 + 20) - (25 + 3) - (40 + 25) - 3 * (25 + 10) - 2 * 45,
    ),
}


def _armour_for_the_seer(w):
    seer = hire(w, "seer")
    return lambda: services.buy_item(seer, actor=w.owner, item_key="light_armour")


def _a_lance_for_the_questing_knight(w):
    knight = hire(w, "questing_knight")
    return lambda: services.buy_item(knight, actor=w.owner, item_key="lance")


def _armour_for_the_danseuse(w):
    hire(w, "slaaneshi_whipmaster")
    danseuse = hire(w, "slaaneshi_danseuse")
    return lambda: services.buy_item(danseuse, actor=w.owner, item_key="helmet")


def _a_warhorse_for_a_scout(w):
    scout = hire(w, "scout")
    return lambda: services.buy_item(scout, actor=w.owner, item_key="warhorse")


def _a_boar_spear_for_a_companion(w):
    hire(w, "aristocrat")
    companion = hire(w, "companion")
    return lambda: services.buy_item(companion, actor=w.owner, item_key="boar_spear")


# One illegal choice per list: the action, and the reason it is refused.
ILLEGAL_C = {
    # Marauders of Chaos: the Seer buys weapons only (the Chieftain and Champions armour too).
    "marauders_of_chaos": (_armour_for_the_seer, "not on Seer's equipment list"),
    # Chapel Guard, Vow of Poverty: the Questing Knight never takes a lance.
    "bretonnian_chapel_guard": (
        _a_lance_for_the_questing_knight,
        "not on Questing Knight's equipment list",
    ),
    # Court of the Profane Pleasures: a Danseuse never wears armour.
    "court_of_the_profane_pleasures": (
        _armour_for_the_danseuse,
        "not on Slaaneshi Danseuse's equipment list",
    ),
    # Imperial Outriders: only the Knight, Outriders and Hussars may upgrade to a warhorse.
    "imperial_outriders": (_a_warhorse_for_a_scout, "not on Scout's equipment list"),
    # The Cursed Cavalcade: the boar spear is the Aristocrat's only.
    "the_cursed_cavalcade": (_a_boar_spear_for_a_companion, "not on Companion's equipment list"),
}
