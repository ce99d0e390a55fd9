"""bench/scale.py: the league multiplied in bulk keeps every container's balance equal to its
ledger, the conservation audit clean, and what the load test plays the original's."""

from dataclasses import asdict

import pytest
from django.contrib.auth import get_user_model

from battles.models import Battle, DiceRoll, Participant, StepRecord, WarriorOutcome
from bench.generate import generate, league_of
from bench.scale import multiply
from campaign.models import Campaign, CampaignEvent, Membership
from league.standings import league_table
from warbands.models import LedgerEntry, StorageContainer, Warband, Warrior
from warbands.treasury.audit import conservation_problems, ledger_mismatches

pytestmark = pytest.mark.django_db
FACTOR = 3


def counts(campaign) -> dict[str, int]:
    return {
        "warbands": Warband.objects.filter(campaign=campaign).count(),
        "players": Membership.objects.filter(campaign=campaign, is_organiser=False).count(),
        "warriors": Warrior.objects.filter(warband__campaign=campaign).count(),
        "containers": StorageContainer.objects.filter(warband__campaign=campaign).count(),
        "ledger": LedgerEntry.objects.filter(warband__campaign=campaign).count(),
        "battles": Battle.objects.filter(campaign=campaign).count(),
    }


def test_the_league_multiplied_keeps_its_ledgers_and_its_open_work():
    small = generate(warbands=4, warriors=3, containers=3, ledger=12, battles=8, played=1,
                     writers=1, rolls=1, night=1, helper=True, progress=lambda m: None)  # fmt: skip
    campaign = Campaign.objects.get(pk=small.campaign_id)
    before = counts(campaign)
    finished = list(
        Battle.objects.filter(campaign=campaign, status="confirmed")
        .exclude(participants__sequence__completed_at__isnull=True)
        .values_list("pk", flat=True)
    )
    outcomes = WarriorOutcome.objects.filter(participant__battle__in=finished).count()
    assert before["ledger"] > 4 * 12 and finished
    assert ledger_mismatches() == [] and conservation_problems() == []

    multiply(campaign, FACTOR, progress=lambda m: None)

    after = counts(campaign)
    assert after == {name: FACTOR * n for name, n in before.items()}
    assert ledger_mismatches() == [] and conservation_problems() == []
    # Every copy is its original's: the same balances in its containers, its own player.
    original = Warband.objects.get(pk=small.warband_id)
    copies = Warband.objects.filter(campaign=campaign, name__startswith=f"{original.name} (")
    assert copies.count() == FACTOR - 1
    gold = sorted(original.containers.values_list("kind", "gold_crowns"))
    for copy in copies:
        assert sorted(copy.containers.values_list("kind", "gold_crowns")) == gold
        assert copy.owner != original.owner and copy.owner.password == original.owner.password
        assert Membership.objects.filter(campaign=campaign, user=copy.owner).exists()
    # The copied battles are fought between copies, with their outcomes, dice and steps.
    copied = Battle.objects.filter(campaign=campaign).exclude(pk__in=finished)
    copied = copied.filter(participants__warband__in=copies).distinct()
    assert copied.exists()
    assert not Participant.objects.filter(battle__in=copied, warband__name__regex=r"\d\d$")
    assert WarriorOutcome.objects.filter(participant__battle__in=copied).count() >= outcomes // 4
    for copy in range(2, FACTOR + 1):  # every copy's warbands have fought
        assert Participant.objects.filter(warband__name__endswith=f" ({copy})").exists()
    assert DiceRoll.objects.filter(battle__in=copied).exists()
    assert StepRecord.objects.filter(sequence__participant__battle__in=copied).exists()
    assert CampaignEvent.objects.filter(campaign=campaign).count() > 0
    assert len(league_table(campaign)) == FACTOR * before["warbands"]
    # What the load test plays is the original league's.
    described = asdict(league_of(campaign))
    assert described == asdict(small)
    users = get_user_model().objects.filter(username__endswith="-x2")
    assert users.count() == before["players"]
