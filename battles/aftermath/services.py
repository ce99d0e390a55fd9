"""What the pages call to play the post-battle sequence: get a step ready, roll a task,
act, complete a step, undo one, and the reads of the sequence page and the dashboard
(reopening a step, an organiser's, is ``reopening``).

Every function that changes anything locks the sequence row (``engine.lock_sequence``),
checks that the posted step is still the current one (a repeated or concurrent post of a
finished step changes nothing and says so) and applies its roster and ledger changes in one
transaction, through the step's ``Journal`` so that undo can restore them exactly.

A step may hold tasks (``SequenceTask``): rolls that may stop to ask the player something.
Their dice are kept, so a task answered later replays the same faces (``ReplayDice``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.postgres.aggregates import StringAgg
from django.db import transaction
from django.db.models import Case, OuterRef, Subquery, TextField, When
from django.utils import timezone

from battles.aftermath import task_dice
from battles.aftermath.engine import changed, lock_sequence, step_context
from battles.aftermath.registry import handler
from battles.aftermath.reopening import explain
from battles.aftermath.undoing import ReversalRefused, ledger_entries, undo_step
from battles.dice import holding_rolls
from battles.models import (
    Battle,
    DiceRoll,
    PostBattleSequence,
    SequenceTask,
    StepAction,
    StepRecord,
)
from battles.rules.tasks import NeedsAnswer
from core.dice import MoreDice, ReplayDice
from core.errors import RuleViolation
from warbands import treasury

# --- Reads for the pages -------------------------------------------------------------------

_UNREAD = object()


def live_records(sequence: PostBattleSequence):
    """The sequence's live step records for the page, with the summary of each step done
    (``summary``: its actions' lines, oldest first). The current step's is not read: the page
    shows only done steps' summaries, and a long step has many actions."""
    lines = (
        StepAction.objects.filter(record=OuterRef("pk"))
        .exclude(summary="")
        .order_by()
        .values("record")
        .annotate(text=StringAgg("summary", "\n", order_by="pk"))
        .values("text")
    )
    return StepRecord.objects.filter(sequence=sequence, undone_at__isnull=True).annotate(
        summary=Case(
            When(step__lt=sequence.current_step, then=Subquery(lines)),
            default=None,
            output_field=TextField(),
        )
    )


def started(sequence: PostBattleSequence, record=_UNREAD) -> bool:
    """The current step has changed something (or rolled a die) already. ``record``: its live
    record from ``live_records`` (or None: it has none), when the caller has read it."""
    if record is _UNREAD:
        record = live_records(sequence).filter(step=sequence.current_step).first()
    if record is not None and record.changes:
        return True
    if not handler(sequence.current_step).rolls:
        return False
    return sequence.tasks.filter(step=sequence.current_step, void=False).exclude(faces=[]).exists()


def waiting_for(user):
    """Sequences the user should play: their own warbands', not complete."""
    return (
        PostBattleSequence.objects.filter(
            participant__warband__owner=user,
            completed_at__isnull=True,
            participant__battle__status=Battle.Status.CONFIRMED,
        )
        .select_related("participant__battle", "participant__warband")
        .order_by("participant__battle__fought_on")
    )


# --- Changes -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What a change (``run_task``, ``act``, ``complete_step``) left, for its page to draw
    without reading it again: ``sequence``, the row as the change left it (read under its lock,
    with the caller's participant, battle and warband); ``record``, the current step's live
    record with the action's changes counted (``act``; None when the change did not tell it);
    ``task``, the task as rolled (``run_task``: done, or asking ``question``); ``summary``,
    what the action says it did (``act``)."""

    sequence: PostBattleSequence
    record: StepRecord | None = None
    task: SequenceTask | None = None
    summary: str = ""


def prepare(sequence: PostBattleSequence) -> None:
    """List the current step's rolls (nothing on the roster changes), as the step becomes
    current: completing the step before, undoing the step after, reopening it. Under the
    sequence's row lock; a page only draws what is listed."""
    if not sequence.is_complete:
        handler(sequence.current_step).prepare(sequence)


@transaction.atomic
def run_task(sequence, task: SequenceTask, *, actor, step: int, dice, answers=None) -> Outcome:
    """Roll (or go on rolling, with the player's answers) for one task of the current step."""
    caller, sequence = sequence, lock_sequence(sequence, actor, step=step)
    task = (
        SequenceTask.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior__warrior_type")
        .get(pk=task.pk, sequence=sequence)
    )
    if task.step != sequence.current_step or task.void:
        raise RuleViolation("That roll belongs to another step.")
    if task.done:
        raise RuleViolation(f"{task.label}: already rolled, nothing changed.")
    if answers:
        task.answers = {**task.answers, **{k: str(v) for k, v in answers.items()}}
    dice = task_dice.live_dice(sequence, task, dice)  # typed: exactly the dice asked for
    ctx = step_context(sequence, actor)
    replay = ReplayDice(task.faces, dice)
    battle = sequence.participant.battle
    asked_before = bool(task.question)
    rolled: list[DiceRoll] = []  # this task's new rolls, held unsaved until they decided
    try:
        with (
            transaction.atomic(savepoint=handler(task.step).asks),
            treasury.noting_entries(ctx.journal.written),
            holding_rolls(rolled),
        ):
            summary = handler(task.step).run_task(ctx, task, replay)
            task_dice.check_all_rolled(task, dice)
    except (NeedsAnswer, MoreDice) as needs:
        # Nothing happened (the inner block rolled back) but the dice: log them, waiting for
        # the answer (or the further roll typed), and keep their faces for the replay.
        _log_rolls(rolled, _waiting(task))
        task.faces = replay.faces
        task.question = task_dice.question(needs, dice)
        task.save(update_fields=["faces", "answers", "question"])
        _catch_up(caller, sequence)
        return Outcome(sequence, task=task)
    # The rolls of this task, the ones made before a question included, say what they decided.
    result = f"{task.label}: {summary}"[:300]
    if asked_before:
        battle.dice_rolls.filter(result=_waiting(task)).update(result=result)
    task.faces = replay.faces
    task.question = None
    task.done = True
    task.summary = summary[:500]
    task.save(update_fields=["faces", "answers", "question", "result", "summary", "done"])
    _log_rolls(rolled, result)
    ctx.journal.save()
    _catch_up(caller, sequence)
    return Outcome(sequence, task=task)


def _catch_up(caller: PostBattleSequence, locked: PostBattleSequence) -> None:
    """The caller's copy of the sequence takes the fields the change moved (step, state,
    completion), so that a caller playing on with it (the demo, the tests) posts the step
    that is current now. The page draws ``Outcome.sequence`` instead."""
    caller.current_step = locked.current_step
    caller.state = locked.state
    caller.completed_at = locked.completed_at


def _log_rolls(rolls: list[DiceRoll], result: str) -> None:
    """Write a task's rolls to the dice log, each saying what it decided (one insert)."""
    for roll in rolls:
        roll.result = result
    if len(rolls) == 1:
        rolls[0].save()  # cheaper for Django to build than a bulk insert of one
    elif rolls:
        DiceRoll.objects.bulk_create(rolls)


def _waiting(task: SequenceTask) -> str:
    return f"{task.label}: waiting for an answer (task {task.pk})"[:300]


@transaction.atomic
def act(
    sequence, *, actor, step: int, action: str, values: dict | None = None, dice=None
) -> Outcome:
    """An action of the current step other than a task (award the experience, sell …), with
    the values its form cleaned (``battles.aftermath.forms.clean_action``)."""
    caller, sequence = sequence, lock_sequence(sequence, actor, step=step)
    ctx = step_context(sequence, actor)
    with treasury.noting_entries(ctx.journal.written):
        summary = handler(step).act(ctx, action, values or {}, dice)
    ctx.journal.summary = summary or ""
    ctx.journal.save()
    _catch_up(caller, sequence)
    return Outcome(sequence, record=ctx.record, summary=summary or "")


@transaction.atomic
def complete_step(sequence, *, actor, step: int, values: dict | None = None) -> Outcome:
    """Finish the current step and move to the next (``values``: its completion form's)."""
    caller, sequence = sequence, lock_sequence(sequence, actor, step=step)
    changed(sequence, step=step, league=True)  # the dashboards name the step it is at
    step_handler = handler(step)
    tasks = []
    if step_handler.rolls:  # the others' prepare lists no rolls: nothing to read or make
        live = sequence.tasks.filter(step=step, void=False)
        tasks = list(live)
        if not tasks:  # reached before its rolls were listed as it became current
            step_handler.prepare(sequence)
            tasks = list(live.all())
    blockers = step_handler.blockers(sequence, tasks)
    if blockers:
        raise RuleViolation(" ".join(blockers))
    ctx = step_context(sequence, actor)
    with treasury.noting_entries(ctx.journal.written):
        summary = step_handler.complete(ctx, values or {})
    tasks = [t.summary for t in tasks if t.done and t.summary]
    ctx.journal.summary = "\n".join(filter(None, [*tasks, summary]))
    sequence.current_step = step + 1
    if sequence.current_step == PostBattleSequence.COMPLETE:
        sequence.completed_at = timezone.now()
    sequence.save(update_fields=["current_step", "completed_at"])
    ctx.journal.save(completed_by=actor)
    prepare(sequence)
    _catch_up(caller, sequence)
    return Outcome(sequence)


@transaction.atomic
def undo_last_step(sequence, *, actor, step: int | None = None) -> PostBattleSequence:
    """The owner takes back the last completed step while the next one has not started:
    everything it changed is restored (ledger entries reversed by new entries). ``step`` is
    the step the player saw as the last one: a second tab undoing it again changes nothing."""
    sequence = lock_sequence(sequence, actor)
    if step is not None and step != sequence.current_step - 1:
        raise RuleViolation(f"Step {step} is not the last step done any more: nothing changed.")
    if sequence.current_step == 0 or (
        sequence.current_step == 1
        and not sequence.records.filter(step=0, undone_at__isnull=True).exists()
    ):
        raise RuleViolation("There is no step to undo.")
    if not sequence.is_complete and started(sequence):
        raise RuleViolation(
            f"Step {sequence.current_step} has started: only an organiser can reopen earlier steps."
        )
    last = sequence.current_step - 1
    if last == 0:
        raise RuleViolation("Step 0 is shared by the battle: ask an organiser to reopen it.")
    changed(sequence, step=last, league=True)
    try:
        with transaction.atomic():  # undone as a whole, or not at all, before explaining
            undo_step(sequence, last, actor=actor, reason="")
    except ReversalRefused as refused:
        records = StepRecord.objects.filter(sequence=sequence, step=last, undone_at__isnull=True)
        raise explain(refused, sequence, actor=actor, undone=ledger_entries(records)) from refused
    # The step that was current has not started: its empty record goes too, and its rolls,
    # listed from the roster as it was, are listed again when it is reached again.
    StepRecord.objects.filter(sequence=sequence, step=last + 1, undone_at__isnull=True).delete()
    if last + 1 < PostBattleSequence.COMPLETE and handler(last + 1).rolls:
        sequence.tasks.filter(step=last + 1, void=False).update(void=True)
    sequence.current_step = last
    sequence.completed_at = None
    sequence.save(update_fields=["current_step", "completed_at"])
    prepare(sequence)
    return sequence
