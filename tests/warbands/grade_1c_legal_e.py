"""A legal starting warband and one illegal choice of the Ostermarkers (Grade 1b, the fourth
Mercenaries variant on the core chapter's page), for ``test_grade_1b_1c_musters``: costs summed
by hand from the rule text."""

from tests.factories import hire
from warbands import services

# A legal starting warband: (type, models, items) hires, and the gold left. The captain's
# wardog comes with him at no cost (Ostermark Special Rules), his dagger too.
LEGAL_E = {
    "ostermark": (
        [
            ("mercenary_captain", 1, ["sword", "light_armour"]),
            ("champion", 1, ["double_handed_weapon"]),
            ("youngblood", 1, ["mace"]),
            ("warrior", 3, ["spear", "shield"]),
            ("marksman", 2, ["long_bow"]),
            ("swordsman", 1, ["sword"]),
        ],
        500 - (60 + 10 + 20) - (35 + 15) - (15 + 3) - 3 * (25 + 10 + 5) - 2 * (25 + 15) - (35 + 10),
    ),
}


def _a_wolfcloak_for_the_captain(w):
    captain = hire(w, "mercenary_captain")
    return lambda: services.buy_item(captain, actor=w.owner, item_key="wolfcloak")


# One illegal choice: the action, and the reason it is refused. The Mercenary list's
# Wolfcloak is for Middenheim heroes only.
ILLEGAL_E = {
    "ostermark": (
        _a_wolfcloak_for_the_captain,
        r"not for this warband \(Middenheim Mercenaries only\)",
    ),
}
