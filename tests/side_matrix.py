"""The sides' part of the URL matrix (``tests/test_url_matrix.py``): a side saved as the battle
helper wrote it is the warband's player's, or an organiser's for him, like entering it."""

MATRIX = {
    "battle_side_as_recorded": ("LMMMM", "LHFOO"),
}
# The routes of a side: the battle and the warband (the owner's, in the reported battle).
ROUTES = ("battle_side", *MATRIX)
