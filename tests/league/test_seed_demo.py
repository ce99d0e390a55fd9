import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

from battles.models import Battle, Participant
from campaign.models import Campaign, CampaignEvent, Membership
from core.auth import DEMO_PASSWORD
from league.standings import league_table
from tests.sharing import built_once
from warbands import services
from warbands.house_rules import allowed
from warbands.models import (
    HouseRules,
    LedgerEntry,
    RatingSnapshot,
    StorageContainer,
    Warband,
    WarbandType,
    Warrior,
)

pytestmark = pytest.mark.django_db


def row_counts() -> dict[str, int]:

    return {
        "users": get_user_model().objects.count(),
        "campaigns": Campaign.objects.count(),
        "memberships": Membership.objects.count(),
        "warbands": Warband.objects.count(),
        "warriors": Warrior.objects.count(),
        "containers": StorageContainer.objects.count(),
        "ledger": LedgerEntry.objects.count(),
        "battles": Battle.objects.count(),
        "participants": Participant.objects.count(),
        "ratings": RatingSnapshot.objects.count(),
        "events": CampaignEvent.objects.count(),
    }


def test_seed_demo_twice_leaves_the_same_rows(settings, capsys):
    settings.DEBUG = True

    call_command("seed_demo")
    first = row_counts()
    call_command("seed_demo")

    assert row_counts() == first
    assert {k: first[k] for k in ("users", "campaigns", "memberships", "warbands", "battles")} == {
        "users": 6,
        "campaigns": 1,
        "memberships": 5,
        "warbands": 5,  # one each, and Alice's Grade 1b second
        "battles": 5,  # four of history and a game under way with the battle helper
    }
    output = capsys.readouterr().out
    assert DEMO_PASSWORD in output and "alice" in output and "organiser" in output


def test_seed_demo_refuses_to_run_with_debug_off(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG"):
        call_command("seed_demo")

    assert row_counts()["users"] == 0


def seed_the_demo() -> None:
    with override_settings(DEBUG=True):  # seed_demo refuses to run without it
        call_command("seed_demo", stdout=io.StringIO())


@pytest.fixture(scope="class")
def seeded_demo(django_db_setup, django_db_blocker):
    """The demo is seeded once for the tests of ``TestTheSeededDemo``
    (``tests.sharing.built_once``): each starts from it as seeded. The tests above seed
    it themselves, from an empty database."""
    yield from built_once(django_db_blocker, seed_the_demo)


@pytest.mark.usefixtures("seeded_demo")
class TestTheSeededDemo:
    def test_seed_demo_gives_each_player_a_warband_and_the_organiser_the_campaign(self):
        campaign = Campaign.objects.get()
        assert list(campaign.memberships.organisers().values_list("user__username", flat=True)) == [
            "organiser"
        ]
        owners = sorted(Warband.objects.values_list("owner__username", flat=True))
        assert owners == ["alice", "alice", "bob", "carol", "dave"]  # her second: Grade 1b
        assert get_user_model().objects.get(username="admin").is_staff

    def test_seed_demo_gives_each_player_a_full_legal_warband_of_a_different_list(self):
        warbands = list(Warband.objects.select_related("warband_type"))
        assert len({w.warband_type.key for w in warbands}) == len(warbands) == 5
        assert {w.warband_type.grade for w in warbands} == {"1a", "1b"}
        for warband in warbands:
            warriors = list(services.roster(warband))
            assert warband.status == "active"
            assert services.muster_problems(warband, warriors) == []
            assert sum(w.group_size for w in warriors) >= 9
            assert all(
                w.items.exists() for w in warriors if w.warrior_type.equipment_lists.exists()
            )
            assert 0 <= warband.gold_crowns < warband.warband_type.starting_gold

    def test_seed_demo_resets_a_changed_demo_password(self, settings):
        settings.DEBUG = True
        alice = get_user_model().objects.get(username="alice")
        alice.set_password("something-else-entirely")
        alice.save()

        call_command("seed_demo")

        alice.refresh_from_db()
        assert alice.check_password(DEMO_PASSWORD)

    def test_seed_demo_gives_the_league_table_feed_and_chart_something_to_show(self):
        campaign = Campaign.objects.get()
        table = league_table(campaign)
        assert sorted(row.played for row in table) == [0, 2, 2, 2, 2]  # the Norse wait
        assert sum(row.won for row in table) == 3
        assert campaign.events.filter(kind="battle").count() == 4
        for warband in Warband.objects.exclude(name="The Sons of Ymir"):
            ratings = list(
                RatingSnapshot.objects.filter(warband=warband).values_list("rating", flat=True)
            )
            assert len(ratings) >= 3 and ratings[-1] > ratings[0]


def test_the_demo_league_has_house_rules_its_warbands_keep(settings):
    """The demo league plays under house rules chosen before its first warband: its Grade 1b
    warband is allowed, a Grade 1c list it does not name is not."""
    settings.DEBUG = True
    call_command("seed_demo")
    campaign = Campaign.objects.get()
    house = HouseRules.objects.get(campaign=campaign)
    assert house.list_grades == ["1a", "1b"] and house.sword_grades == ["1a", "1b", "core"]
    for warband in Warband.objects.select_related("warband_type"):
        assert allowed.list_refusal(campaign, warband.warband_type, house) is None
    assert Warband.objects.filter(warband_type__grade="1b").exists()
    left_out = WarbandType.objects.filter(grade="1c").exclude(key__in=house.list_keys).first()
    if left_out is not None:
        assert allowed.list_refusal(campaign, left_out, house)
    assert CampaignEvent.objects.filter(message="organiser changed the house rules.").exists()
