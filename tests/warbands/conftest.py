import pytest

from tests.factories import mustered_warband


@pytest.fixture
def warband():
    """A mustered warband of its own campaign (the treasury tests' subject)."""
    return mustered_warband()
