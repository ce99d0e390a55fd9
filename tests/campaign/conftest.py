import pytest

from tests.factories import CampaignFactory, MembershipFactory, mustered_warband


@pytest.fixture
def league():
    """An open campaign: organiser, co-organiser, two players with warbands; and a player of
    another campaign."""
    campaign = CampaignFactory(name="Siege of Sigmarhafen")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    co_organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    outsider = mustered_warband(name="Elsewhere").owner
    return {
        "campaign": campaign,
        "organiser": organiser,
        "co_organiser": co_organiser,
        "player": reavers.owner,
        "reavers": reavers,
        "scourge": scourge,
        "outsider": outsider,
    }
