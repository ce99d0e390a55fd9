import pytest

from tests.helpers import at_step, mustered_duel
from tests.sharing import per_test, read_again, shared_per_module


@pytest.fixture
def committed_duel(reference_data):
    """The Reavers and the Scourge of ``tests.helpers.mustered_duel``, for the transactional
    tests: the rows commit, so the threads of ``run_together`` and the migrations see them."""
    return mustered_duel()


@pytest.fixture(scope="class")
def _reavers_at_built(request, _duel_built, django_db_blocker):
    """The Reavers' sequence of the module's duel played up to the class's ``AT_STEP``
    (``tests.helpers.at_step``), once for the tests of the class: playing the steps is most of
    what each of them would do first, and each runs in a savepoint rolled back after it."""
    yield from shared_per_module(
        request, django_db_blocker, lambda: at_step(read_again(_duel_built), request.cls.AT_STEP)
    )


@pytest.fixture
def reavers_at(request, _reavers_at_built, duel):
    """``at_step(duel, AT_STEP)`` for a test of a class that sets ``AT_STEP``: the sequence
    and the Reavers' owner, read again from the rows played once for the class (``duel`` then
    shows the Reavers as the steps left them)."""
    return per_test(_reavers_at_built, lambda: at_step(duel, request.cls.AT_STEP))
