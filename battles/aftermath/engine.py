"""The engine of the post-battle sequence: who may play it, the locked row each change starts
from, the check that the posted step is still the current one, and the ``Step`` every step of
the sequence is built on, with the ``Context`` its actions run in.

Every change to a sequence locks its row (``lock_sequence``) and checks that the posted step
is still the current one, so a repeated or concurrent post of a finished step changes nothing
and says so; the step then changes the roster through its ``Journal`` so that undo restores it
exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects

from battles.aftermath.journal import Journal
from battles.aftermath.permissions import check_acts
from battles.models import Battle, Participant, PostBattleSequence, SequenceTask, StepRecord
from campaign import cache
from core.errors import RuleViolation
from warbands import treasury

STEP_NAMES = dict(PostBattleSequence.STEPS)
# The steps whose actions change what the campaign's pages show (who fights, and their
# experience: the league table's rating and XP columns), and those that change the other
# warbands of the battle too (what is carried off, who is taken captive).
LEAGUE_STEPS = frozenset({1, 2, 5, 7, 8})
BATTLE_WIDE_STEPS = frozenset({0, 1})


# --- Access --------------------------------------------------------------------------------


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
    changed(locked, step=locked.current_step)
    return _checked(locked, actor, step)


def changed(sequence: PostBattleSequence, *, step: int, league: bool = False) -> None:
    """Tell the cache what a change to ``sequence`` at ``step`` makes stale: the battle (its
    board and sequences' panels), the warband (the battle's warbands for the steps that reach
    them) and, for the steps that change what the league shows or with ``league`` (the step a
    dashboard names moved), the campaign."""
    participant = sequence.participant
    battle = participant.battle
    warbands = (
        battle.participants.values_list("warband_id", flat=True)
        if step in BATTLE_WIDE_STEPS
        else participant.warband_id
    )
    campaign = battle.campaign_id if league or step in LEAGUE_STEPS else None
    cache.changed(campaign=campaign, battle=battle, warband=warbands)


def _checked(sequence: PostBattleSequence, actor, step: int | None) -> PostBattleSequence:
    """The actor may play the locked ``sequence`` and the form's ``step`` is its current one."""
    check_acts(actor, sequence)
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


def action(method: Callable) -> Callable:
    """Mark a step's method ``(self, ctx, values, dice) -> summary`` as one of the actions the
    player posts, under the method's name (``Step.handlers``). The form that reads its post is
    the forms' to say, keyed by this method (``battles.aftermath.forms.ACTION_FORMS``)."""
    method.is_action = True
    return method


class Step:
    """One step of the sequence. ``prepare`` lists the step's rolls as it becomes the current
    one (no changes to the roster; drawing its page never writes); ``act`` applies an action
    the player posted (one of its ``handlers``); ``complete`` ends the step."""

    number: int
    # It may hold rolls to make (tasks): ``planned`` as it becomes current, or added by its
    # actions and rolls (an advance due). The other steps never have any, so nobody reads them.
    rolls = False
    # Its rolls may stop to ask the player (``NeedsAnswer``) after changing something: the
    # task runs in a savepoint that the question rolls back. Steps that never ask say so.
    asks = True
    # Its actions by name: its methods marked ``@action``, its own and those it inherits.
    handlers: dict[str, Callable] = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.handlers = {
            name: method
            for name in dir(cls)
            if getattr(method := getattr(cls, name), "is_action", False)
        }

    def prepare(self, sequence: PostBattleSequence) -> None:
        """List the rolls ``planned`` for the step, once (``list_rolls``)."""
        if self.rolls and not sequence.tasks.filter(step=self.number, void=False).exists():
            tasks = self.planned(sequence)
            if tasks:
                list_rolls(sequence, self.number, tasks)

    def planned(self, sequence: PostBattleSequence) -> list[SequenceTask]:
        """The rolls the step makes, read from the battle and the roster, unsaved."""
        return []

    def page_context(self, sequence: PostBattleSequence, user, posts=None) -> dict:
        """What the step's template shows besides its tasks. ``posts``: where the forms of the
        treasury's board post, in a step that draws it (``battles.aftermath.forms.board_posts``)."""
        return {}

    def blockers(self, sequence: PostBattleSequence, tasks=None) -> list[str]:
        """Why the step cannot be completed yet (empty: it can). ``tasks``: the step's live
        tasks, when the caller has read them already."""
        if tasks is None:
            tasks = sequence.tasks.filter(step=self.number, void=False, done=False)
        return [f"Roll for {task.label} first." for task in tasks if not task.done]

    def act(self, ctx: Context, action: str, values: dict, dice) -> str:
        """Apply ``action``, one of the step's ``handlers``, with its cleaned ``values``
        (``battles.aftermath.forms.clean_action``)."""
        handler = self.handlers.get(action)
        if handler is None:
            raise RuleViolation(self.no_such_action())
        return handler(self, ctx, values, dice)

    def no_such_action(self) -> str:
        """The refusal of an action the step does not have."""
        name = STEP_NAMES[self.number]
        return f"Nothing to do here: step {self.number} ({name}) has no such action."

    def run_task(self, ctx: Context, task: SequenceTask, dice) -> str:
        raise RuleViolation("Nothing to roll here.")

    def complete(self, ctx: Context, values: dict) -> str:
        return ""


def list_rolls(sequence: PostBattleSequence, step: int, tasks: list[SequenceTask]) -> None:
    """List ``tasks``, the rolls ``step`` makes as it becomes current, unless they are listed
    already. Read under the sequence's row lock (the step still current, no rolls of it yet),
    so that two posts at once list them once."""
    with transaction.atomic(savepoint=False):  # no savepoint inside a request's own
        locked = PostBattleSequence.objects.select_for_update(no_key=True).filter(pk=sequence.pk)
        if list(locked.values_list("current_step", flat=True)) != [step]:
            return  # moved on meanwhile, by another tab
        if sequence.tasks.filter(step=step, void=False).exists():
            return
        SequenceTask.objects.bulk_create(tasks)
