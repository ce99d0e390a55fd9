"""Each side reports its own warriors: who took part, who went out of action (for a henchman
group, how many of its models), which hero put how many enemies out of action, the scenario's
own awards, who led the warband, and the wyrdstone the scenario gave it.

A side is entered by the warband's player or, for him, by an organiser (the campaign feed
says so). Entering a side asks the other players to confirm again, since they have not seen it;
nobody confirms a battle before every side is entered (``battles.report.services.respond``).

Warriors who must miss the game (``games_to_miss``) or are held captive cannot take part
(campaigns text, serious injuries: "miss next game", "captured"): the form does not offer
them and this service refuses them. Nor can a warrior who needs a tamer (``needs_tamer``, the
Trained Bear) while none of its tamers is free to fight, and a side that fields it without
one of them is refused (``battles.rules.taking_part``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, Participant, WarriorOutcome
from battles.report import permissions as report_permissions
from battles.rules import scenarios, taking_part
from campaign import cache
from campaign.models import CampaignEvent
from campaign.services import record_event
from core import notices
from core.errors import RuleViolation
from warbands.models import Warband, Warrior


@dataclass(frozen=True)
class Outcome:
    """What one warrior who took part did. ``models_out_of_action``: for a henchman group,
    how many of its models went out of action (a hero is one model: ``out_of_action``)."""

    warrior_id: int
    out_of_action: bool = False
    enemies_out_of_action: int = 0
    scenario_experience: int = 0
    taken_out_by_id: int | None = None
    models_out_of_action: int = 0
    awards: dict[str, int] = field(default_factory=dict)


def _free(warband: Warband):
    return warband.warriors.fighting().filter(games_to_miss=0)


def untamed(warband: Warband) -> dict[str, tuple[str, ...]]:
    """The types of the warband's warriors free to fight who need a tamer none of whose
    tamers is free to fight (they stay at camp), each with its tamers' keys. Only a list with
    a ``needs`` roster rule asks the database."""
    needs = warband.warband_type.limits.needs
    if not needs:
        return {}
    free = _free(warband).values_list("warrior_type__key", "warrior_type__special_rules")
    return taking_part.untamed_types(free, needs)


def fighters(warband: Warband):
    """The warriors a side may field: with the warband, not captive, missing no game, and not
    an animal whose tamer cannot fight (``untamed``)."""
    left_at_camp = untamed(warband)
    free = _free(warband)
    return free.exclude(warrior_type__key__in=left_at_camp) if left_at_camp else free


def whole_side(warband: Warband, deeds: Sequence[Outcome] = ()) -> list[Outcome]:
    """Every warrior free to fight took part: ``deeds`` for those who did something, the
    rest stood to the end (for demo data, the bench and tests)."""
    done = {o.warrior_id: o for o in deeds}
    return [done.get(w.pk, Outcome(w.pk)) for w in fighters(warband).order_by("pk")]


def absentees(warband: Warband) -> list[tuple[Warrior, str]]:
    """The warband's members who cannot take part in its next battle, and why."""
    absent = []
    left_at_camp = untamed(warband)
    warriors = warband.warriors.on_roster().select_related("warrior_type")
    for warrior in warriors.order_by("-is_leader", "-is_hero", "pk"):
        if warrior.status == Warrior.Status.CAPTURED:
            absent.append((warrior, "held captive"))
        elif warrior.games_to_miss:
            games = warrior.games_to_miss
            absent.append((warrior, f"must miss {games} game{'s' if games > 1 else ''}"))
        elif warrior.warrior_type.key in left_at_camp:
            absent.append((warrior, "stays at camp: no tamer free to fight"))
    return absent


def side_version(participant: Participant, outcomes: Sequence[WarriorOutcome]) -> str:
    """A short digest of a side as it stands (its warriors' outcomes, leader, shards and role):
    a page that offers to confirm the side as shown posts it back, so that a side changed
    meanwhile (in another tab, by an organiser) is not confirmed unseen; and a side saved as
    the battle helper wrote it is told from a changed one (``enter_side``). ``outcomes``: the
    participant's, in any order."""
    rows = sorted(
        (o.warrior_id, o.out_of_action, o.models_out_of_action, o.enemies_out_of_action,
         o.scenario_experience, sorted(o.awards.items()), o.taken_out_by_id)
        for o in outcomes
    )  # fmt: skip
    side = (participant.leader_id, participant.scenario_shards, participant.role)
    return hashlib.sha256(repr((rows, side)).encode()).hexdigest()[:16]


