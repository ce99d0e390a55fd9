"""Playing a planned game: what the battle report and the battle helper ask of the schedule
(the services that ``pyproject.toml`` declares for them). A battle started or reported with
``?fixture=<id>`` links back to its fixture, which then cannot start another; under the
campaign's "required" policy, a battle comes only from a fixture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils import timezone

from battles.models import Battle, Fixture, FixtureSide
from campaign import cache
from campaign.models import Campaign
from core.errors import RuleViolation

REQUIRED = (
    "This campaign plays only planned games: report or start the battle from its game on the "
    "campaign's schedule (a round's game or an accepted challenge), or ask an organiser to "
    "add it to a round."
)
TAKEN = "This planned game has its battle already: open that battle instead."


def fixture_to_start(campaign: Campaign, fixture_id) -> Fixture | None:
    """The campaign's fixture ``fixture_id`` (a query parameter, maybe not a number) with
    its warbands (``fixture.warband_ids``), to fill a form in; None when there is none. Two
    queries."""
    try:
        pk = int(str(fixture_id))
    except ValueError:
        return None
    if not 0 < pk < 2**31:
        return None
    fixture = Fixture.objects.filter(campaign=campaign, pk=pk).first()
    if fixture is not None:
        fixture.warband_ids = list(
            FixtureSide.objects.filter(fixture=fixture)
            .order_by("pk")
            .values_list("warband_id", flat=True)
        )
    return fixture


def claim(campaign: Campaign, fixture_id: int | None, warband_ids: Sequence[int]):
    """The fixture a battle is about to be created from, locked, checked free and between
    exactly ``warband_ids``; None for a battle from no fixture, which the campaign's policy
    must allow."""
    if fixture_id is None:
        if campaign.challenge_policy == Campaign.Challenges.REQUIRED:
            raise RuleViolation(REQUIRED)
        return None
    fixture = Fixture.objects.select_for_update().filter(campaign=campaign, pk=fixture_id).first()
    if fixture is None:
        raise RuleViolation("No such planned game in this campaign.")
    if fixture.battle_id is not None:
        raise RuleViolation(TAKEN)
    planned = set(FixtureSide.objects.filter(fixture=fixture).values_list("warband_id", flat=True))
    if planned != set(warband_ids):
        raise RuleViolation(
            "The planned game is between other warbands: play it with exactly its own, or "
            "report this battle without it."
        )
    return fixture


def link(fixture: Fixture | None, battle: Battle) -> None:
    """The battle is the fixture's (claimed in the same transaction)."""
    if fixture is None:
        return
    fixture.battle = battle
    fixture.save(update_fields=["battle"])
    cache.changed(campaign=battle.campaign_id)


@dataclass(frozen=True)
class Planned:
    """What a planned game fills in of a report's or a game's form: its fixture, the form's
    initial values (its scenario, its date or today), each of its warbands' row ticked as
    taking part, and why a battle cannot come from it ("" when it can)."""

    fixture: Fixture | None = None
    form: dict = field(default_factory=dict)
    rows: dict = field(default_factory=dict)
    problem: str = ""

    @property
    def fixture_id(self) -> int | None:
        return self.fixture.pk if self.fixture else None


def planned(campaign: Campaign, asked) -> Planned:
    """The planned game ``asked`` for (a query parameter or a hidden field, maybe nothing,
    maybe not a number): nothing asked fills in nothing but today."""
    form = {"fought_on": timezone.localdate()}
    if not asked:
        return Planned(form=form)
    fixture = fixture_to_start(campaign, asked)
    if fixture is None:
        return Planned(form=form, problem="No such planned game in this campaign.")
    if fixture.scenario_key:
        form["scenario_key"] = fixture.scenario_key
    if fixture.planned_on:
        form["fought_on"] = fixture.planned_on
    rows = {pk: {"took_part": True} for pk in fixture.warband_ids}
    return Planned(fixture, form, rows, TAKEN if fixture.battle_id is not None else "")
