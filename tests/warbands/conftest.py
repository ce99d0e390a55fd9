import pytest

from tests.factories import mustered_warband
from tests.sharing import per_test, shared_per_module


@pytest.fixture(scope="module")
def _warband_built(request, django_db_setup, django_db_blocker):
    yield from shared_per_module(request, django_db_blocker, mustered_warband)


@pytest.fixture
def warband(_warband_built, db):
    """A mustered warband of its own campaign (the treasury tests' subject): built once per
    module, as built for every test."""
    return per_test(_warband_built, mustered_warband)
