"""Use cases of battles: report, confirm or dispute, record (organisers), correct; random
fortune.

Each takes the acting user, checks permissions through ``campaign.permissions``, validates
with ``battles.rules`` and writes in one transaction. Ratings at the time are taken from the
warbands as they are when the battle is recorded.

A confirmed battle starts the post-battle sequences (``battles.sequence.start``), whose step 0
(``battles.sequence.carried_items``) settles the carried items; the sequence never imports
this module, so the dependency points one way.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from battles import rules
from battles.dice import check_may_roll, last_roll_id, note_decided
from battles.models import Battle, Discovery, Participant, WarriorOutcome
from battles.rules import ReportedResult, check_results
from battles.sequence.carried_items import add_discovery_item
from battles.sequence.start import start_sequences
from campaign import permissions
from campaign.models import Campaign, CampaignEvent, RandomFortuneEntry
from campaign.services import record_event
from warbands import services as warband_services
from warbands.models import RatingSnapshot, VesselItem, Warband, Warrior
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
    """The battle counts from now on: the feed says so, each warband's rating is charted and
    its post-battle sequence starts, step 0's carried items listed."""
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
    # Warriors who had a game to miss have missed this one.
    for participant in participants:
        for warrior in Warrior.objects.filter(warband=participant.warband, games_to_miss__gt=0):
            warrior.games_to_miss -= 1
            warrior.save(update_fields=["games_to_miss"])
    start_sequences(battle)


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


# --- Reporting by a participant, confirmation and disputes ---------------------------------


def _owns_one(actor, results: Sequence[ReportedResult], warbands: dict[int, Warband]) -> bool:
    return any(warbands[r.warband_id].owner_id == actor.pk for r in results)


@transaction.atomic
def report_battle(
    *,
    actor,
    campaign: Campaign,
    scenario: str,
    results: Sequence[ReportedResult],
    fought_on: datetime.date | None = None,
    random_fortune: bool = False,
    fortune_table: str = "d66",
    notes: str = "",
) -> Battle:
    """A participant (or an organiser) reports a battle. The reporter's own warbands count as
    confirmed; the others confirm or dispute it (``respond``)."""
    if not campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    scenario = scenario.strip()
    if not scenario:
        raise RuleViolation("Name the scenario.")
    check_results(results)
    warbands = _warbands_for(campaign, results)
    organiser = permissions.is_organiser(actor, campaign)
    if not organiser and not _owns_one(actor, results, warbands):
        raise PermissionDenied("Report battles your own warband fought in.")
    battle = Battle.objects.create(
        campaign=campaign,
        scenario=scenario,
        fought_on=fought_on or timezone.localdate(),
        random_fortune=random_fortune,
        fortune_table=fortune_table,
        notes=notes,
        reported_by=actor,
    )
    ratings = warband_services.ratings_of(warbands.values())
    for r in results:
        warband = warbands[r.warband_id]
        mine = warband.owner_id == actor.pk
        Participant.objects.create(
            battle=battle,
            warband=warband,
            result=r.result,
            routed=r.routed,
            rout_order=r.rout_order if r.routed else None,
            rating_before=ratings[r.warband_id],
            confirmation=Participant.Confirmation.CONFIRMED
            if mine
            else Participant.Confirmation.PENDING,
            confirmed_by=actor if mine else None,
        )
    return battle


def _editable(battle: Battle, actor) -> Battle:
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    if battle.status == Battle.Status.CONFIRMED:
        raise RuleViolation("The battle is confirmed: ask an organiser to correct it.")
    if not battle.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    if not (battle.reported_by_id == actor.pk or permissions.is_organiser(actor, battle.campaign)):
        raise PermissionDenied("Only whoever reported the battle, or an organiser, changes it.")
    return battle


def _reset_confirmations(battle: Battle, actor) -> None:
    """A changed report must be confirmed again by everybody else."""
    for participant in battle.participants.select_related("warband"):
        mine = participant.warband.owner_id == actor.pk
        participant.confirmation = (
            Participant.Confirmation.CONFIRMED if mine else Participant.Confirmation.PENDING
        )
        participant.confirmed_by = actor if mine else None
        participant.save(update_fields=["confirmation", "confirmed_by"])
    battle.status = Battle.Status.REPORTED
    battle.save(update_fields=["status"])


