import pytest

from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.sharing import per_test, shared_per_module


def build_league() -> dict:
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


@pytest.fixture(scope="module")
def _league_built(request, django_db_setup, django_db_blocker):
    yield from shared_per_module(request, django_db_blocker, build_league)


@pytest.fixture
def league(_league_built, db):
    """The league of ``build_league``: built once per module, as built for every test."""
    return per_test(_league_built, build_league)
