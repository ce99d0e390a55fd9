"""The setup replayed (``tests.replays``) is the setup the services build: every row alike, and
a sequence that goes on, and is undone, exactly as the services' own would."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import connection, transaction

from battles import aftermath as sequences
from tests import replays
from tests.factories import UserFactory
from tests.helpers import at_step, mustered_duel, play_to, roster_state, state, warriors
from warbands.models import Warrior


@pytest.fixture
def recorded(monkeypatch):
    """No recipe yet: the first call of each replayable helper runs the services."""
    monkeypatch.setattr(replays, "RECIPES", {})
    return replays.RECIPES


def built_then_replayed(build):
    """``build()`` through the services, rolled back, then again: the rows each left, and
    what each returned. The second call must record nothing."""
    point = transaction.savepoint()
    first = build()
    built = replays.rows()
    recorded = dict(replays.RECIPES)
    transaction.savepoint_rollback(point)
    second = build()
    assert recorded == replays.RECIPES, "the second call ran the services again"
    return (built, first), (replays.rows(), second)


@pytest.mark.parametrize(
    "step, battle",
    [(2, {}), (4, {}), (8, {"champion_out": True}), (10, {"won": False})],
)
def test_a_replayed_sequence_has_every_row_the_services_wrote(duel, recorded, step, battle):
    before = replays.rows()
    (built, (sequence, owner)), (replayed, (again, owner_again)) = built_then_replayed(
        lambda: at_step(duel, step, **battle)
    )
    assert recorded, "nothing was recorded"
    assert replayed == built
    assert replayed.keys() - before.keys(), "the sequence wrote no row"
    assert (again.pk, again.current_step, owner_again) == (sequence.pk, step, owner)


def test_a_replayed_duel_has_every_row_the_services_wrote(db, recorded):
    (built, duel), (replayed, again) = built_then_replayed(mustered_duel)
    assert replayed == built
    assert {k: v.pk for k, v in again.items()} == {k: v.pk for k, v in duel.items()}
    assert again["reavers"].warriors.count() == 3


def test_keys_written_again_are_never_handed_out_by_a_sequence_set_back(db, recorded):
    """A restore of a backup sets each sequence to the highest key it finds; the keys of a
    duel written again afterwards must not be handed out to the next account made."""
    point = transaction.savepoint()
    duel = mustered_duel()
    transaction.savepoint_rollback(point)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('auth_user', 'id'), "
            "coalesce((SELECT max(id) FROM auth_user), 0) + 1, false)"
        )
    again = mustered_duel()
    assert again["organiser"].pk == duel["organiser"].pk

    made = UserFactory()

    assert made.pk > max(again[k].owner_id for k in ("reavers", "scourge"))


def test_a_replayed_sequence_goes_on_and_is_undone_as_the_services_own(duel, recorded):
    def played_on():
        sequence, owner = at_step(duel, 6)
        with replays.services_only():
            sequences.undo_last_step(sequence, actor=owner, step=5)
            sequence.refresh_from_db()
            play_to(sequence, 10, owner)
        reavers = duel["reavers"]
        return sequence.current_step, roster_state(reavers), state(reavers)

    (_, built), (_, replayed) = built_then_replayed(played_on)
    assert replayed == built
    assert built[0] == 10


def test_a_database_changed_before_the_call_gets_the_services(duel, recorded):
    captain, *_ = warriors(duel["reavers"])
    point = transaction.savepoint()
    at_step(duel, 3)
    earned = Warrior.objects.get(pk=captain.pk).experience - captain.experience
    transaction.savepoint_rollback(point)
    count = len(recorded)
    Warrior.objects.filter(pk=captain.pk).update(experience=captain.experience + 2)

    at_step(duel, 3)

    assert len(recorded) > count, "replayed over a database the recording never saw"
    assert Warrior.objects.get(pk=captain.pk).experience == captain.experience + 2 + earned


def test_a_call_that_sends_mail_is_never_replayed(duel, recorded):
    @replays.replayable
    def rename_and_tell(warrior_pk: int, name: str):
        Warrior.objects.filter(pk=warrior_pk).update(name=name)
        mail.send_mail("Renamed", name, "league@example.com", ["player@example.com"])

    captain, *_ = warriors(duel["reavers"])
    for _ in range(2):
        point = transaction.savepoint()
        rename_and_tell(captain.pk, "Old Hans")
        transaction.savepoint_rollback(point)

    assert len(mail.outbox) == 2
    assert list(recorded.values()) == [None]


def test_an_argument_that_is_no_row_or_plain_value_runs_the_services(duel, recorded):
    calls = []

    @replays.replayable
    def count(thing):
        calls.append(thing)

    count(object())
    count(object())

    assert len(calls) == 2 and not recorded