@dataclass(frozen=True)
class Outcome:
    warrior_id: int
    out_of_action: bool = False
    enemies_out_of_action: int = 0
    scenario_experience: int = 0
    taken_out_by_id: int | None = None


@transaction.atomic
def set_outcomes(battle: Battle, *, actor, outcomes: Sequence[Outcome]) -> None:
    """What each warrior did (out of action, enemies put out of action, scenario experience),
    for every warband of the report. Replaces what was there; others confirm again."""
    battle = _editable(battle, actor)
    participants = {p.warband_id: p for p in battle.participants.all()}
    warriors = {
        w.pk: w
        for w in Warrior.objects.filter(warband_id__in=participants).select_related("warband")
    }
    for outcome in outcomes:
        warrior = warriors.get(outcome.warrior_id)
        if warrior is None:
            raise RuleViolation("Every warrior must belong to a warband of this battle.")
        by = warriors.get(outcome.taken_out_by_id) if outcome.taken_out_by_id else None
        if outcome.taken_out_by_id and (by is None or by.warband_id == warrior.warband_id):
            raise RuleViolation(f"{warrior.name} was taken out by an enemy of this battle.")
        if outcome.enemies_out_of_action > 50 or outcome.scenario_experience > 20:
            raise RuleViolation(f"Check the numbers for {warrior.name}.")
    WarriorOutcome.objects.filter(participant__battle=battle).delete()
    for outcome in outcomes:
        warrior = warriors[outcome.warrior_id]
        WarriorOutcome.objects.create(
            participant=participants[warrior.warband_id],
            warrior=warrior,
            out_of_action=outcome.out_of_action,
            enemies_out_of_action=outcome.enemies_out_of_action,
            scenario_experience=outcome.scenario_experience,
            taken_out_by_id=outcome.taken_out_by_id,
        )
    _reset_confirmations(battle, actor)


@transaction.atomic
def correct_report(battle: Battle, *, actor, results: Sequence[ReportedResult]) -> Battle:
    """Change the results of a report that is not confirmed yet (after a dispute)."""
    battle = _editable(battle, actor)
    check_results(results)
    participants = {p.warband_id: p for p in battle.participants.all()}
    if set(participants) != {r.warband_id for r in results}:
        raise RuleViolation("A correction keeps the same warbands.")
    for r in results:
        participant = participants[r.warband_id]
        participant.result, participant.routed = r.result, r.routed
        participant.rout_order = r.rout_order if r.routed else None
        participant.dispute_reason = ""
        participant.save(update_fields=["result", "routed", "rout_order", "dispute_reason"])
    _reset_confirmations(battle, actor)
    return battle


@transaction.atomic
def respond(battle: Battle, *, actor, agree: bool, reason: str = "") -> Battle:
    """A participant confirms the report for their warbands, or disputes it saying why. The
    battle counts once every participant has confirmed."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    if battle.status == Battle.Status.CONFIRMED:
        raise RuleViolation("The battle is already confirmed.")
    if not battle.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    mine = list(battle.participants.select_related("warband").filter(warband__owner=actor))
    if not mine:
        raise PermissionDenied("Only the battle's participants confirm or dispute it.")
    if not agree and not reason.strip():
        raise RuleViolation("Say what is wrong with the report.")
    for participant in mine:
        participant.confirmation = (
            Participant.Confirmation.CONFIRMED if agree else Participant.Confirmation.DISPUTED
        )
        participant.confirmed_by = actor
        participant.dispute_reason = "" if agree else reason.strip()[:2000]
        participant.save(update_fields=["confirmation", "confirmed_by", "dispute_reason"])
    if not agree:
        battle.status = Battle.Status.DISPUTED
        battle.save(update_fields=["status"])
        return battle
    return _confirm_if_everybody_agrees(battle)


@transaction.atomic
def confirm_for_everybody(battle: Battle, *, actor) -> Battle:
    """An organiser confirms on behalf of every participant."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    if not permissions.can_run_campaign(actor, battle.campaign):
        raise PermissionDenied("Only the campaign's organisers confirm for others.")
    if battle.status == Battle.Status.CONFIRMED:
        raise RuleViolation("The battle is already confirmed.")
    battle.participants.update(
        confirmation=Participant.Confirmation.CONFIRMED, confirmed_by=actor, dispute_reason=""
    )
    return _confirm_if_everybody_agrees(battle)


