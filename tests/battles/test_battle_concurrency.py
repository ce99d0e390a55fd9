"""Concurrent requests on real PostgreSQL: a battle is confirmed once, an item resolved once."""

import pytest

from battles.aftermath import carried_items
from battles.models import Battle, CarriedItemAtEnd
from battles.report import services
from battles.rules import ReportedResult
from campaign.models import CampaignEvent
from core.dice import ScriptedDice
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.helpers import every_side_entered, run_together
from warbands import treasury
from warbands.models import LedgerEntry, RatingSnapshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def battle(reference_data):
    campaign = CampaignFactory()
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    battle = services.report_battle(
        actor=reavers.owner,
        campaign=campaign,
        scenario="Skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost", True, 1)],
    )
    every_side_entered(battle)
    return battle, reavers, scourge, organiser


def test_two_confirmations_at_once_confirm_the_battle_once(battle):
    battle, _, scourge, organiser = battle

    outcomes = run_together(
        lambda: services.respond(battle, actor=scourge.owner, agree=True),
        lambda: services.confirm_for_everybody(battle, actor=organiser),
    )

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    assert Battle.objects.get(pk=battle.pk).status == "confirmed"
    assert RatingSnapshot.objects.filter(battle=battle).count() == 2
    # The feed tells the battle once (and, when the organiser's override won, says so).
    assert CampaignEvent.objects.filter(battle=battle, message__contains=" beat ").count() == 1
    assert CarriedItemAtEnd.objects.filter(battle=battle).count() == 10


def test_one_uncontrolled_item_resolved_twice_at_once_is_resolved_once(battle):
    battle, reavers, scourge, _ = battle
    services.respond(battle, actor=scourge.owner, agree=True)
    for warband in (reavers, scourge):
        declarations = [
            carried_items.Declaration(
                i.pk,
                "uncontrolled" if i.label == "Treasure Chest" and warband == scourge else "own",
            )
            for i in battle.carried_items.filter(owner=warband)
        ]
        carried_items.declare_carried_items(
            battle, warband, actor=warband.owner, declarations=declarations, securers=3
        )
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    chest = battle.carried_items.get(owner=scourge, label="Treasure Chest")

    outcomes = run_together(
        lambda: carried_items.resolve_item(
            battle, chest, actor=reavers.owner, dice=ScriptedDice([5])
        ),
        lambda: carried_items.resolve_item(
            battle, chest, actor=reavers.owner, dice=ScriptedDice([5])
        ),
    )

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    assert LedgerEntry.objects.filter(reason="capture").count() == 2  # gold out, gold in
    assert treasury.ledger_mismatches() == []
