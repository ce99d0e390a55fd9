import pytest

from campaign.models import Membership
from tests.helpers import mustered_duel


def member(campaign, user) -> Membership:
    return Membership.objects.get(campaign=campaign, user=user)


@pytest.fixture
def committed_duel(reference_data):
    """The Reavers and the Scourge of ``tests.helpers.mustered_duel``, for the transactional
    tests: the rows commit, so the threads of ``run_together`` and the migrations see them."""
    return mustered_duel()
