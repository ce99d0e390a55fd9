"""Migration battles 0008: each step record's journal and summary become its actions, and back.

Played steps are folded back into their records (0008 reversed), checked column by column, and
migrated forward again: every record then has one action with the same journal and lines, and
undo still reads the same changes in the same order."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles import aftermath as sequences
from battles.models import StepRecord
from tests.helpers import at

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("battles", "0007_orderings_without_joins")


def migrate(target=None) -> None:
    """To ``target``, or forward to the latest migration of every app (0008 and whatever
    came after it, in battles and in the apps whose migrations depend on them, which going
    back to 0007 undid too)."""
    executor = MigrationExecutor(connection)
    executor.migrate([target] if target else executor.loader.graph.leaf_nodes())
    connection.close()  # no cached plans of the old columns


def played(sequence) -> dict:
    """Each live record: its changes, its journal and the summary the page shows."""
    sequence.refresh_progress()
    summaries = {r.pk: r.summary for r in sequences.live_records(sequence)}
    return {
        r.pk: (r.changes, r.journal(), summaries[r.pk] or "")
        for r in StepRecord.objects.filter(sequence=sequence).order_by("pk")
    }


def test_the_migration_keeps_every_steps_journal_and_summary_in_order(committed_duel):
    sequence, _ = at(committed_duel, 5)  # steps 0 to 4 played through the services
    before = played(sequence)
    assert sum(1 for changes, _, _ in before.values() if changes) >= 2
    several = [pk for pk in before if StepRecord.objects.get(pk=pk).actions.count() > 1]
    assert several  # a step of several actions, folded in their order

    try:
        migrate(BEFORE)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, journal, summary FROM battles_steprecord WHERE sequence_id = %s",
                [sequence.pk],
            )
            folded = {pk: (json.loads(journal), summary) for pk, journal, summary in cursor}
    finally:
        migrate()

    assert folded == {pk: (journal, summary) for pk, (_, journal, summary) in before.items()}
    assert played(sequence) == before
    for pk, (_, journal, summary) in before.items():
        actions = list(StepRecord.objects.get(pk=pk).actions.values_list("journal", "summary"))
        assert actions == ([(journal, summary)] if journal or summary else [])
