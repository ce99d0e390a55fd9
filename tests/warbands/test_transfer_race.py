"""Two tabs carrying the same warband into the same campaign at once, on real PostgreSQL: the
second waits for the first's lock on the warband, then finds its copy there."""

import pytest

from campaign.models import Membership
from tests.factories import CampaignFactory, mustered_warband
from tests.helpers import run_together
from warbands import treasury
from warbands.models import Warband
from warbands.transfer import services


@pytest.mark.django_db(transaction=True)
def test_two_tabs_carrying_at_once_make_one_copy(reference_data):
    source = mustered_warband()
    target = CampaignFactory(carrying_allowed=True, max_warbands_per_player=3,
                             carried_treasury="kept")  # fmt: skip
    Membership.objects.create(campaign=target, user=source.owner)

    def carry():
        services.carry_warband(source, actor=source.owner, target=target)

    outcomes = run_together(carry, carry)

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    assert "already been carried" in " ".join(outcomes)
    assert Warband.objects.filter(campaign=target).count() == 1
    assert not treasury.conservation_problems()
