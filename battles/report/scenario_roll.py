"""Rolling for the scenario before a battle (campaigns text, pre-battle sequence): 2D6 on the
rulebook's table, or the multiplayer table for three warbands or more
(``battles.rules.scenario_table``). No battle exists yet, so the roll is written where every
player of the campaign reads it: the campaign feed, with the dice and who rolled them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from battles import permissions as battle_permissions
from battles.rules import scenario_table
from campaign.models import Campaign, CampaignEvent
from campaign.services import record_event
from core.dice import Need
from core.errors import RuleViolation
from warbands import services as warband_services
from warbands.models import Warband

DICE = Need(2, "2D6")


@dataclass(frozen=True)
class Rolled:
    roll: scenario_table.ScenarioRoll
    chooser: list[Warband]  # the lowest-rated warbands (more than one on a tie)

    @property
    def message(self) -> str:
        faces = "+".join(map(str, self.roll.faces))
        said = f"2D6 on {self.roll.table}: {faces} = {self.roll.total}, "
        if self.roll.number:
            return said + f"play {self.roll.name}."
        names = " or ".join(w.name for w in self.chooser)
        return said + f"{names}, the lowest rated, chooses the scenario."


@transaction.atomic
def roll_for_scenario(*, actor, campaign: Campaign, warband_ids: Sequence[int], dice) -> Rolled:
    """A player of the campaign (or an organiser) rolls for the scenario of a battle between
    ``warband_ids``; the campaign feed tells everybody the dice and what they chose."""
    battle_permissions.check_open(campaign)
    ids = sorted(set(warband_ids))
    warbands = list(
        Warband.objects.in_campaign(campaign).playing().filter(pk__in=ids).order_by("name")
    )
    if len(ids) < 2 or len(warbands) != len(ids):
        raise RuleViolation("Tick two or more warbands of the campaign that can fight.")
    ratings = warband_services.ratings_of(warbands)
    lowest = min(ratings.values())
    rolled = Rolled(
        scenario_table.roll_scenario(dice, warbands=len(warbands)),
        [w for w in warbands if ratings[w.pk] == lowest],
    )
    names = ", ".join(w.name for w in warbands)
    record_event(
        campaign, CampaignEvent.Kind.BATTLE,
        f"{actor.username} rolled for the scenario of {names}: {rolled.message}",
    )  # fmt: skip
    return rolled
