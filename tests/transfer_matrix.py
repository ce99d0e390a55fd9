"""Carrying and importing warbands in the URL matrix (``tests/test_url_matrix.py``): only the
owner carries his warband; every member reads the import page, and the scenario's campaign
takes no warband files, so every post to it is refused."""

MATRIX = {
    "warband_carry": ("LHFOF", "LHFOF"),
    "campaign_import": ("LHOOO", "LHFFF"),
    "campaign_import_confirm": ("LMMMM", "LHFFF"),
}