def _confirm_if_everybody_agrees(battle: Battle) -> Battle:
    participants = list(battle.participants.select_related("warband"))
    if all(p.confirmation == Participant.Confirmation.CONFIRMED for p in participants):
        confirm(battle, participants)
    elif battle.status == Battle.Status.DISPUTED and not any(
        p.confirmation == Participant.Confirmation.DISPUTED for p in participants
    ):
        battle.status = Battle.Status.REPORTED
        battle.save(update_fields=["status"])
    return battle


# --- Random fortune ------------------------------------------------------------------------


@transaction.atomic
def roll_fortune_markers(battle: Battle, *, actor, dice) -> tuple[int, list]:
    """The number of random fortune markers and who places them first."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    check_may_roll(battle, actor)
    if not battle.random_fortune:
        raise RuleViolation("Random fortune was not in play in this battle.")
    if battle.fortune_markers is not None:
        raise RuleViolation("The markers have been rolled already.")
    participants = list(battle.participants.select_related("warband"))
    since = last_roll_id(battle)
    battle.fortune_markers = rules.random_fortune_markers(dice, len(participants))
    battle.save(update_fields=["fortune_markers"])
    note_decided(battle, since, f"{battle.fortune_markers} random fortune markers")
    since = last_roll_id(battle)
    order = rules.placement_order(
        [rules.Placer(p.warband_id, p.warband.name, p.rating_before) for p in participants], dice
    )
    note_decided(battle, since, "placement: " + ", ".join(p.name for p in order))
    return battle.fortune_markers, order


def placement(battle: Battle) -> list[Participant]:
    """Lowest rating places first (ties as rolled off, shown in the dice log)."""
    return sorted(battle.participants.select_related("warband"), key=lambda p: p.rating_before)


@transaction.atomic
def test_discovery(battle: Battle, warband: Warband, *, actor, dice, result: str = "") -> Discovery:
    """A warrior of ``warband`` investigated a marker: D6 test, then the campaign's random
    fortune table (or the result as typed, while the campaign has no table)."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    check_may_roll(battle, actor)
    if not battle.random_fortune:
        raise RuleViolation("Random fortune was not in play in this battle.")
    if not battle.participants.filter(warband=warband).exists():
        raise RuleViolation(f"{warband.name} did not fight in this battle.")
    if battle.carried_items_done_at:
        raise RuleViolation("The carried items are settled: no more discoveries.")
    artefact = VesselItem.objects.filter(
        warband=warband, kind=VesselItem.Kind.DARK_ARTEFACT, is_lost=False
    ).exists()
    since = last_roll_id(battle)
    test = rules.discovery_test(dice, warband=warband.name, holds_dark_artefact=artefact)
    discovery = Discovery(
        battle=battle, warband=warband, test_roll=test.roll, discovered=test.discovered,
        cult_attack=test.cult_attack,
    )  # fmt: skip
    if test.discovered:
        rows = [
            rules.FortuneRow(e.low, e.high, e.result, e.kind)
            for e in RandomFortuneEntry.objects.filter(
                campaign=battle.campaign, table=battle.fortune_table
            )
        ]
        if rows:
            discovery.table_roll = rules.fortune_roll(dice, battle.fortune_table)
            row = rules.look_up_fortune(rows, discovery.table_roll)
            discovery.result = row.result if row else f"Nothing listed for {discovery.table_roll}"
            discovery.kind = row.kind if row else Discovery.Kind.CARRIED_ITEM
        else:
            discovery.result = result.strip()[:200] or "An unidentified discovery"
    discovery.save()
    note_decided(
        battle,
        since,
        (f"found {discovery.result}" if test.discovered else "nothing found")
        + ("; the cult attacks" if test.cult_attack else ""),
    )
    if discovery.cult_attack:
        record_event(
            battle.campaign, CampaignEvent.Kind.BATTLE,
            f"The cult attacked {warband.name} for the Dark Artefact it carries!", battle=battle,
        )  # fmt: skip
    if battle.is_confirmed and test.discovered:
        add_discovery_item(battle, discovery)
    return discovery
