import pytest

from campaign.models import Membership
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband


@pytest.fixture
def duel(db):
    """A campaign with an organiser and two mustered warbands, Reavers and Scourge."""
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    return {
        "campaign": campaign,
        "organiser": organiser,
        "reavers": reavers,
        "scourge": scourge,
        "bystander": MembershipFactory(campaign=campaign).user,
    }


def member(campaign, user) -> Membership:
    return Membership.objects.get(campaign=campaign, user=user)
