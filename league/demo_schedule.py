"""The demo league's schedule (``manage.py seed_demo``): round 1 played and confirmed, round 2
in progress (Reavers against the Pyre confirmed, the Scourge against the Get being played with
the helper, the Sons of Ymir sitting it out), a game the Sons of Ymir agreed by challenge and
have still to play, and the Pyre's challenge waiting for Alice's answer.

The rounds name the demo's history as it was seeded (``seed_battles``), so their games are
written with their battles rather than paired again: pairing would count those battles as
earlier meetings. Dates are counted from today, like the history's; the rows are looked up
first, so a second run adds nothing.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from battles.models import Battle, Fixture, FixtureSide, Round
from battles.schedule import challenges
from campaign.models import Campaign
from warbands.models import Warband

# (number, name, first day and last day counted back from today, games: the warbands' names
# and the scenario key of the battle it names, "helper" for the game under way)
ROUNDS = [
    (1, "First blood", 28, 10, [
        (("Reikland Reavers", "The Grey Scourge"), "skirmish"),
        (("The Order of the Burning Pyre", "Von Carstein's Get"), "wyrdstone_hunt"),
    ]),
    (2, "The comet's tail", 9, -5, [
        (("Reikland Reavers", "The Order of the Burning Pyre"), "chance_encounter"),
        (("The Grey Scourge", "Von Carstein's Get"), "helper"),
    ]),
]  # fmt: skip
SONS = "The Sons of Ymir"


def seed_schedule(campaign: Campaign) -> None:
    if Round.objects.filter(campaign=campaign).exists():
        return
    today = timezone.localdate()
    warbands = {w.name: w for w in Warband.objects.filter(campaign=campaign)}
    battles = list(Battle.objects.filter(campaign=campaign).order_by("fought_on", "pk"))
    for number, name, first, last, games in ROUNDS:
        made = Round.objects.create(
            campaign=campaign, number=number, name=name,
            starts_on=today - datetime.timedelta(days=first),
            ends_on=today - datetime.timedelta(days=last),
        )  # fmt: skip
        for names, key in games:
            battle = next(
                b
                for b in battles
                if (b.status == Battle.Status.PLAYING if key == "helper" else b.scenario_key == key)
            )
            fixture = Fixture.objects.create(
                campaign=campaign, round=made, battle=battle, scenario_key=battle.scenario_key
            )
            FixtureSide.objects.bulk_create(
                FixtureSide(fixture=fixture, warband=warbands[n]) for n in names
            )
    # The Sons of Ymir accepted the Scourge's challenge; the Pyre's waits for Alice.
    sons, scourge, pyre = (
        warbands[SONS],
        warbands["The Grey Scourge"],
        warbands["The Order of the Burning Pyre"],
    )
    accepted = challenges.issue_challenge(
        campaign, actor=scourge.owner, challenger_id=scourge.pk, opponent_ids=[sons.pk],
        scenario_key="hidden_treasure", planned_on=today + datetime.timedelta(days=3),
    )  # fmt: skip
    challenges.answer_challenge(accepted, actor=sons.owner, accept=True)
    challenges.issue_challenge(
        campaign, actor=pyre.owner, challenger_id=pyre.pk, opponent_ids=[sons.pk],
        scenario_key="breakthrough", planned_on=today + datetime.timedelta(days=6),
    )  # fmt: skip
