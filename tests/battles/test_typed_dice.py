"""Typed dice mean what they say: a D66 takes "41" as well as "4 1", and too few dice are
refused with the count the roll takes (issue 27, point 6)."""

import pytest
from django.urls import reverse

from battles import sequence as sequences
from battles.models import DiceRoll, SequenceTask
from tests.helpers import battle_of, play_to, sequence_of
from warbands.models import Injury

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def injury(duel):
    """Step 1 of the Reavers' sequence, the champion's D66 on the heroes' injury chart."""
    reavers = duel["reavers"]
    sequence = play_to(sequence_of(battle_of(duel, champion_out=True), reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=1, warrior__warrior_type__key="champion")
    return reavers, sequence, task


def roll(client, injury, dice):
    reavers, sequence, task = injury
    client.force_login(reavers.owner)
    url = reverse("sequence_task", args=[sequence.pk, task.pk])
    return client.post(url, {"step": 1, "dice": dice}, headers=HTMX)


@pytest.mark.parametrize("typed", ["41", "4 1", "4,1"])
def test_a_d66_reads_41_however_it_is_typed(client, injury, typed):
    response = roll(client, injury, typed)

    assert response.status_code == 200
    task = SequenceTask.objects.get(pk=injury[2].pk)
    assert task.done and task.faces == [4, 1]
    assert list(DiceRoll.objects.values_list("faces", flat=True)) == [[4, 1]]
    assert not Injury.objects.filter(warrior=task.warrior).exists()  # 41: full recovery


def test_fewer_dice_than_the_roll_takes_are_refused_with_the_count(client, injury):
    response = roll(client, injury, "4")

    assert response.status_code == 422
    message = "Brandt: serious injury (D66) takes 2 D6; only 1 typed die is left for it."
    assert message in response.content.decode()
    assert not SequenceTask.objects.get(pk=injury[2].pk).done
    assert not DiceRoll.objects.exists()