def missing_sides(participants: Sequence[Participant]) -> list[Participant]:
    return [p for p in participants if p.side_entered_at is None]


def _check(
    warrior: Warrior, outcome: Outcome, played, enemies: dict[int, Warrior], role: str
) -> None:
    name = warrior.name
    if outcome.enemies_out_of_action > 50 or outcome.scenario_experience > 20:
        raise RuleViolation(f"Check the numbers for {name}.")
    if not warrior.is_hero and outcome.models_out_of_action > warrior.group_size:
        raise RuleViolation(
            f"{name} are {warrior.group_size}: no more of them can go out of action."
        )
    if outcome.taken_out_by_id and outcome.taken_out_by_id not in enemies:
        raise RuleViolation(f"{name} was taken out by an enemy of this battle.")
    known = {award.key: award for award in played.awards}
    for key, times in outcome.awards.items():
        award = known.get(key)
        if award is None:
            raise RuleViolation(f"{played.name} gives no such award as {key!r}.")
        if times and award.heroes_only and not warrior.is_hero:
            raise RuleViolation(f"Only a hero earns “{award.label}”.")
        if times and award.role and award.role != role:
            raise RuleViolation(
                f"Only the warriors of a side playing “{award.role}” earn “{award.label}”."
            )
        if not 0 <= times <= award.most:
            raise RuleViolation(f"{name} earns “{award.label}” {award.most} time(s) at most.")


def _check_once_per_battle(battle: Battle, participant: Participant, outcomes, played) -> None:
    """Awards only one warrior of the whole battle earns (Street Fight's first hero out)."""
    others = WarriorOutcome.objects.filter(participant__battle=battle).exclude(
        participant=participant
    )
    for award in played.awards:
        if not award.once_per_battle:
            continue
        earners = sum(1 for o in outcomes if o.awards.get(award.key))
        earners += sum(1 for o in others if o.awards.get(award.key))
        if earners > 1:
            raise RuleViolation(f"Only one warrior of the battle earns “{award.label}”.")


def _check_tamers(warband: Warband, fielded: Sequence[Warrior]) -> None:
    """Refuse a side that fields a warrior who needs a tamer without one of its tamers."""
    lonely = taking_part.untamed_types(
        [(w.warrior_type.key, w.warrior_type.special_rules) for w in fielded],
        warband.warband_type.limits.needs,
    )
    for warrior in fielded:
        if warrior.warrior_type.key in lonely:
            tamers = warband.warband_type.warrior_types.filter(
                key__in=lonely[warrior.warrior_type.key]
            ).values_list("name", flat=True)
            raise RuleViolation(
                f"{warrior.name} takes part only in a battle its "
                f"{' or '.join(sorted(tamers)) or 'tamer'} takes part in."
            )


