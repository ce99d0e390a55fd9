"""Use cases of battles: report, confirm or dispute, record (organisers), correct. Random
fortune is ``battles.report.fortune``.

Each takes the acting user, checks permissions through ``campaign.permissions``, validates
with ``battles.rules`` and writes in one transaction. Ratings at the time are taken from the
warbands as they are when the battle is recorded.

A confirmed battle starts the post-battle sequences (``battles.aftermath.start``), whose step 0
(``battles.aftermath.carried_items``) settles the carried items; the sequence never imports
this module, so the dependency points one way.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from battles import permissions as battle_permissions
from battles.aftermath.start import start_sequences
from battles.models import Battle, Participant
from battles.report import permissions as report_permissions
from battles.report import sides
from battles.report.sides import ask_to_confirm, missing_sides
from battles.rules import ReportedResult, check_results, scenarios
from battles.schedule import starting
from campaign import cache
from campaign.models import Campaign, CampaignEvent
from campaign.services import record_event
from core.errors import RuleViolation
from core.words import possessive
from warbands import services as warband_services
from warbands.models import RatingSnapshot, Warband, Warrior


def lock_warbands(campaign: Campaign, warband_ids: Sequence[int]) -> dict[int, Warband]:
    """The warbands of a battle, locked, each checked to be the campaign's and ready."""
    warbands = {
        w.pk: w
        for w in Warband.objects.select_for_update(no_key=True)
        .filter(pk__in=warband_ids)
        .order_by("pk")
    }
    for warband_id in warband_ids:
        warband = warbands.get(warband_id)
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
    # The league table; the warbands' rosters (a game missed) and sequences.
    cache.changed(
        campaign=battle.campaign_id, battle=battle, warband=[p.warband_id for p in participants]
    )
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
    scenario_key: str = "",
    fixture_id: int | None = None,
) -> Battle:
    """An organiser records a battle between two or more of the campaign's warbands. As with
    a player's report (``report_battle``), each side then enters its warriors
    (``battles.report.sides``; the organiser may, for an absent player) and it counts once every
    player has confirmed it (``respond``), or the organiser confirms for them
    (``confirm_for_everybody``): an organiser alone never decides a result unseen."""
    report_permissions.check_records(actor, campaign)
    return report_battle(
        actor=actor, campaign=campaign, scenario=scenario, results=results, fought_on=fought_on,
        random_fortune=random_fortune, notes=notes, scenario_key=scenario_key,
        fixture_id=fixture_id,
    )  # fmt: skip


@transaction.atomic
def correct_result(battle: Battle, *, actor, results: Sequence[ReportedResult]) -> Battle:
    """An organiser corrects who won, drew, lost and routed; the warbands stay the same."""
    battle = Battle.objects.select_for_update(no_key=True).get(pk=battle.pk)
    _require_acting_for_players(actor, battle, "Only the campaign's organisers correct results.")
    _require_played(battle)
    check_results(results)
    participants = {p.warband_id: p for p in battle.participants.select_related("warband")}
    if set(participants) != {r.warband_id for r in results}:
        raise RuleViolation("A correction keeps the same warbands.")
    cache.changed(campaign=battle.campaign_id, battle=battle, warband=list(participants))
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
    scenario_key: str = "",
    fixture_id: int | None = None,
) -> Battle:
    """A participant (or an organiser) reports a battle: its scenario (``scenario_key``, one
    of the rulebook's, or blank and named in ``scenario``) and each warband's result. The
    reporter's own warbands count as confirmed; each side then enters its warriors
    (``battles.report.sides``) and the others confirm or dispute it (``respond``)."""
    battle_permissions.check_open(campaign)
    if scenario_key:
        played = scenarios.scenario(scenario_key)
        if not played.key:
            raise RuleViolation("Pick a scenario from the list, or “Other” and name it.")
        scenario = scenario.strip() or played.name
    scenario = scenario.strip()
    if not scenario:
        raise RuleViolation("Name the scenario.")
    check_results(results)
    # from a planned game (``fixture_id``), which it then links to; the campaign may require one
    fixture = starting.claim(campaign, fixture_id, [r.warband_id for r in results])
    warbands = lock_warbands(campaign, [r.warband_id for r in results])
    report_permissions.check_reports(actor, campaign, fought=_owns_one(actor, results, warbands))
    battle = Battle.objects.create(
        campaign=campaign,
        scenario=scenario,
        scenario_key=scenario_key,
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
    starting.link(fixture, battle)
    cache.changed(campaign=campaign, battle=battle)  # the battles list, the dashboards
    return battle


def _editable(battle: Battle, actor) -> Battle:
    battle = (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=battle.pk)
    )
    if battle.status == Battle.Status.CONFIRMED:
        raise RuleViolation("The battle is confirmed: ask an organiser to correct it.")
    _require_played(battle)
    report_permissions.check_edits(actor, battle)
    return battle


def _reset_confirmations(battle: Battle, actor) -> None:
    """A changed report must be confirmed again by everybody else."""
    cache.changed(campaign=battle.campaign_id, battle=battle)
    for participant in battle.participants.select_related("warband"):
        mine = participant.warband.owner_id == actor.pk
        participant.confirmation = (
            Participant.Confirmation.CONFIRMED if mine else Participant.Confirmation.PENDING
        )
        participant.confirmed_by = actor if mine else None
        participant.save(update_fields=["confirmation", "confirmed_by"])
    battle.status = Battle.Status.REPORTED
    battle.save(update_fields=["status"])


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
    ask_to_confirm(battle, actor)
    return battle


