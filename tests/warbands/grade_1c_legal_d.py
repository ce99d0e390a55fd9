"""The leader each list whose player chooses him names in its legal starting warband
(``LEGAL`` of ``test_grade_1b_1c_musters``), and the Lustrian Reavers' legal starting warband
and illegal choice: costs summed by hand from the rule text."""

# The hero each legal starting warband names its leader (the list's ``leader`` roster rule):
# the Court's is the Danseuse, not the Whipmaster the app once took for it.
LEADERS_D = {
    "court_of_the_profane_pleasures": "slaaneshi_danseuse",
}

LEGAL_D: dict = {}

ILLEGAL_D: dict = {}
