"""Two warbands of a campaign hiring the same dramatis persona at once, each in its own step
7 (``warbands.dramatis_personae``: the campaign's row lock): exactly one has him, the other
is refused, and the treasure is conserved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.helpers import at, mustered_duel, play_to, sequence_of
from tests.race.harness import Shot, fire_together
from tests.race.hired_sword_races import found
from warbands import treasury
from warbands.models import Warrior

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_warbands_hire_the_same_persona_at_once_one_has_him(reference_data):
    duel = mustered_duel()
    reavers, scourge = duel["reavers"], duel["scourge"]
    first, _ = at(duel, 7)
    second = sequence_of(first.participant.battle, scourge)
    play_to(second, 7, scourge.owner)
    for sequence, warband in ((first, reavers), (second, scourge)):
        found(sequence, "ulli_and_marquand")  # 30 gc: either may pay
        assert treasury.totals(warband)["gold"] >= 30
    shots = [
        Shot(
            warband.owner,
            reverse("sequence_act", args=[sequence.pk]),
            {"step": 7, "action": "hire_sword", "sword": "ulli_and_marquand"},
            applied=int,
        )
        for sequence, warband in ((first, reavers), (second, scourge))
    ]

    statuses = fire_together((shots[0], 1), (shots[1], 1))

    assert all(status < 500 for volley in statuses for status in volley), statuses
    held = Warrior.objects.filter(hired_sword__key="ulli_and_marquand").on_roster()
    assert held.count() == 1
    assert sorted(s for (s,) in statuses) == [200, 422]
    assert not treasury.conservation_problems()
