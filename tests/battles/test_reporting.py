"""Reporting a battle, confirming and disputing it."""

import pytest
from django.core.exceptions import PermissionDenied

from battles.models import Battle, CarriedItemAtEnd, Participant, WarriorOutcome
from battles.report import services, sides
from battles.rules import ReportedResult
from campaign.models import CampaignEvent
from core.errors import RuleViolation
from tests.factories import WarbandFactory
from warbands.models import RatingSnapshot

pytestmark = pytest.mark.django_db


def report(duel, actor=None, *, routed=True, entered=True):
    """A Street Fight the Reavers won. ``entered``: each side then enters its warriors
    (everybody took part and stood), the Scourge first, and the reporter confirms again what
    he has now seen; the Scourge's confirmation is what is left."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    actor = actor or reavers.owner
    battle = services.report_battle(
        actor=actor,
        campaign=duel["campaign"],
        scenario="Street Fight",
        results=[
            ReportedResult(reavers.pk, "won"),
            ReportedResult(scourge.pk, "lost", routed=routed, rout_order=1 if routed else None),
        ],
    )
    if entered:
        for warband in (scourge, reavers):
            sides.enter_side(
                battle, warband, actor=warband.owner, outcomes=sides.whole_side(warband)
            )
        if actor == reavers.owner:
            services.respond(battle, actor=actor, agree=True)
    return battle


def confirmations(battle) -> dict[str, str]:
    return {p.warband.name: p.confirmation for p in battle.participants.select_related("warband")}


def test_a_participant_reports_and_the_other_side_is_asked_to_confirm(duel):
    battle = report(duel)

    assert battle.status == "reported"
    assert confirmations(battle) == {"Reavers": "confirmed", "Scourge": "pending"}
    ratings = dict(battle.participants.values_list("warband__name", "rating_before"))
    assert ratings == {"Reavers": 53, "Scourge": 53}  # 25 + 13 + 3 × 5
    assert not battle.carried_items.exists()  # nothing happens before confirmation


def test_somebody_outside_the_battle_cannot_report_it(duel):
    with pytest.raises(PermissionDenied):
        report(duel, actor=duel["bystander"])
    assert not Battle.objects.exists()


def test_an_organiser_may_report_for_others_who_then_both_confirm(duel):
    battle = report(duel, actor=duel["organiser"])

    assert confirmations(battle) == {"Reavers": "pending", "Scourge": "pending"}


def test_the_report_holds_what_each_warrior_did(duel):
    battle = report(duel, entered=False)
    captain = duel["reavers"].warriors.get(is_leader=True)
    rat = duel["scourge"].warriors.get(is_leader=True)

    sides.enter_side(
        battle, duel["reavers"], actor=duel["reavers"].owner,
        outcomes=[sides.Outcome(captain.pk, enemies_out_of_action=2)],
    )  # fmt: skip
    sides.enter_side(
        battle, duel["scourge"], actor=duel["scourge"].owner,
        outcomes=[sides.Outcome(rat.pk, out_of_action=True, taken_out_by_id=captain.pk)],
    )  # fmt: skip

    outcomes = {o.warrior_id: o for o in WarriorOutcome.objects.all()}
    assert set(outcomes) == {captain.pk, rat.pk}  # the others did not take part
    assert outcomes[captain.pk].enemies_out_of_action == 2
    assert outcomes[rat.pk].out_of_action and outcomes[rat.pk].taken_out_by == captain
    assert battle.participants.get(warband=duel["reavers"]).leader == captain


def test_a_warrior_cannot_be_taken_out_by_his_own_side(duel):
    battle = report(duel, entered=False)
    captain = duel["reavers"].warriors.get(is_leader=True)
    champion = duel["reavers"].warriors.get(warrior_type__key="champion")

    with pytest.raises(RuleViolation, match="taken out by an enemy"):
        sides.enter_side(
            battle, duel["reavers"], actor=duel["reavers"].owner,
            outcomes=[sides.Outcome(champion.pk, out_of_action=True, taken_out_by_id=captain.pk)],
        )  # fmt: skip
    assert not WarriorOutcome.objects.exists()


def test_confirmation_by_the_other_side_starts_the_post_battle_sequence(duel):
    battle = report(duel)

    services.respond(battle, actor=duel["scourge"].owner, agree=True)

    battle.refresh_from_db()
    assert battle.status == "confirmed" and battle.confirmed_at
    assert RatingSnapshot.objects.filter(battle=battle).count() == 2
    assert CampaignEvent.objects.filter(kind="battle", battle=battle).exists()
    assert battle.carried_items.count() == 2 * (1 + 4)  # a chest and four sacks each
    assert set(battle.carried_items.values_list("state", flat=True)) == {"undeclared"}


def test_a_dispute_says_who_disputed_what_and_a_correction_asks_again(duel):
    battle = report(duel)
    scourge_owner = duel["scourge"].owner

    with pytest.raises(RuleViolation, match="Say what is wrong"):
        services.respond(battle, actor=scourge_owner, agree=False, reason=" ")
    services.respond(battle, actor=scourge_owner, agree=False, reason="We drew: nobody routed.")

    battle.refresh_from_db()
    assert battle.status == "disputed"
    scourge = battle.participants.get(warband=duel["scourge"])
    assert (scourge.confirmation, scourge.dispute_reason) == ("disputed", "We drew: nobody routed.")
    assert scourge.confirmed_by == scourge_owner

    services.correct_report(
        battle,
        actor=duel["reavers"].owner,
        results=[
            ReportedResult(duel["reavers"].pk, "draw"),
            ReportedResult(duel["scourge"].pk, "draw"),
        ],
    )
    battle.refresh_from_db()
    assert battle.status == "reported"
    assert confirmations(battle) == {"Reavers": "confirmed", "Scourge": "pending"}
    services.respond(battle, actor=scourge_owner, agree=True)
    battle.refresh_from_db()
    assert battle.status == "confirmed"
    assert set(battle.participants.values_list("result", flat=True)) == {"draw"}


def test_only_the_reporter_or_an_organiser_corrects_a_report(duel):
    battle = report(duel)

    with pytest.raises(PermissionDenied):
        services.correct_report(
            battle,
            actor=duel["scourge"].owner,
            results=[
                ReportedResult(duel["reavers"].pk, "lost", routed=True, rout_order=1),
                ReportedResult(duel["scourge"].pk, "won"),
            ],
        )


def test_an_organiser_confirms_for_everybody(duel):
    battle = report(duel)

    services.confirm_for_everybody(battle, actor=duel["organiser"])

    battle.refresh_from_db()
    assert battle.status == "confirmed"
    assert set(Participant.objects.values_list("confirmed_by", flat=True)) == {duel["organiser"].pk}


def test_a_battle_cannot_be_confirmed_twice(duel):
    battle = report(duel)
    services.respond(battle, actor=duel["scourge"].owner, agree=True)

    with pytest.raises(RuleViolation, match="already confirmed"):
        services.respond(battle, actor=duel["scourge"].owner, agree=True)
    with pytest.raises(RuleViolation, match="already confirmed"):
        services.confirm_for_everybody(battle, actor=duel["organiser"])
    assert RatingSnapshot.objects.filter(battle=battle).count() == 2
    assert CarriedItemAtEnd.objects.filter(battle=battle).count() == 10


def test_a_confirmed_report_can_only_be_corrected_by_an_organiser(duel):
    battle = report(duel)
    services.respond(battle, actor=duel["scourge"].owner, agree=True)

    with pytest.raises(RuleViolation, match="ask an organiser"):
        services.correct_report(
            battle,
            actor=duel["reavers"].owner,
            results=[
                ReportedResult(duel["reavers"].pk, "draw"),
                ReportedResult(duel["scourge"].pk, "draw"),
            ],
        )
    services.correct_result(
        battle,
        actor=duel["organiser"],
        results=[
            ReportedResult(duel["reavers"].pk, "draw"),
            ReportedResult(duel["scourge"].pk, "draw"),
        ],
    )
    assert set(battle.participants.values_list("result", flat=True)) == {"draw"}


def test_a_warband_still_mustering_cannot_be_reported(duel):

    draft = WarbandFactory(campaign=duel["campaign"])

    with pytest.raises(RuleViolation, match="not ready for battle"):
        services.report_battle(
            actor=draft.owner,
            campaign=duel["campaign"],
            scenario="X",
            results=[ReportedResult(draft.pk, "won"), ReportedResult(duel["reavers"].pk, "lost")],
        )
