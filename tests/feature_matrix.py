"""The features' parts of the URL matrix (``tests/test_url_matrix.py``), each in a module of
its own: their rows (``MATRIX``) and the path arguments their URLs take (``build``)."""

from tests import account_matrix, offline_matrix, schedule_matrix, side_matrix, transfer_matrix

MATRIX = {
    **schedule_matrix.MATRIX,
    **offline_matrix.MATRIX,
    **account_matrix.MATRIX,
    **transfer_matrix.MATRIX,
    **side_matrix.MATRIX,
}


def build(campaign, organiser, mine, theirs, battle) -> dict:
    """{URL name: its path arguments} for the features' URLs that take any."""
    return {**schedule_matrix.build(campaign, organiser, mine, theirs, battle)}
