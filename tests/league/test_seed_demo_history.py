"""The demo league looks lived in: its feed and dice log carry the dates
of the battles they follow, and its advances vary as real dice would, within the rules."""

import datetime
import io
from collections import Counter

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from battles.models import Battle, DiceRoll
from campaign.models import Campaign, CampaignEvent
from tests.sharing import built_once
from warbands.models import Warrior, WarriorSkill
from warbands.rules import CHARACTERISTICS

pytestmark = pytest.mark.django_db


def seed_the_demo() -> None:
    with override_settings(DEBUG=True):  # seed_demo refuses to run without it
        call_command("seed_demo", stdout=io.StringIO())


@pytest.fixture(scope="module")
def seeded_demo(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, seed_the_demo)


def evening_of(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(20)))


def history() -> list[Battle]:
    """The four battles of history (the battle helper's game under way is the fifth)."""
    return list(Battle.objects.filter(game__isnull=True).order_by("fought_on"))


@pytest.mark.usefixtures("seeded_demo")
class TestTheDemoHistory:
    def test_each_battles_feed_entries_are_dated_on_its_evening(self):
        battles = history()
        assert len(battles) == 4
        for battle in battles:
            dates = set(
                CampaignEvent.objects.filter(battle=battle).values_list("created_at", flat=True)
            )
            assert dates == {evening_of(battle.fought_on)}, battle.scenario
        # The advances, deaths and captures of a battle come with it, on the same evening.
        assert CampaignEvent.objects.filter(kind="advance", battle__isnull=True).count() == 0

    def test_the_feed_reads_the_battles_in_the_order_they_were_fought(self):
        campaign = Campaign.objects.get()
        feed = list(CampaignEvent.objects.filter(campaign=campaign, kind="battle"))
        fought = [b.pk for b in sorted(history(), key=lambda b: b.fought_on, reverse=True)]
        assert [e.battle_id for e in feed] == fought  # newest first, as the feed shows them
        assert len({e.created_at.date() for e in feed}) == 4

    def test_the_musters_are_dated_at_the_campaigns_start(self):
        campaign = Campaign.objects.get()
        musters = CampaignEvent.objects.filter(campaign=campaign, kind="mustered")
        start = timezone.make_aware(
            datetime.datetime.combine(campaign.start_date, datetime.time(9))
        )
        assert musters.count() == 5
        assert set(musters.values_list("created_at", flat=True)) == {start}

    def test_no_entry_of_history_says_the_moment_the_demo_was_seeded(self):
        today = timezone.localdate()
        dated_today = CampaignEvent.objects.filter(created_at__date=today)
        assert list(dated_today.values_list("message", flat=True)) == []

    def test_the_dice_log_of_each_battle_is_dated_on_its_evening(self):
        for battle in history():
            dates = set(DiceRoll.objects.filter(battle=battle).values_list("created_at", flat=True))
            assert dates <= {evening_of(battle.fought_on)}, battle.scenario

    def test_the_advances_vary(self):
        advances = [
            message.split(" advanced: ", 1)[1]
            for message in CampaignEvent.objects.filter(kind="advance").values_list(
                "message", flat=True
            )
        ]
        counts = Counter(advances)
        assert len(advances) >= 8
        assert len(counts) >= 6  # skills and characteristics of several kinds
        assert counts["+1 Weapon Skill."] <= len(advances) // 3
        assert any(a.startswith("new skill: ") for a in advances)
        assert any(a.startswith("+1 ") and "Skill" not in a for a in advances)

    def test_the_advances_keep_to_the_racial_maximums_and_the_warriors_skill_lists(self):
        warriors = Warrior.objects.select_related("warrior_type__race")
        for warrior in warriors:
            maximum = warrior.maximum
            if maximum is None:
                continue
            starting = warrior.warrior_type.profile  # Flagellants start above it (Ld 10)
            for name in CHARACTERISTICS:
                if warrior.profile.get(name) > starting.get(name):  # raised by an advance
                    assert warrior.profile.get(name) <= maximum.get(name), (warrior.name, name)
        for learned in WarriorSkill.objects.select_related("warrior", "skill"):
            lists = set(learned.warrior.warrior_type.skill_lists.values_list("pk", flat=True))
            lists |= set(learned.warrior.extra_skill_lists.values_list("pk", flat=True))
            assert learned.skill.skill_list_id in lists, (learned.warrior.name, learned.skill)

    def test_seeding_again_keeps_the_dates(self, settings):
        before = dict(CampaignEvent.objects.values_list("pk", "created_at"))

        seed_the_demo()

        assert dict(CampaignEvent.objects.values_list("pk", "created_at")) == before
