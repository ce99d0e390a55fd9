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
}


def _armour_for_the_seer(w):
    seer = hire(w, "seer")
    return lambda: services.buy_item(seer, actor=w.owner, item_key="light_armour")


# One illegal choice per list: the action, and the reason it is refused.
ILLEGAL_C = {
    # Marauders of Chaos: the Seer buys weapons only (the Chieftain and Champions armour too).
    "marauders_of_chaos": (_armour_for_the_seer, "not on Seer's equipment list"),
}
