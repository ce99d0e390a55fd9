"""Use cases of battles: record a battle, correct its result.

Each takes the acting user, checks permissions through ``campaign.permissions``, validates
with ``battles.rules`` and writes in one transaction. Ratings at the time are taken from the
warbands as they are when the battle is recorded.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from battles.models import Battle, Participant
from battles.rules import ReportedResult, check_results
from campaign import permissions
from campaign.models import Campaign, CampaignEvent
from campaign.services import record_event
from warbands import services as warband_services
from warbands.models import RatingSnapshot, Warband
from warbands.rules import RuleViolation


def _warbands_for(campaign: Campaign, results: Sequence[ReportedResult]) -> dict[int, Warband]:
    warbands = {
        w.pk: w
        for w in Warband.objects.select_for_update()
        .filter(pk__in=[r.warband_id for r in results])
        .order_by("pk")
    }
    for result in results:
        warband = warbands.get(result.warband_id)
        if warband is None or warband.campaign_id != campaign.pk:
            raise RuleViolation("Every warband must belong to this campaign.")
        if warband.status != Warband.Status.ACTIVE:
            raise RuleViolation(
                f"{warband.name} is not ready for battle ({warband.get_status_display().lower()})."
            )
    return warbands


def _describe(battle: Battle, participants: Sequence[Participant]) -> str:
    winners = [p.warband.name for p in participants if p.result == Participant.Result.WON]
    others = [p.warband.name for p in participants if p.result != Participant.Result.WON]
    if not winners:
        return f"{' and '.join(others)} fought {battle.scenario} to a draw."
    return f"{' and '.join(winners)} beat {' and '.join(others)} in {battle.scenario}."


def confirm(battle: Battle, participants: Sequence[Participant]) -> None:
    """The battle counts from now on: the feed says so and each warband's rating is charted."""
    battle.status = Battle.Status.CONFIRMED
    battle.confirmed_at = timezone.now()
    battle.save(update_fields=["status", "confirmed_at"])
    # Charted on the day of the battle (at noon), whenever it was entered.
    fought_at = min(
        timezone.make_aware(datetime.datetime.combine(battle.fought_on, datetime.time(12))),
        battle.confirmed_at,
    )
    for participant in participants:
        RatingSnapshot.objects.create(
            warband=participant.warband,
            rating=participant.rating_before,
            taken_at=fought_at,
            battle=battle,
            note=f"before {battle.scenario}",
        )
    record_event(
        battle.campaign, CampaignEvent.Kind.BATTLE, _describe(battle, participants), battle=battle
    )


@transaction.atomic
def record_battle(
    *,
    actor,
    campaign: Campaign,
    scenario: str,
    results: Sequence[ReportedResult],
    fought_on: datetime.date | None = None,
    random_fortune: bool = False,
    notes: str = "",
) -> Battle:
    """An organiser records a battle between two or more of the campaign's warbands; it is
    confirmed at once (the organiser confirms on everybody's behalf)."""
    if not permissions.can_run_campaign(actor, campaign):
        raise PermissionDenied("Only the campaign's organisers record battles for others.")
    scenario = scenario.strip()
    if not scenario:
        raise RuleViolation("Name the scenario.")
    check_results(results)
    warbands = _warbands_for(campaign, results)
    battle = Battle.objects.create(
        campaign=campaign,
        scenario=scenario,
        fought_on=fought_on or timezone.localdate(),
        random_fortune=random_fortune,
        notes=notes,
        reported_by=actor,
    )
    ratings = warband_services.ratings_of(warbands.values())
    participants = [
        Participant.objects.create(
            battle=battle,
            warband=warbands[r.warband_id],
            result=r.result,
            routed=r.routed,
            rout_order=r.rout_order if r.routed else None,
            rating_before=ratings[r.warband_id],
            confirmation=Participant.Confirmation.CONFIRMED,
            confirmed_by=actor,
        )
        for r in results
    ]
    confirm(battle, participants)
    return battle


@transaction.atomic
def correct_result(battle: Battle, *, actor, results: Sequence[ReportedResult]) -> Battle:
    """An organiser corrects who won, drew, lost and routed; the warbands stay the same."""
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if not permissions.can_run_campaign(actor, battle.campaign):
        raise PermissionDenied("Only the campaign's organisers correct results.")
    check_results(results)
    participants = {p.warband_id: p for p in battle.participants.select_related("warband")}
    if set(participants) != {r.warband_id for r in results}:
        raise RuleViolation("A correction keeps the same warbands.")
    for r in results:
        participant = participants[r.warband_id]
        participant.result = r.result
        participant.routed = r.routed
        participant.rout_order = r.rout_order if r.routed else None
        participant.save(update_fields=["result", "routed", "rout_order"])
    record_event(
        battle.campaign,
        CampaignEvent.Kind.BATTLE,
        f"Result corrected: {_describe(battle, list(participants.values()))}",
        battle=battle,
    )
    return battle
