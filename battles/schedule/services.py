"""The organiser's rounds and their pairings. Each service takes the actor, locks what it
changes (the campaign's row to number a round, the round's row to change its games), checks
the permissions (``battles.schedule.permissions``), calls the pairing rules
(``battles.rules.pairings``) and writes inside one transaction.

A round's games stay once one of them has a battle: regenerating, clearing or deleting the
round is then refused, and says why.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction

from battles.models import Battle, Fixture, FixtureSide, Participant, Round
from battles.rules import pairings, scenarios
from battles.schedule import permissions
from campaign import cache
from campaign.models import Campaign
from core.errors import RuleViolation
from warbands.models import Warband
from warbands.services import ratings_of

(
    ROUND_ROBIN,
    CLOSEST,
) = "round_robin", "closest"
METHODS = {ROUND_ROBIN: "Round robin (every warband meets every other in turn)",
           CLOSEST: "Closest rating, no repeats"}  # fmt: skip


def active_warbands(campaign: Campaign) -> list[Warband]:
    """The campaign's mustered warbands still in play, by name."""
    return list(
        Warband.objects.in_campaign(campaign)
        .filter(status=Warband.Status.ACTIVE)
        .select_related("owner")
        .order_by("name", "pk")
    )


def past_opponents(campaign: Campaign, *, besides: Round | None = None) -> dict[int, set[int]]:
    """Who met whom: in a confirmed battle, or planned in a game of this campaign (the games
    of ``besides``, about to be replaced, aside). Two queries."""
    games: dict[tuple[str, int], list[int]] = {}
    played = Participant.objects.filter(
        battle__campaign=campaign, battle__status=Battle.Status.CONFIRMED
    ).values_list("battle_id", "warband_id")
    for battle_id, warband_id in played:
        games.setdefault(("battle", battle_id), []).append(warband_id)
    planned = FixtureSide.objects.filter(fixture__campaign=campaign)
    if besides is not None:
        planned = planned.exclude(fixture__round=besides)
    for fixture_id, warband_id in planned.values_list("fixture_id", "warband_id"):
        games.setdefault(("fixture", fixture_id), []).append(warband_id)
    met: dict[int, set[int]] = {}
    for warbands in games.values():
        for warband in warbands:
            met.setdefault(warband, set()).update(w for w in warbands if w != warband)
    return met


def entrants(campaign: Campaign, warbands: Sequence[Warband], *, besides=None) -> list:
    ratings = ratings_of(warbands)
    met = past_opponents(campaign, besides=besides)
    return [
        pairings.Entrant(w.pk, ratings.get(w.pk, 0), w.name, frozenset(met.get(w.pk, ())))
        for w in warbands
    ]


def check_scenario(scenario_key: str) -> None:
    if scenario_key and not scenarios.scenario(scenario_key).key:
        raise RuleViolation("Pick a scenario from the list.", field="scenario_key")


@transaction.atomic
def create_round(
    campaign: Campaign,
    *,
    actor,
    number: int,
    starts_on: datetime.date,
    ends_on: datetime.date,
    name: str = "",
) -> Round:
    """A new round of the campaign; its number is the campaign's once (the campaign's row is
    locked, so two tabs cannot both take it)."""
    permissions.check_plans(actor, campaign)
    Campaign.objects.select_for_update(no_key=True).filter(pk=campaign.pk).first()
    if ends_on < starts_on:
        raise RuleViolation("The round ends on or after the day it starts.", field="ends_on")
    if Round.objects.filter(campaign=campaign, number=number).exists():
        raise RuleViolation(f"The campaign already has a round {number}.", field="number")
    made = Round.objects.create(
        campaign=campaign, number=number, name=name.strip(), starts_on=starts_on, ends_on=ends_on
    )
    cache.changed(campaign=campaign)
    return made


def next_number(campaign: Campaign) -> int:
    last = Round.objects.filter(campaign=campaign).order_by("-number").first()
    return last.number + 1 if last else 1


def _locked(round_: Round, actor) -> Round:
    permissions.check_plans(actor, round_.campaign)
    locked = Round.objects.select_for_update().filter(pk=round_.pk).first()
    if locked is None:
        raise RuleViolation("This round was deleted meanwhile.")
    locked.campaign = round_.campaign
    return locked


def _check_unplayed(round_: Round, doing: str) -> int:
    """How many games the round has; refused once one of them has a battle."""
    fixtures = Fixture.objects.filter(round=round_)
    played = fixtures.filter(battle__isnull=False).count()
    if played:
        raise RuleViolation(
            f"{played} game{'s' if played > 1 else ''} of this round "
            f"{'have' if played > 1 else 'has'} a battle reported or under way: its pairings "
            f"stay, so you cannot {doing}. Add games by hand instead."
        )
    return fixtures.count()


