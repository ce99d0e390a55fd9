"""Two tabs posting the same post-battle step at once, on real PostgreSQL: it applies once."""

import pytest

from battles import aftermath as sequences
from battles.aftermath import forms as step_forms
from battles.aftermath.journal import Journal
from battles.models import PostBattleSequence, StepRecord
from core.dice import ScriptedDice
from tests.helpers import at, run_together
from warbands import treasury
from warbands.models import LedgerEntry

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_tabs_finishing_the_same_step_apply_it_once(committed_duel):
    sequence, reavers = at(committed_duel, 5)

    outcomes = run_together(
        lambda: sequences.complete_step(sequence, actor=reavers.owner, step=5),
        lambda: sequences.complete_step(sequence, actor=reavers.owner, step=5),
    )

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    assert PostBattleSequence.objects.get(pk=sequence.pk).current_step == 6
    assert StepRecord.objects.filter(sequence=sequence, step=5).count() == 1


def test_two_tabs_selling_wyrdstone_sell_once(committed_duel):
    sequence, reavers = at(committed_duel, 4)  # exploring stored 2 shards in the chest

    def sell():
        values = step_forms.clean_action(4, "sell", {"shards": "2", "into": "pile"},
                                         warband=reavers)  # fmt: skip
        sequences.act(sequence, actor=reavers.owner, step=4, action="sell",
                      values=values, dice=ScriptedDice([]))  # fmt: skip

    outcomes = run_together(sell, sell)

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    assert LedgerEntry.objects.filter(reason="sale", kind="gold").count() == 1
    assert treasury.totals(reavers)["wyrdstone"] == 0
    assert not treasury.ledger_mismatches()


def test_two_tabs_rolling_the_exploration_roll_once(committed_duel):
    sequence, reavers = at(committed_duel, 3)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=3, kind="exploration")

    def explore():
        sequences.run_task(sequence, task, actor=reavers.owner, step=3,
                           dice=ScriptedDice([1, 2, 4]))  # fmt: skip

    outcomes = run_together(explore, explore)

    assert sorted(o.split(":")[0] for o in outcomes) == ["done", "refused"]
    assert treasury.loose_pile(reavers).wyrdstone == 2


def test_a_steps_journal_holds_only_the_ledger_entries_the_step_wrote(committed_duel):
    """Undo reverses exactly the step's own entries, though another warband's request writes
    to the ledger between two of the step's actions (no "every entry since" guess)."""

    sequence, reavers = at(committed_duel, 4)
    record = StepRecord(sequence=sequence, step=4)
    journal = Journal(record)
    own = reavers.containers.get(kind="treasure_chest")
    theirs = committed_duel["scourge"].containers.get(kind="treasure_chest")
    with treasury.noting_entries(journal.written):
        treasury.add_treasure(own, gold=-1, reason=LedgerEntry.Reason.PURCHASE)
    treasury.add_treasure(theirs, gold=-1, reason=LedgerEntry.Reason.PURCHASE)  # meanwhile
    with treasury.noting_entries(journal.written):
        treasury.add_treasure(own, gold=1, reason=LedgerEntry.Reason.INCOME)
    journal.note_ledger()

    noted = [pk for op in journal.ops if op["op"] == "ledger" for pk in op["pks"]]
    assert len(noted) == 2
    assert set(LedgerEntry.objects.filter(pk__in=noted).values_list("warband", flat=True)) == {
        reavers.pk
    }
