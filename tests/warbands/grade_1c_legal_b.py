"""Legal starting warbands and one illegal choice of the Grade 1c lists Night Goblins,
Maneaters, The Restless Dead and Merchant Caravans, for ``test_grade_1b_1c_musters``: (type,
models, items) hires and the gold left, summed by hand from the rule text's costs."""

from tests.factories import hire


def _a_squig_without_night_goblins(w):
    hire(w, "big_boss")
    return lambda: hire(w, "cave_squig")


LEGAL = {
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
}

# One illegal choice per list: the action, and the reason it is refused.
ILLEGAL = {
    # Night Goblins: never more Cave Squigs than Night Goblins
    "night_goblins": (_a_squig_without_night_goblins, "at most one Cave Squig for each Night"),
}
