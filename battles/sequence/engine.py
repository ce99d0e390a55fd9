"""The engine of the post-battle sequence: who may play it, the locked row each change starts
from, the check that the posted step is still the current one, and the ``Step`` every step of
the sequence is built on, with the ``Context`` its actions run in.

Every change to a sequence locks its row (``lock_sequence``) and checks that the posted step
is still the current one, so a repeated or concurrent post of a finished step changes nothing
and says so; the step then changes the roster through its ``Journal`` so that undo restores it
exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects

from battles.models import Battle, Participant, PostBattleSequence, SequenceTask, StepRecord
from battles.permissions import acts_for_players
from battles.sequence.journal import Journal
from warbands import treasury
from warbands.rules import RuleViolation

STEP_NAMES = dict(PostBattleSequence.STEPS)
# Mayhem in Mordheim's secret treasury: these steps show or move it.
TREASURY_STEPS = range(3, 11)


# --- Access --------------------------------------------------------------------------------


def may_act(user, sequence: PostBattleSequence, step: int | None = None) -> bool:
    """The warband's owner plays its sequence. An organiser may act for him in the steps that
    reveal nothing secret (carried items, injuries, experience), in a battle he did not fight
    in (``battles.permissions.acts_for_players``); the treasury steps (3 to 10) are the
    owner's alone, since only he moves his treasure (``can_edit_warband``). A step undone
    before (reopened by an organiser, or undone by its player) is played again by the player
    himself: an organiser who could reopen a step and roll it again for him could roll until
    a hero died.
    """
    warband = sequence.participant.warband
    battle = sequence.participant.battle
    if not battle.campaign.is_open:
        return False
    if warband.owner_id == user.pk:
        return True
    if not acts_for_players(user, battle):
        return False
    step = sequence.current_step if step is None else step
    if step in TREASURY_STEPS:
        return False
    again = StepRecord.objects.filter(sequence=sequence, step=step, undone_at__isnull=False)
    return not again.exists()


def lock_sequence(
    sequence: PostBattleSequence, actor, *, step: int | None = None
) -> PostBattleSequence:
    """The sequence row, locked (``select_for_update``) and read afresh: where it is (step,
    state, completion) is what two tabs must not take from an old copy. Its participant,
    battle, campaign and warband are the ones the caller loaded, when it did (step 2, which
    writes the participant's experience tally, re-reads that under this lock); else they are
    read, in one query, and the caller's copy keeps them for its next call
    (``prefetch_related_objects`` reads only what is not loaded yet). ``step``: the step the
    form was posted for, which must be the current one."""
    try:
        locked = PostBattleSequence.objects.select_for_update(no_key=True).get(pk=sequence.pk)
    except PostBattleSequence.DoesNotExist:
        raise PostBattleSequence.DoesNotExist("No such sequence.") from None
    participants = Participant.objects.select_related(
        "battle__campaign", "warband__warband_type", "warband__owner", "warband__campaign"
    )
    prefetch_related_objects([sequence], Prefetch("participant", queryset=participants))
    locked.participant = sequence.participant
    return _checked(locked, actor, step)


def _checked(sequence: PostBattleSequence, actor, step: int | None) -> PostBattleSequence:
    """The actor may play the locked ``sequence`` and the form's ``step`` is its current one."""
    if not may_act(actor, sequence):
        raise PermissionDenied(
            "Only the warband's owner plays this step. An organiser plays steps 0 to 2 for him, "
            "in a battle the organiser did not fight in, unless the step was undone before."
        )
    if step is not None and step not in STEP_NAMES:
        raise RuleViolation("The form is out of date: reload the page.")
    if step is not None and sequence.current_step != step:
        if sequence.current_step > step:
            raise RuleViolation(
                f"Step {step} ({STEP_NAMES[step]}) is already done: nothing changed."
            )
        raise RuleViolation(f"Step {step} is not open yet.")
    return sequence


# --- The context of an action --------------------------------------------------------------


def open_record(sequence: PostBattleSequence) -> StepRecord:
    """The current step's record as one action adds to it (unsaved): ``Journal.save`` adds
    the action's changes to the live record, or creates it on the step's first action."""
    return StepRecord(sequence=sequence, step=sequence.current_step)


@dataclass(frozen=True)
class Context:
    """What one action of a step works with: the locked sequence, the step's record and the
    journal its changes go through, and who acts."""

    sequence: PostBattleSequence
    record: StepRecord
    journal: Journal
    actor: object

    @property
    def warband(self):
        return self.sequence.participant.warband

    @property
    def battle(self) -> Battle:
        return self.sequence.participant.battle

    def treasury_context(self, note: str = "") -> treasury.Context:
        """Each ledger entry of the step names the battle and the step (``warbands.treasury``)."""
        return treasury.Context(
            actor=self.actor, step=self.sequence.current_step, battle=self.battle, note=note,
            in_step=True,
        )  # fmt: skip


def step_context(sequence: PostBattleSequence, actor) -> Context:
    """A fresh context for one action of the current step of the locked ``sequence``."""
    record = open_record(sequence)
    return Context(sequence, record, Journal(record), actor)


# --- Steps ---------------------------------------------------------------------------------


class Step:
    """One step of the sequence. ``prepare`` runs when the page is shown (no changes to the
    roster); ``act`` applies an action the player posted; ``complete`` ends the step."""

    number: int
    # It may hold rolls to make (tasks): listed by its ``prepare`` or added by its actions
    # and rolls (an advance due). The other steps never have any, so nobody reads them.
    rolls = False
    # Its rolls may stop to ask the player (``NeedsAnswer``) after changing something: the
    # task runs in a savepoint that the question rolls back. Steps that never ask say so.
    asks = True

    def prepare(self, sequence: PostBattleSequence) -> None:
        return None

    def page_context(self, sequence: PostBattleSequence, user) -> dict:
        """What the step's template shows besides its tasks."""
        return {}

    def blockers(self, sequence: PostBattleSequence, tasks=None) -> list[str]:
        """Why the step cannot be completed yet (empty: it can). ``tasks``: the step's live
        tasks, when the caller has read them already."""
        if tasks is None:
            tasks = sequence.tasks.filter(step=self.number, void=False, done=False)
        return [f"Roll for {task.label} first." for task in tasks if not task.done]

    def act(self, ctx: Context, action: str, values: dict, dice) -> str:
        """Apply ``action`` with its cleaned ``values`` (``battles.step_forms``)."""
        raise RuleViolation("Nothing to do here.")

    def run_task(self, ctx: Context, task: SequenceTask, dice) -> str:
        raise RuleViolation("Nothing to roll here.")

    def complete(self, ctx: Context, values: dict) -> str:
        return ""


def list_rolls(sequence: PostBattleSequence, step: int, tasks: list[SequenceTask]) -> None:
    """List ``tasks``, the rolls ``step`` makes when its page is first drawn, unless they are
    listed already. Read under the sequence's row lock (the step still current, no rolls of it
    yet), so that pages drawn at once (two tabs, the player's and an organiser's, stale posts
    answered with the page) list them once. The caller checked without the lock first, which
    every later page finds listed: only a step's first page takes the lock."""
    with transaction.atomic(savepoint=False):  # no savepoint inside a request's own
        locked = PostBattleSequence.objects.select_for_update(no_key=True).filter(pk=sequence.pk)
        if list(locked.values_list("current_step", flat=True)) != [step]:
            return  # moved on meanwhile, by another tab
        if sequence.tasks.filter(step=step, void=False).exists():
            return
        SequenceTask.objects.bulk_create(tasks)
