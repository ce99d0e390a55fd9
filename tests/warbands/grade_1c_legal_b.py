"""Legal starting warbands and one illegal choice of the Grade 1c lists Night Goblins,
Maneaters, The Restless Dead and Merchant Caravans, for ``test_grade_1b_1c_musters``: (type,
models, items) hires and the gold left, summed by hand from the rule text's costs."""

from tests.factories import hire
from warbands import services


def _a_squig_without_night_goblins(w):
    hire(w, "big_boss")
    return lambda: hire(w, "cave_squig")


def _a_sabretusk_without_a_guide(w):
    hire(w, "captain")
    return lambda: hire(w, "sabretusk")


def _a_sword_for_the_liche(w):
    liche = hire(w, "liche")
    return lambda: services.buy_item(liche, actor=w.owner, item_key="sword")


def _a_helmet_for_a_night_goblin_warrior(w):
    warriors = hire(w, "night_goblin_warrior", models=2)
    return lambda: services.buy_item(warriors, actor=w.owner, item_key="helmet")


def _a_pike_for_a_marksman(w):
    marksmen = hire(w, "marksman", models=2)
    return lambda: services.buy_item(marksmen, actor=w.owner, item_key="pike_merchant_caravans")


LEGAL_B = {
    "night_goblins": (
        [
            ("big_boss", 1, ["sword", "shield"]),
            ("shaman", 1, []),
            ("boss", 1, ["spear"]),
            ("boss", 1, ["short_bow"]),
            ("night_goblin", 3, ["spear"]),
            ("fanatic", 1, ["ball_and_chain", "mad_cap_mushrooms"]),
            ("cave_squig", 2, []),
            ("snotling_mob", 1, []),
        ],
        500
        - (45 + 10 + 5)
        - 50
        - (25 + 10)
        - (25 + 5)
        - 3 * (15 + 10)
        - (20 + 15 + 25)
        - 2 * 15
        - 50,
    ),
    # Ogres have no free dagger: the lists sell none.
    "maneaters": (
        [
            ("captain", 1, ["ogre_club"]),
            ("mountain_guide", 1, ["sword"]),
            ("sabretusk", 1, []),
            ("youngblood", 1, ["axe"]),
        ],
        500 - (145 + 10) - (145 + 10) - 125 - (45 + 5),
    ),
    "the_restless_dead": (
        [
            ("liche", 1, ["heavy_armour"]),
            ("necromancer", 1, ["sword"]),
            ("grave_guard", 1, ["halberd"]),
            ("zombie", 3, []),
            ("skeleton", 2, ["spear"]),
            ("scarecrow", 1, []),
            ("wight", 1, ["axe"]),
        ],
        500 - (125 + 50) - (40 + 10) - (35 + 10) - 3 * 15 - 2 * (20 + 10) - 65 - (30 + 5),
    ),
    # Merchant Caravans: 600 gc; the Merchant buys the Trade Wagon every caravan starts with.
    "merchant_caravans": (
        [
            ("merchant", 1, ["sword", "trade_wagon"]),
            ("knights_vanguard", 1, ["dragon_sword"]),
            ("magician", 1, []),
            ("apprentice", 1, []),
            ("sell_sword", 2, ["pike_merchant_caravans"]),
            ("marksman", 2, ["crossbow"]),
            ("blackguard", 1, ["double_handed_weapon"]),
        ],
        600 - (50 + 10 + 180) - (45 + 20) - 40 - 15 - 2 * (25 + 10) - 2 * (30 + 25) - (35 + 15),
    ),
    "night_goblins_web": (
        [
            ("boss", 1, ["sword", "boss_pole"]),
            ("squig_herder", 1, ["squig_prodder"]),
            ("goonz", 1, ["short_bow"]),
            ("shaman", 1, []),
            ("night_goblin_warrior", 4, ["spear"]),
            ("night_goblin_fanatic", 1, ["ball_and_chain", "mad_cap_mushrooms"]),
            ("cave_squig", 2, []),
            ("snotling", 3, []),
        ],
        500
        - (45 + 10 + 20)
        - (35 + 15)
        - (20 + 5)
        - 25
        - 4 * (15 + 5)
        - (20 + 15 + 15)
        - 2 * 15
        - 3 * 10,
    ),
}

# One illegal choice per list: the action, and the reason it is refused.
ILLEGAL_B = {
    # Night Goblins: never more Cave Squigs than Night Goblins
    "night_goblins": (_a_squig_without_night_goblins, "at most one Cave Squig for each Night"),
    # Maneaters: Sabretusks only with a Mountain Guide
    "maneaters": (_a_sabretusk_without_a_guide, "Sabretusks may only join"),
    # The Restless Dead: a Liche carries no ordinary weapon (his list is armour)
    "the_restless_dead": (_a_sword_for_the_liche, "not on Liche's equipment list"),
    # Merchant Caravans: the pike is for Sell-swords only
    "merchant_caravans": (_a_pike_for_a_marksman, "not on Marksman's equipment list"),
    # Night Goblins (web): the helmet is on the Hero list, not the Henchmen list
    "night_goblins_web": (
        _a_helmet_for_a_night_goblin_warrior,
        "not on Night Goblin Warrior's equipment list",
    ),
}
