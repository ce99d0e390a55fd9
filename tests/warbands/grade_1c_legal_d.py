"""The leader each list whose player chooses him names in its legal starting warband
(``LEGAL`` of ``test_grade_1b_1c_musters``), and the Lustrian Reavers' legal starting warband
and illegal choice: costs summed by hand from the rule text."""

from tests.factories import hire

# The hero each legal starting warband names its leader (the list's ``leader`` roster rule):
# the Court's is the Danseuse, not the Whipmaster the app once took for it.
LEADERS_D = {
    "court_of_the_profane_pleasures": "slaaneshi_danseuse",
    "lustrian_reavers": "trapmaster",
}

# A legal starting warband: (type, models, items) hires, and the gold left.
LEGAL_D = {
    # Two War Beasts of two kinds with the Beastmaster; every gold crown spent.
    "lustrian_reavers": (
        [
            ("reaver_beastmaster", 1, ["sword"]),
            ("jungle_shadow", 1, ["blowpipe"]),
            ("trapmaster", 1, []),
            ("prospect", 2, ["spear"]),
            ("estalian_warhound", 1, []),
            ("barbary_monkey", 1, []),
        ],
        500 - (90 + 10) - (90 + 15) - 140 - 2 * (35 + 10) - 25 - 40,
    ),
}


def _a_third_war_beast(w):
    hire(w, "reaver_beastmaster")
    hire(w, "estalian_warhound", models=2)
    return lambda: hire(w, "barbary_monkey")


# One illegal choice: the action, and the reason it is refused.
ILLEGAL_D = {
    # War Beasts: two at most with the Beastmaster, whatever their kinds
    "lustrian_reavers": (_a_third_war_beast, "at most two War Beasts for the Beastmaster"),
}