@transaction.atomic
def enter_side(
    battle: Battle,
    warband: Warband,
    *,
    actor,
    outcomes: Sequence[Outcome],
    leader_id: int | None = None,
    scenario_shards: int = 0,
    role: str = "",
) -> Participant:
    """Record what the warband's warriors did (replacing what the side said before); the
    other players confirm again. ``leader_id``: who led it (by default its leader, when he
    took part); ``role``: its role in a scenario that has roles (its warriors earn only that
    role's awards).

    A side saved for the first time exactly as the battle helper wrote it (the only rows a
    side has before it is entered) asks nobody again: the others saw it in the report, and
    any confirmation given meanwhile was given to it (``services.confirm_side_as_recorded``)."""
    battle = (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=battle.pk)
    )
    participant = (
        Participant.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warband__owner")
        .filter(battle=battle, warband=warband)
        .first()
    )
    if participant is None:
        raise RuleViolation(f"{warband.name} did not fight in this battle.")
    if battle.status == Battle.Status.CONFIRMED:
        raise RuleViolation("The battle is confirmed: ask an organiser to correct it.")
    report_permissions.check_enters(actor, battle, participant)
    played = scenarios.scenario(battle.scenario_key)
    most_shards = played.most_shards
    if not 0 <= scenario_shards <= most_shards:
        raise RuleViolation(
            f"{played.name} gives a warband {most_shards} shard(s) of wyrdstone at most."
            if most_shards
            else f"{played.name} gives no wyrdstone of its own."
        )
    if role and role not in played.roles:
        raise RuleViolation(
            f"{played.name} has no role “{role}”."
            if played.roles
            else f"{played.name} gives the warbands no roles."
        )
    own = {w.pk: w for w in fighters(participant.warband).select_related("warrior_type")}
    enemies = {
        w.pk: w
        for w in Warrior.objects.filter(
            warband__participations__battle=battle, status__in=Warrior.ON_ROSTER
        ).exclude(warband=participant.warband)
    }
    seen = set()
    for outcome in outcomes:
        warrior = own.get(outcome.warrior_id)
        if warrior is None:
            raise RuleViolation(
                "Only the warband's own warriors free to fight take part (not those who must "
                "miss the game or are held captive)."
            )
        if warrior.pk in seen:
            raise RuleViolation(f"{warrior.name} is listed twice.")
        seen.add(warrior.pk)
        _check(warrior, outcome, played, enemies, role)
    _check_once_per_battle(battle, participant, outcomes, played)
    _check_tamers(participant.warband, [own[pk] for pk in seen])
    if leader_id is None:
        leader_id = next((pk for pk in seen if own[pk].is_leader), None)
    elif leader_id not in seen or not own[leader_id].is_hero:
        raise RuleViolation("The warband's leader in the battle is a hero who took part.")
    written = list(WarriorOutcome.objects.filter(participant=participant))
    recorded = participant.side_entered_at is None and bool(written)
    before = side_version(participant, written)
    WarriorOutcome.objects.filter(participant=participant).delete()
    saved = WarriorOutcome.objects.bulk_create(
        WarriorOutcome(
            participant=participant,
            warrior_id=o.warrior_id,
            out_of_action=o.out_of_action
            if own[o.warrior_id].is_hero
            else o.models_out_of_action >= own[o.warrior_id].group_size,
            models_out_of_action=0 if own[o.warrior_id].is_hero else o.models_out_of_action,
            enemies_out_of_action=o.enemies_out_of_action,
            scenario_experience=0 if played.key else o.scenario_experience,
            awards={k: v for k, v in o.awards.items() if v},
            taken_out_by_id=o.taken_out_by_id,
        )
        for o in outcomes
    )
    participant.side_entered_at = timezone.now()
    participant.side_entered_by = actor
    participant.leader_id = leader_id
    participant.scenario_shards = scenario_shards
    participant.role = role
    participant.save(
        update_fields=["side_entered_at", "side_entered_by", "leader", "scenario_shards", "role"]
    )
    if not (recorded and side_version(participant, saved) == before):
        _ask_the_others_again(battle, actor)
    ask_to_confirm(battle, actor)
    cache.changed(campaign=battle.campaign_id, battle=battle)  # the dashboards, its board
    if participant.warband.owner_id != actor.pk:
        record_event(
            battle.campaign, CampaignEvent.Kind.BATTLE,
            f"{actor.username}, organiser, entered what the warriors of {warband.name} did in "
            f"{battle} for {participant.warband.owner.username}.",
            warband=participant.warband, battle=battle,
        )  # fmt: skip
    return participant


def ask_to_confirm(battle: Battle, actor) -> None:
    """Once every side is in, mail the players whose confirmation the report waits for, but
    the one who acted (``core.notices``: on commit, to those who chose a mail each time)."""
    participants = list(battle.participants.select_related("warband"))
    if missing_sides(participants):
        return
    notices.notify(
        [
            p.warband.owner_id
            for p in participants
            if p.confirmation == Participant.Confirmation.PENDING and p.warband.owner_id != actor.pk
        ],
        kind="confirm",
        campaign=battle.campaign.name,
        url=reverse("battle_detail", args=[battle.pk]),
    )


def _ask_the_others_again(battle: Battle, actor) -> None:
    """Players who confirmed before this side was entered (or changed) confirm again."""
    Participant.objects.filter(
        battle=battle, confirmation=Participant.Confirmation.CONFIRMED
    ).exclude(warband__owner=actor).update(
        confirmation=Participant.Confirmation.PENDING, confirmed_by=None
    )
