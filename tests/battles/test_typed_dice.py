"""Typed dice mean what they say: a hero's injury takes exactly the two dice
of its D66, typed "41", "4 1" or "4,1"; more or fewer are refused with the count; a sub-roll of
the chart, the pit fight's D66 and the new leader's roll-off are each asked for in a labelled
field of their own; the server's dice (an empty field) roll everything, as before."""

from html import unescape

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.models import DiceRoll, SequenceTask
from tests.factories import hire
from tests.helpers import battle_of, fingerprint, fought, play_to, sequence_of
from warbands.models import Injury, Warband, Warrior

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def injury(client, duel):
    """Step 1 of the Reavers' sequence, the champion's D66 on the heroes' injury chart; the
    client logged in as the Reavers' player."""
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    sequence = play_to(sequence_of(battle_of(duel, champion_out=True), reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=1, warrior__warrior_type__key="champion")
    return reavers, sequence, task


def post(client, injury, data):
    _, sequence, task = injury
    url = reverse("sequence_task", args=[sequence.pk, task.pk])
    response = client.post(url, {"step": 1, **data}, headers=HTMX)
    return response, unescape(response.content.decode())


def roll(client, injury, dice):
    return post(client, injury, {"dice": dice})


def task_of(injury) -> SequenceTask:
    return SequenceTask.objects.get(pk=injury[2].pk)


@pytest.mark.parametrize("typed", ["41", "4 1", "4,1"])
def test_a_d66_reads_41_however_it_is_typed(client, injury, typed):
    response, _ = roll(client, injury, typed)

    assert response.status_code == 200
    task = task_of(injury)
    assert task.done and task.faces == [4, 1]
    assert list(DiceRoll.objects.values_list("faces", flat=True)) == [[4, 1]]
    assert not Injury.objects.filter(warrior=task.warrior).exists()  # 41: full recovery


@pytest.mark.parametrize(("typed", "count"), [("4", 1), ("4 1 3", 3), ("1 2 3 4 5", 5)])
def test_more_or_fewer_dice_than_the_d66_takes_are_refused_with_the_count(
    client, injury, typed, count
):
    before = fingerprint()

    response, text = roll(client, injury, typed)

    assert response.status_code == 422
    assert f"Brandt's serious injury needs 2 dice (D66); you typed {count}." in text
    assert fingerprint() == before


def test_the_page_says_how_many_dice_each_injury_takes(client, duel):
    reavers = duel["reavers"]
    captain, champion, guards = (
        reavers.warriors.get(is_leader=True),
        reavers.warriors.get(warrior_type__key="champion"),
        reavers.warriors.get(warrior_type__key="warrior"),
    )
    battle = fought(duel, [(captain, False, 0, 0, None), (champion, True, 0, 0, None),
                           (guards, True, 2, 0, None)])  # fmt: skip
    sequence = play_to(sequence_of(battle, reavers), 1, reavers.owner)
    client.force_login(reavers.owner)

    page = unescape(client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode())

    assert "Type 2 dice (D66), e.g. 41 or 4 1" in page
    assert "Type 2 dice (one D6 per model out of action), e.g. 4 1" in page
    assert 'data-dice="2"' in page
    assert "aria-label=\"Dice rolled for Brandt's serious injury: Type 2 dice (D66)" in page


def test_a_sub_roll_of_the_chart_is_asked_for_in_its_own_labelled_field(client, injury):
    response, text = roll(client, injury, "2 3")  # 23: arm wound, then a D6

    assert response.status_code == 200
    task = task_of(injury)
    assert not task.done and task.faces == [2, 3]
    assert task.question["dice"] == [1, 6]
    assert "A further roll: Brandt: arm wound (D6)" in text
    assert "Type 1 die (D6), e.g. 4" in text
    assert 'aria-label="Dice rolled for Brandt: arm wound (D6): Type 1 die (D6), e.g. 4"' in text
    before = fingerprint()
    response, text = roll(client, injury, "1 2")
    assert response.status_code == 422
    assert "Brandt: arm wound (D6) needs 1 die (D6); you typed 2." in text
    assert fingerprint() == before

    response, text = roll(client, injury, "1")  # severe: the arm is amputated

    task = task_of(injury)
    assert task.done and task.faces == [2, 3, 1]
    assert Injury.objects.get(warrior=task.warrior).name == "Amputated arm"
    results = DiceRoll.objects.order_by("pk").values_list("faces", "result")
    assert [faces for faces, _ in results] == [[2, 3], [1]]
    assert all("the arm is amputated" in result for _, result in results)


def test_multiple_injuries_ask_for_the_count_then_each_further_d66(client, injury):
    roll(client, injury, "16")  # multiple injuries: a D6 for how many
    assert task_of(injury).question["text"] == "Brandt: how many further injuries (D6)"
    roll(client, injury, "2")  # two further injuries, a D66 each
    assert task_of(injury).question["text"] == "Brandt: multiple injuries 1 (D66)"
    _, text = roll(client, injury, "4")
    assert "needs 2 dice (D66); you typed 1." in text
    roll(client, injury, "22")  # leg wound
    roll(client, injury, "4,4")  # full recovery

    task = task_of(injury)
    assert task.done and task.faces == [1, 6, 2, 2, 2, 4, 4]
    assert task.summary.startswith("Multiple injuries (2 further injuries); Leg wound;")


def test_a_question_typed_dice_led_to_asks_for_the_roll_after_it(client, injury):
    roll(client, injury, "6 5")  # sold to the pits: who won?
    assert task_of(injury).question["key"] == "pit_fight" and task_of(injury).question["typed"]
    response, text = post(client, injury, {"answer": "lost", "dice": "4 1"})
    assert response.status_code == 422
    assert "answer the question without dice; a roll it leads to is asked for next" in text

    post(client, injury, {"answer": "lost"})
    task = task_of(injury)
    assert task.question["text"] == "Brandt: lost in the pits, dead or injured (D66, 11-35)"
    roll(client, injury, "3 3")  # nervous condition

    task = task_of(injury)
    assert task.done and task.faces == [6, 5, 3, 3]
    assert "Thrown out of the pits" in task.summary and "Nervous condition" in task.summary


def test_the_new_leaders_roll_off_is_asked_for_die_by_die(client, duel):
    reavers = duel["reavers"]
    captain = reavers.warriors.get(is_leader=True)
    brandt = reavers.warriors.get(warrior_type__key="champion")
    Warband.objects.filter(pk=reavers.pk).update(status="draft", gold_crowns=100)
    reavers.refresh_from_db()
    kurt = hire(reavers, "youngblood", name="Kurt")
    Warband.objects.filter(pk=reavers.pk).update(status="active", gold_crowns=0)
    Warrior.objects.filter(pk=kurt.pk).update(Ld=brandt.Ld, experience=brandt.experience)
    battle = fought(duel, [(captain, True, 0, 0, None), (brandt, False, 0, 0, None)])
    sequence = play_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    injury = (reavers, sequence, sequence.tasks.get(step=1, warrior=captain))
    client.force_login(reavers.owner)

    roll(client, injury, "1 1")  # dead: Brandt and Kurt tie on Leadership and experience
    assert task_of(injury).question["text"] == "new leader roll-off: Brandt"
    _, text = roll(client, injury, "6")
    assert "A further roll: new leader roll-off: Kurt" in text
    roll(client, injury, "2")

    assert task_of(injury).done
    assert Warrior.objects.get(pk=brandt.pk).is_leader
    assert Warrior.objects.get(pk=captain.pk).status == "dead"


def test_an_empty_field_lets_the_server_roll_everything_as_before(client, injury):
    response, _ = roll(client, injury, "")

    assert response.status_code == 200
    task = task_of(injury)
    if not task.done:  # sold to the pits: who won? The server rolls whatever follows.
        assert "dice" not in task.question and not task.question["typed"]
        post(client, injury, {"answer": task.question["options"][0][0]})
    assert task_of(injury).done
    assert set(DiceRoll.objects.values_list("source", flat=True)) == {"server"}


def test_a_further_roll_left_empty_is_rolled_by_the_server(client, injury):
    roll(client, injury, "2 4")  # madness: a D6 more

    response, _ = roll(client, injury, "")

    assert response.status_code == 200 and task_of(injury).done
    sources = list(DiceRoll.objects.order_by("pk").values_list("source", flat=True))
    assert sources == ["entered", "server"]
