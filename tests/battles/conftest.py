import pytest

from tests.helpers import mustered_duel


@pytest.fixture
def committed_duel(reference_data):
    """The Reavers and the Scourge of ``tests.helpers.mustered_duel``, for the transactional
    tests: the rows commit, so the threads of ``run_together`` and the migrations see them."""
    return mustered_duel()