@transaction.atomic
def respond(battle: Battle, *, actor, agree: bool, reason: str = "") -> Battle:
    """A participant confirms the report for their warbands, or disputes it saying why. The
    battle counts once every participant has confirmed."""
    battle = (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=battle.pk)
    )
    if battle.status == Battle.Status.CONFIRMED:
        raise RuleViolation("The battle is already confirmed.")
    _require_played(battle)
    mine = list(battle.participants.select_related("warband").filter(warband__owner=actor))
    report_permissions.check_responds(battle, mine)
    if not agree and not reason.strip():
        raise RuleViolation("Say what is wrong with the report.")
    if agree:
        _require_every_side(battle)
    cache.changed(campaign=battle.campaign_id, battle=battle)  # the dashboards, its board
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
def confirm_side_as_recorded(battle: Battle, warband: Warband, *, actor, version: str) -> Battle:
    """One action where entering a side and confirming took three: the side the battle helper
    wrote at the end of the game is saved as it stands (``sides.enter_side``) and, for the
    warband's own player, the battle is confirmed. ``version``: the side as the page showed it
    (``sides.side_version``); a side entered or changed since is refused, to be looked at again.

    An organiser may save an absent player's side this way (``enter_side`` checks he may), but
    does not confirm for that player: that stays "Confirm for everybody", which the feed names.

    Confirmations already given stay (``sides.enter_side``: a side saved as the helper wrote
    it asks nobody again); a side changed from it, on its own page, asks the others again."""
    battle = (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=battle.pk)
    )
    participant = (
        Participant.objects.select_for_update(of=("self",), no_key=True)
        .filter(battle=battle, warband=warband, game_side__game__ended_at__isnull=False)
        .first()
    )
    if participant is None:
        raise RuleViolation(
            f"The battle helper did not record {possessive(warband.name)} side: enter its "
            "warriors on its page."
        )
    report_permissions.check_enters(actor, battle, participant)
    outcomes = list(participant.outcomes.all())
    if participant.side_entered_at is not None:
        raise RuleViolation(
            f"{possessive(warband.name)} side was entered since: check it in the report, "
            "then confirm."
        )
    if version != sides.side_version(participant, outcomes):
        raise RuleViolation(
            f"{possessive(warband.name)} side changed since you opened the page: look at it again, "
            "then confirm."
        )
    sides.enter_side(
        battle, warband, actor=actor,
        outcomes=[
            sides.Outcome(
                o.warrior_id, o.out_of_action, o.enemies_out_of_action,
                taken_out_by_id=o.taken_out_by_id, models_out_of_action=o.models_out_of_action,
                awards=dict(o.awards),
            )
            for o in outcomes
        ],
        leader_id=participant.leader_id, scenario_shards=participant.scenario_shards,
        role=participant.role,
    )  # fmt: skip
    if warband.owner_id == actor.pk:
        Participant.objects.filter(pk=participant.pk).update(
            confirmation=Participant.Confirmation.CONFIRMED, confirmed_by=actor, dispute_reason=""
        )
    return _confirm_if_everybody_agrees(battle)


@transaction.atomic
def confirm_for_everybody(battle: Battle, *, actor) -> Battle:
    """An organiser confirms on behalf of every participant: an override of the players'
    confirmations, written in the campaign feed under the organiser's name."""
    battle = (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=battle.pk)
    )
    _require_acting_for_players(actor, battle, "Only the campaign's organisers confirm for others.")
    if battle.status == Battle.Status.CONFIRMED:
        raise RuleViolation("The battle is already confirmed.")
    _require_played(battle)
    _require_every_side(battle)
    cache.changed(campaign=battle.campaign_id, battle=battle)
    waiting = [
        p.warband.name
        for p in battle.participants.select_related("warband").order_by("pk")
        if p.confirmation != Participant.Confirmation.CONFIRMED
    ]
    battle.participants.update(
        confirmation=Participant.Confirmation.CONFIRMED, confirmed_by=actor, dispute_reason=""
    )
    record_event(
        battle.campaign, CampaignEvent.Kind.BATTLE,
        f"{actor.username}, organiser, confirmed {battle} for "
        f"{' and '.join(waiting) or 'every warband'} without waiting for their players.",
        battle=battle,
    )  # fmt: skip
    return _confirm_if_everybody_agrees(battle)


def _require_acting_for_players(actor, battle: Battle, refusal: str) -> None:
    """An organiser overrides the players only in a battle he did not fight in
    (``battles.permissions.acts_for_players``)."""
    battle_permissions.check_for_players(actor, battle, refusal)


def _require_played(battle: Battle) -> None:
    if battle.status == Battle.Status.PLAYING:
        raise RuleViolation(
            "The battle is still being played with the battle helper: its report is filled in "
            "when the game ends."
        )


def _require_every_side(battle: Battle) -> None:
    """Nobody confirms a result over a side that has not said what its warriors did."""
    missing = missing_sides(list(battle.participants.select_related("warband")))
    if missing:
        names = " and ".join(p.warband.name for p in missing)
        raise RuleViolation(
            f"Waiting for {names}: what its warriors did is not entered yet. The battle is "
            "confirmed once every side has entered its warriors."
        )


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