def _create(round_: Round, games, *, scenario_key="", planned_on=None, repeats=()) -> list:
    repeated = {frozenset(pair) for pair in repeats}
    made = []
    for game in games:
        fixture = Fixture.objects.create(
            campaign=round_.campaign, round=round_, scenario_key=scenario_key,
            planned_on=planned_on,
            repeat=any(frozenset((a, b)) in repeated for a in game for b in game if a != b),
        )  # fmt: skip
        FixtureSide.objects.bulk_create(FixtureSide(fixture=fixture, warband_id=w) for w in game)
        made.append(fixture)
    return made


@transaction.atomic
def pair_round(
    round_: Round,
    *,
    actor,
    method: str,
    left_out: Sequence[int] = (),
    three_way: bool = False,
    replace: bool = False,
    scenario_key: str = "",
) -> str:
    """Pair the round's games among the campaign's active warbands but ``left_out``, by
    ``method`` (``ROUND_ROBIN`` or ``CLOSEST``). A round that has games is only paired again
    when ``replace`` says so. What it did, in words (the bye, any repeat)."""
    round_ = _locked(round_, actor)
    check_scenario(scenario_key)
    if method not in METHODS:
        raise RuleViolation("Choose how to pair.", field="method")
    had = _check_unplayed(round_, "pair it again")
    if had and not replace:
        raise RuleViolation(
            f"This round has {had} game{'s' if had > 1 else ''} already: tick the box to "
            "replace them.",
            field="replace",
        )
    playing = [w for w in active_warbands(round_.campaign) if w.pk not in set(left_out)]
    if len(playing) < 2:
        raise RuleViolation("At least two warbands must be left in to pair.", field="left_out")
    if three_way and len(playing) < 3:
        raise RuleViolation("A game of three needs three warbands.", field="three_way")
    field = entrants(round_.campaign, playing, besides=round_)
    if method == ROUND_ROBIN:
        earlier = Round.objects.filter(campaign=round_.campaign, number__lt=round_.number).count()
        pairing = pairings.round_robin(field, earlier, three_way=three_way)
    else:
        pairing = pairings.closest_rating(field, three_way=three_way)
    Fixture.objects.filter(round=round_).delete()
    _create(round_, pairing.games, scenario_key=scenario_key, repeats=pairing.repeats)
    cache.changed(campaign=round_.campaign)
    return describe(pairing, {w.pk: w.name for w in playing})


def describe(pairing: pairings.Pairing, names: dict[int, str]) -> str:
    said = [f"{len(pairing.games)} game{'s' if len(pairing.games) != 1 else ''} paired."]
    if pairing.bye is not None:
        said.append(f"{names[pairing.bye]} has the bye.")
    if pairing.repeats:
        again = ", ".join(f"{names[a]} and {names[b]}" for a, b in pairing.repeats)
        said.append(f"No pairing without a repeat was found: {again} meet again.")
    return " ".join(said)


@transaction.atomic
def add_fixture(
    round_: Round,
    *,
    actor,
    warband_ids: Sequence[int],
    scenario_key: str = "",
    planned_on: datetime.date | None = None,
) -> Fixture:
    """A game of the organiser's choosing in the round: two to four of the campaign's active
    warbands, none already in another game of the round."""
    round_ = _locked(round_, actor)
    check_scenario(scenario_key)
    playing = active_warbands(round_.campaign)
    field = entrants(round_.campaign, playing)
    taken = FixtureSide.objects.filter(fixture__round=round_).values_list("warband_id", flat=True)
    if set(taken) & set(warband_ids):
        raise RuleViolation("A warband is already in another game of this round.", field="warbands")
    try:
        pairing = pairings.by_hand([list(warband_ids)], field)
    except RuleViolation as refusal:
        raise RuleViolation(str(refusal), field="warbands") from refusal
    (fixture,) = _create(
        round_, pairing.games, scenario_key=scenario_key, planned_on=planned_on,
        repeats=pairing.repeats,
    )  # fmt: skip
    cache.changed(campaign=round_.campaign)
    return fixture


@transaction.atomic
def clear_round(round_: Round, *, actor) -> int:
    """Delete the round's games, none of which has a battle; how many there were."""
    round_ = _locked(round_, actor)
    had = _check_unplayed(round_, "clear it")
    Fixture.objects.filter(round=round_).delete()
    cache.changed(campaign=round_.campaign)
    return had


@transaction.atomic
def delete_round(round_: Round, *, actor) -> None:
    """Delete the round with its games, none of which has a battle."""
    round_ = _locked(round_, actor)
    _check_unplayed(round_, "delete it")
    round_.delete()
    cache.changed(campaign=round_.campaign)
