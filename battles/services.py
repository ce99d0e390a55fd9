"""Use cases of battles: report, confirm or dispute, record (organisers), correct; random
fortune; and step 0 of the post-battle sequence, the carried items at the end of the game.

Each takes the acting user, checks permissions through ``campaign.permissions``, validates
with ``battles.rules`` and writes in one transaction. Ratings at the time are taken from the
warbands as they are when the battle is recorded.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from battles import rules
from battles.models import Battle, CarriedItemAtEnd, Discovery, Participant, WarriorOutcome
from battles.rules import ReportedResult, check_results
from campaign import permissions
from campaign.models import Campaign, CampaignEvent, RandomFortuneEntry
from campaign.services import record_event
from warbands import services as warband_services
from warbands import treasury
from warbands.models import RatingSnapshot, StorageContainer, VesselItem, Warband, Warrior
from warbands.rules import RuleViolation
from warbands.rules import containers as container_rules


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
    # Warriors who had a game to miss have missed this one.
    for participant in participants:
        for warrior in Warrior.objects.filter(warband=participant.warband, games_to_miss__gt=0):
            warrior.games_to_miss -= 1
            warrior.save(update_fields=["games_to_miss"])
    from battles.sequence import sequences_for  # the sequence module builds on this one

    sequences_for(battle)


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
    prepare_carried_items(battle)
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
        prepare_carried_items(battle)
    elif battle.status == Battle.Status.DISPUTED and not any(
        p.confirmation == Participant.Confirmation.DISPUTED for p in participants
    ):
        battle.status = Battle.Status.REPORTED
        battle.save(update_fields=["status"])
    return battle


# --- Random fortune ------------------------------------------------------------------------


def _participant_of(battle: Battle, actor) -> Participant | None:
    return battle.participants.filter(warband__owner=actor).first()


def _may_play(battle: Battle, actor) -> None:
    if not battle.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    if _participant_of(battle, actor) is None and not permissions.is_organiser(
        actor, battle.campaign
    ):
        raise PermissionDenied("Only the battle's participants and organisers do this.")


@transaction.atomic
def roll_fortune_markers(battle: Battle, *, actor, dice) -> tuple[int, list]:
    """The number of random fortune markers and who places them first."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    _may_play(battle, actor)
    if not battle.random_fortune:
        raise RuleViolation("Random fortune was not in play in this battle.")
    if battle.fortune_markers is not None:
        raise RuleViolation("The markers have been rolled already.")
    participants = list(battle.participants.select_related("warband"))
    since = _last_roll(battle)
    battle.fortune_markers = rules.random_fortune_markers(dice, len(participants))
    battle.save(update_fields=["fortune_markers"])
    _decided(battle, since, f"{battle.fortune_markers} random fortune markers")
    since = _last_roll(battle)
    order = rules.placement_order(
        [rules.Placer(p.warband_id, p.warband.name, p.rating_before) for p in participants], dice
    )
    _decided(battle, since, "placement: " + ", ".join(p.name for p in order))
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
    _may_play(battle, actor)
    if not battle.random_fortune:
        raise RuleViolation("Random fortune was not in play in this battle.")
    if not battle.participants.filter(warband=warband).exists():
        raise RuleViolation(f"{warband.name} did not fight in this battle.")
    if battle.carried_items_done_at:
        raise RuleViolation("The carried items are settled: no more discoveries.")
    artefact = VesselItem.objects.filter(
        warband=warband, kind=VesselItem.Kind.DARK_ARTEFACT, is_lost=False
    ).exists()
    since = _last_roll(battle)
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
    _decided(
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
        _add_discovery_item(battle, discovery)
    return discovery


# --- Step 0: carried items at the end of the game ------------------------------------------

CARRIER_KINDS = {"pack_mule", "pack_horse", "cart_mule", "cart_horse", "opulent_coach", "warmount"}


def _heavy(container: StorageContainer) -> bool:
    """Heavy when its contents make it heavy (computed, never typed). A pack animal, cart or
    coach counts as heavy when something it carries is heavy, or a cart's open load is."""
    if container.is_heavy:
        return True
    if container.kind in CARRIER_KINDS:
        if container_rules.is_heavy("treasure_chest", container.contents) and container.kind in (
            "cart_mule",
            "cart_horse",
        ):
            return True
        return any(_heavy(child) for child in container.children.filter(status="held"))
    return False


def _add_discovery_item(battle: Battle, discovery: Discovery) -> CarriedItemAtEnd:
    return CarriedItemAtEnd.objects.create(
        battle=battle,
        owner=discovery.warband,
        label=f"Random fortune: {discovery.result}",
        discovery=discovery,
    )


def prepare_carried_items(battle: Battle) -> None:
    """List every carried item each warband had on the table: its containers (the top ones:
    a chest on a mule travels with the mule), Dark Artefacts and Loyalty Symbols not inside a
    coach, and what it discovered. Pouches are hero equipment, not carried items.

    A campaign without Mayhem in Mordheim's carried items skips step 0 altogether."""
    if not battle.campaign.mim_carried_items:
        battle.carried_items_done_at = timezone.now()
        battle.save(update_fields=["carried_items_done_at"])
        return
    for participant in battle.participants.select_related("warband"):
        warband = participant.warband
        containers = (
            StorageContainer.objects.real()
            .filter(warband=warband, parent__isnull=True)
            .exclude(kind="pouch")
        )
        for container in containers:
            CarriedItemAtEnd.objects.create(
                battle=battle,
                owner=warband,
                label=container.get_kind_display(),
                container=container,
                heavy=_heavy(container),
                is_warmount=container.kind == "warmount",
                is_mule=container.kind == "pack_mule",
            )
        for vessel in VesselItem.objects.filter(warband=warband, is_lost=False, coach__isnull=True):
            CarriedItemAtEnd.objects.create(
                battle=battle, owner=warband, label=vessel.get_kind_display(), vessel=vessel
            )
        for discovery in battle.discoveries.filter(warband=warband, discovered=True):
            _add_discovery_item(battle, discovery)


@dataclass(frozen=True)
class Declaration:
    item_id: int
    state: str  # "own", "enemy" or "uncontrolled"
    controlled_by_id: int | None = None
    exposed: bool = False


@transaction.atomic
def declare_carried_items(
    battle: Battle,
    warband: Warband,
    *,
    actor,
    declarations: Sequence[Declaration],
    securers: int,
    pitters: int = 0,
    quartermasters: int = 0,
) -> None:
    """The owner of ``warband`` (or an organiser) says where each of its carried items ended:
    controlled by its own warriors, by an enemy's, or uncontrolled; and how many of its
    warriors are still on the table to secure items."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    if not battle.is_confirmed:
        raise RuleViolation("The battle is not confirmed yet.")
    if battle.carried_items_done_at:
        raise RuleViolation("The carried items of this battle are settled.")
    if not battle.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    if warband.owner_id != actor.pk and not permissions.is_organiser(actor, battle.campaign):
        raise PermissionDenied("Each warband declares its own carried items.")
    participant = battle.participants.select_for_update().filter(warband=warband).first()
    if participant is None:
        raise RuleViolation(f"{warband.name} did not fight in this battle.")
    if battle.choosing_order:
        raise RuleViolation("Recovery has started: the declarations can no longer change.")
    if not 0 <= pitters <= 2 or not 0 <= securers <= 50 or not 0 <= quartermasters <= 10:
        raise RuleViolation("Check the numbers: Band of Pitters 0-2, warriors 0-50.")
    items = {i.pk: i for i in battle.carried_items.filter(owner=warband)}
    enemies = set(battle.participants.exclude(warband=warband).values_list("warband", flat=True))
    declared = {d.item_id: d for d in declarations}
    if set(declared) != set(items):
        raise RuleViolation("Say where each of the warband's carried items ended the game.")
    for item_id, declaration in declared.items():
        item = items[item_id]
        if declaration.state not in ("own", "enemy", "uncontrolled"):
            raise RuleViolation(f"Say who controlled the {item.label}.")
        if declaration.state == "enemy" and declaration.controlled_by_id not in enemies:
            raise RuleViolation(f"Say which enemy warband controlled the {item.label}.")
        if declaration.exposed and not (
            participant.routed and item.heavy and declaration.state == "own"
        ):
            raise RuleViolation(
                f"Only a heavy item held by a routing warband can be caught in the open "
                f"({item.label})."
            )
        item.state = declaration.state
        item.controlled_by_id = (
            declaration.controlled_by_id if declaration.state == "enemy" else None
        )
        item.exposed = declaration.exposed
        item.save(update_fields=["state", "controlled_by", "exposed"])
    participant.securers, participant.pitters = securers, pitters
    participant.quartermasters = quartermasters if battle.campaign.quartermaster_skill else 0
    participant.carried_items_declared = True
    participant.save(
        update_fields=["securers", "pitters", "quartermasters", "carried_items_declared"]
    )
    if not battle.participants.filter(carried_items_declared=False).exists():
        _settle_controlled(battle, actor)


def _give(item: CarriedItemAtEnd, winner: Warband | None, *, actor, battle: Battle) -> None:
    """Hand a carried item to ``winner`` (or lose it), through the treasury's services."""
    owner = item.owner
    if winner is None:
        item.outcome = CarriedItemAtEnd.Outcome.LOST
        if item.container_id:
            treasury.lose_container(item.container, actor=actor, battle=battle, step=0)
        elif item.vessel_id:
            VesselItem.objects.filter(pk=item.vessel_id).update(is_lost=True)
        record_event(
            battle.campaign, CampaignEvent.Kind.CONTAINER,
            f"{owner.name}'s {item.label.lower()} was left behind in the ruins.", battle=battle,
        )  # fmt: skip
    elif item.discovery_id:
        item.outcome = CarriedItemAtEnd.Outcome.RECOVERED
        _bank_discovery(item.discovery, winner, actor=actor, battle=battle)
    elif winner.pk == owner.pk:
        item.outcome = (
            CarriedItemAtEnd.Outcome.RECOVERED
            if item.is_uncontrolled
            else CarriedItemAtEnd.Outcome.SECURED
        )
    else:
        item.outcome = CarriedItemAtEnd.Outcome.CAPTURED
        if item.container_id:
            treasury.capture_container(
                StorageContainer.objects.get(pk=item.container_id), winner, battle=battle,
                actor=actor, step=0,
            )  # fmt: skip
        elif item.vessel_id:
            VesselItem.objects.filter(pk=item.vessel_id).update(warband=winner, coach=None)
        record_event(
            battle.campaign, CampaignEvent.Kind.CONTAINER,
            f"{winner.name} took a {item.label.lower()} from {owner.name}.", battle=battle,
        )  # fmt: skip
    item.secured_by = winner
    item.resolved_at = timezone.now()
    item.save(update_fields=["outcome", "secured_by", "resolved_at"])


def _bank_discovery(discovery: Discovery, warband: Warband, *, actor, battle: Battle) -> None:
    """Random fortune "becomes a part of their treasury": a carried item waits, unstored, for a
    container in the post-battle sequence; a cart or coach becomes the warband's. An animal is
    left for the player to add to the roster."""
    context = treasury.Context(actor=actor, step=0, battle=battle, note="random fortune")
    if discovery.kind == Discovery.Kind.CARRIED_ITEM:
        treasury.add_item(
            treasury.loose_pile(warband), item=None, name=discovery.result[:100],
            reason=treasury.Reason.INCOME, context=context,
        )  # fmt: skip
    elif discovery.kind in (Discovery.Kind.CART, Discovery.Kind.COACH):
        kind = "cart_mule" if discovery.kind == Discovery.Kind.CART else "opulent_coach"
        StorageContainer.objects.create(warband=warband, kind=kind, label=discovery.result[:60])


def _settle_controlled(battle: Battle, actor) -> None:
    """Everybody declared: controlled items are secured by whoever controls them (an enemy
    captures), an uncontrolled warmount goes home; the rest waits for recovery rolls."""
    for item in battle.carried_items.select_related("owner", "controlled_by"):
        if item.is_uncontrolled:
            if item.is_warmount:
                _give(item, item.owner, actor=actor, battle=battle)
                item.outcome = CarriedItemAtEnd.Outcome.HOME
                item.save(update_fields=["outcome"])
            continue
        winner = item.controlled_by if item.state == "enemy" else item.owner
        _give(item, winner, actor=actor, battle=battle)
    _finish_step_zero_if_done(battle)


def sides(battle: Battle) -> list[rules.Side]:
    return [
        rules.Side(
            warband_id=p.warband_id,
            name=p.warband.name,
            routed=p.routed,
            rout_order=p.rout_order,
            securers=p.securers,
            pitters=p.pitters,
            quartermasters=p.quartermasters,
        )
        for p in battle.participants.select_related("warband").order_by("pk")
    ]


def chooser(battle: Battle) -> Warband | None:
    """Whose turn it is to choose the next uncontrolled item."""
    if not battle.choosing_order:
        return None
    warband_id = battle.choosing_order[battle.choosing_turn % len(battle.choosing_order)]
    return Warband.objects.get(pk=warband_id)


@transaction.atomic
def start_recovery(battle: Battle, *, actor, dice) -> list[int]:
    """Fix the order in which warbands choose items (rolling off among non-routers)."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    _may_play(battle, actor)
    if battle.participants.filter(carried_items_declared=False).exists():
        raise RuleViolation("Every warband must declare its carried items first.")
    if battle.choosing_order or battle.carried_items_done_at:
        raise RuleViolation("Recovery has already started.")
    since = _last_roll(battle)
    order = rules.choosing_order(sides(battle), dice)
    _decided(battle, since, "choosing order: " + ", ".join(side.name for side in order))
    battle.choosing_order = [side.warband_id for side in order]
    battle.save(update_fields=["choosing_order"])
    return battle.choosing_order


@transaction.atomic
def resolve_item(
    battle: Battle,
    item: CarriedItemAtEnd,
    *,
    actor,
    dice,
    majority_id: int | None = None,
) -> rules.Recovery:
    """The warband whose turn it is chooses ``item``; the recovery table decides who secures
    it. ``majority_id``: the warband whose warriors are the majority within sight and charge
    range of the item, if any."""
    battle = (
        Battle.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=battle.pk)
    )
    _may_play(battle, actor)
    item = (
        CarriedItemAtEnd.objects.select_for_update(of=("self",))
        .select_related("owner")
        .get(pk=item.pk)
    )
    if item.battle_id != battle.pk or item.outcome != CarriedItemAtEnd.Outcome.PENDING:
        raise RuleViolation("That item is not waiting to be resolved.")
    if not battle.choosing_order:
        raise RuleViolation("Roll for the choosing order first.")
    turn = chooser(battle)
    if turn.owner_id != actor.pk and not permissions.is_organiser(actor, battle.campaign):
        raise PermissionDenied(f"It is {turn.name}'s turn to choose.")
    participants = {p.warband_id for p in battle.participants.all()}
    if majority_id is not None and majority_id not in participants:
        raise RuleViolation("The majority must be one of the battle's warbands.")
    loose = rules.LooseItem(
        label=item.label,
        heavy=item.heavy,
        majority=majority_id,
        mule_of=item.owner_id if item.is_mule else None,
    )
    since = _last_roll(battle)
    recovery = rules.resolve_uncontrolled(
        loose, sides(battle), dice, quartermaster_option=battle.campaign.quartermaster_skill
    )
    winner = Warband.objects.get(pk=recovery.winner) if recovery.winner else None
    item.recovery = "; ".join(roll.description for roll in recovery.rolls) + (
        f" ({recovery.note})" if recovery.note else ""
    )
    item.save(update_fields=["recovery"])
    _give(item, winner, actor=actor, battle=battle)
    if winner is not None:
        Participant.objects.filter(battle=battle, warband=winner, securers__gt=0).update(
            securers=F("securers") - 1
        )
    _decided(battle, since, f"{winner.name} secures it" if winner else "nobody secures it")
    battle.choosing_turn += 1
    battle.save(update_fields=["choosing_turn"])
    _finish_step_zero_if_done(battle)
    return recovery


def _last_roll(battle: Battle) -> int:
    return battle.dice_rolls.order_by("-pk").values_list("pk", flat=True).first() or 0


def _decided(battle: Battle, since: int, text: str) -> None:
    """Write what they decided on the rolls made since ``since`` (the dice log shows it)."""
    battle.dice_rolls.filter(pk__gt=since).update(result=text[:300])


def _finish_step_zero_if_done(battle: Battle) -> None:
    if battle.carried_items.filter(outcome=CarriedItemAtEnd.Outcome.PENDING).exists():
        return
    battle.carried_items_done_at = timezone.now()
    battle.save(update_fields=["carried_items_done_at"])
