"""Undo against another player's change of the same thing, interleaved step by step rather
than left to chance (the race harness fires them at once: ``tests/race/test_pairs.py``). The
test holds a lock the first change needs next, starts it, starts the undo once the first
waits, and lets both go once the undo waits too: the undo must then read what the first
change did, not what it read before."""

import threading
import time

import pytest
from django.db import OperationalError, connection, transaction

from battles import aftermath as sequences
from battles.captives import fates as captive_fates
from battles.models import Captive, PostBattleSequence
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.helpers import at, backpack_bought_in_step_9
from tests.race.captive_races import empty_chest
from tests.race.undo_pairs import captured_in_step_1
from warbands import treasury
from warbands.models import StorageContainer, Warband

pytestmark = pytest.mark.django_db(transaction=True)


def waiting() -> int:
    """Requests on this test's database waiting for a lock right now (the other worker's
    database is on the same server, and its races wait for locks too). The activity view is
    read once per transaction unless its snapshot is cleared."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def until_waiting(count: int) -> None:
    for _ in range(400):
        if waiting() >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{count} request(s) never waited for a lock")


def in_thread(action, outcomes: dict, key: str) -> threading.Thread:
    def run():
        try:
            action()
            outcomes[key] = "done"
        except RuleViolation as refusal:
            outcomes[key] = f"refused: {refusal}"
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_the_undo_of_a_capture_waits_for_the_slavers_and_is_refused(committed_duel):
    """The captor's sale holds the captive's row and waits for his warband's; the owner's
    undo of the step that took the hero comes while it waits. However long the sale took,
    the undo finds him sold: it is refused, and the hero stays sold."""
    reavers, scourge = committed_duel["reavers"], committed_duel["scourge"]
    sequence, captive = captured_in_step_1(committed_duel)
    chest = empty_chest(scourge)
    outcomes: dict[str, str] = {}

    with transaction.atomic():
        Warband.objects.select_for_update().get(pk=scourge.pk)
        sale = in_thread(
            lambda: captive_fates.decide_fate(
                captive, actor=scourge.owner, fate="sold", into=chest, dice=ScriptedDice([2])
            ),
            outcomes,
            "sale",
        )
        until_waiting(1)
        undo = in_thread(
            lambda: sequences.undo_last_step(sequence, actor=reavers.owner, step=1),
            outcomes,
            "undo",
        )
        until_waiting(2)
    sale.join(30)
    undo.join(30)

    assert outcomes["sale"] == "done"
    assert outcomes["undo"].startswith(
        "refused: Step 1 cannot be undone: Brandt, taken captive in that step, has been sold "
        "to the slavers since."
    )
    captive.refresh_from_db()
    captive.warrior.refresh_from_db()
    assert (captive.status, captive.warrior.status) == ("sold", "dead")
    assert PostBattleSequence.objects.get(pk=sequence.pk).current_step == 2
    assert Captive.objects.filter(pk=captive.pk).exists()
    assert not treasury.conservation_problems()


def test_the_undo_of_a_bought_backpack_locks_the_chest_it_was_paid_from_first(committed_duel):
    """Undo deletes the backpack step 9 bought and gives its price back to the chest; a move
    between the two on the treasury page locks them in primary-key order, chest first. The
    undo must take them in the same order: while it waits for the chest, the backpack is still
    free (taken first, the two would wait on each other and one would fail)."""
    sequence, reavers = at(committed_duel, 9)
    pack = backpack_bought_in_step_9(sequence, reavers)
    chest = reavers.containers.get(kind="treasure_chest")
    assert chest.pk < pack.pk
    outcomes: dict[str, str] = {}

    with transaction.atomic():
        StorageContainer.objects.select_for_update(no_key=True).get(pk=chest.pk)
        undo = in_thread(
            lambda: sequences.undo_last_step(sequence, actor=reavers.owner, step=9),
            outcomes,
            "undo",
        )
        until_waiting(1)
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                sql = "SELECT id FROM warbands_storagecontainer WHERE id = %s FOR UPDATE NOWAIT"
                cursor.execute(sql, [pack.pk])
                pack_free = True
        except OperationalError:
            pack_free = False
    undo.join(30)

    assert pack_free, "the undo locked the backpack before the chest"
    assert outcomes["undo"] == "done"
    assert not reavers.containers.filter(pk=pack.pk, status="held").exists()
    assert not treasury.conservation_problems()
