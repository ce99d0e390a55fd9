"""Data migrations checked on rows written at their older schema, in one journey back and forth.

- battles 0008: each step record's journal and summary become its actions, and back. Played
  steps are folded back into their records (0008 reversed), checked column by column, and
  migrated forward again: every record then has one action with the same journal and lines,
  and undo still reads the same changes in the same order.
- warbands 0033: corrections made before requests existed stand as applied, and an item such
  a correction added, still carried by the warrior it was given to, is marked as the
  correction's (it then fetches nothing when sold); a bought item of the same name is not.

Going back to battles 0007 unapplies every warbands migration from 0020 on (they depend on
later battles migrations), 0033 among them: one journey serves both. It goes back once, reads
the folded records there, goes forward, writes the old-style correction as soon as warbands
0032 is applied again (the executor's progress callback), and goes on to the latest
migrations. Each migration of the journey costs seconds (Django renders the project's models
for it), so it is made once for the module; each test asserts its own part of what it saw.
"""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles import aftermath as sequences
from battles.models import StepRecord
from tests.helpers import at, mustered_duel, warriors
from warbands.models import Correction, Item, WarriorItem

pytestmark = pytest.mark.django_db(transaction=True)

STEP_RECORDS_FOLDED = ("battles", "0007_orderings_without_joins")
BEFORE_CORRECTION_REQUESTS = ("warbands", "0032_item_trading_terms")


def played(sequence) -> dict:
    """Each live record: its changes, its journal and the summary the page shows."""
    sequence.refresh_progress()
    summaries = {r.pk: r.summary for r in sequences.live_records(sequence)}
    return {
        r.pk: (r.changes, r.journal(), summaries[r.pk] or "")
        for r in StepRecord.objects.filter(sequence=sequence).order_by("pk")
    }


def folded_records(sequence) -> dict:
    """At battles 0007: each record's own journal and summary columns."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, journal, summary FROM battles_steprecord WHERE sequence_id = %s",
            [sequence.pk],
        )
        return {pk: (json.loads(journal), summary) for pk, journal, summary in cursor}


def old_correction(duel, champion, halberd) -> dict:
    """At warbands 0032: a halberd given by a correction of the time (no status, no item)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO warbands_warrioritem (warrior_id, item_id, price_paid) "
            "VALUES (%s, %s, 0) RETURNING id",
            [champion.pk, halberd.pk],
        )
        given = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO warbands_correction (warband_id, warrior_id, warrior_name, actor_id,"
            " kind, what, old_value, new_value, reason, created_at) VALUES (%s, %s, 'Brandt',"
            " %s, 'item_added', 'Equipment', '', 'Halberd', 'Old ruling', now()) RETURNING id",
            [duel["reavers"].pk, champion.pk, duel["organiser"].pk],
        )
        return {"given": given, "correction": cursor.fetchone()[0]}


def journey(at_folded, after_correction_schema) -> None:
    """Back to battles 0007, where ``at_folded()`` runs; then forward to the latest migration of
    every app, running ``after_correction_schema()`` once warbands 0032 is applied again."""

    def applied(action, migration=None, fake=False):
        if (
            action == "apply_success"
            and (migration.app_label, migration.name) == BEFORE_CORRECTION_REQUESTS
        ):
            after_correction_schema()

    try:
        MigrationExecutor(connection).migrate([STEP_RECORDS_FOLDED])
        at_folded()
    finally:
        executor = MigrationExecutor(connection, progress_callback=applied)
        executor.migrate(executor.loader.graph.leaf_nodes())
        connection.close()  # no cached plans of the old columns


@pytest.fixture(scope="module")
def seen() -> dict:
    """What each test checks, filled by the first test of the module to ask (``travelled``)."""
    return {}


@pytest.fixture
def travelled(seen, reference_data) -> dict:
    """The rows of both migrations, written at the latest schema and at their older ones, and
    what the journey saw of them: made by the first test, read by both (each test's flush
    empties the tables; the module keeps only what the journey saw, and only once it
    finished)."""
    if seen:
        return seen
    out = {}
    battle = mustered_duel()
    sequence, _ = at(battle, 5)  # steps 0 to 4 played through the services
    out["before"] = played(sequence)
    out["several"] = [
        pk for pk in out["before"] if StepRecord.objects.get(pk=pk).actions.count() > 1
    ]
    duel = mustered_duel()
    champion = warriors(duel["reavers"])[1]
    out["halberd"] = halberd = Item.objects.get(key="halberd")
    bought = WarriorItem.objects.create(warrior=champion, item=halberd, price_paid=10)

    def at_folded():
        out["folded"] = folded_records(sequence)

    journey(at_folded, lambda: out.update(old_correction(duel, champion, halberd)))

    out["after"] = played(sequence)
    out["actions"] = {
        pk: list(StepRecord.objects.get(pk=pk).actions.values_list("journal", "summary"))
        for pk in out["before"]
    }
    out["old"] = old = Correction.objects.get(pk=out["correction"])
    out["old_status_item"] = (old.status, old.item)
    given = WarriorItem.objects.get(pk=out["given"])
    out["given_correction"], out["given_sale_price"] = given.correction, given.sale_price
    out["bought_correction"] = WarriorItem.objects.get(pk=bought.pk).correction
    seen.update(out)
    return seen


def test_the_migration_keeps_every_steps_journal_and_summary_in_order(travelled):
    before = travelled["before"]
    assert sum(1 for changes, _, _ in before.values() if changes) >= 2
    assert travelled["several"]  # a step of several actions, folded in their order

    folded = travelled["folded"]
    assert folded == {pk: (journal, summary) for pk, (_, journal, summary) in before.items()}
    assert travelled["after"] == before
    for pk, (_, journal, summary) in before.items():
        actions = travelled["actions"][pk]
        assert actions == ([(journal, summary)] if journal or summary else [])


def test_items_that_corrections_added_are_marked_as_theirs(travelled):
    assert travelled["old_status_item"] == (Correction.Status.APPLIED, travelled["halberd"])
    assert travelled["given_correction"] == travelled["old"]
    assert travelled["bought_correction"] is None
    assert travelled["given_sale_price"] == 0
