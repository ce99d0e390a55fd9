"""Reopening a step of the post-battle sequence: what depends on it, and undoing that first.

An organiser reopens an earlier step when the table and the app disagree. Every later step
was played on top of it, so they are undone first, latest first, then the step itself, in
one transaction under the sequence's row lock (``reopen_step``). The organiser sees that list
before anything happens: a reopening that would undo later steps is worked out in full, then
rolled back, and answered with ``ConfirmReopening`` naming them; the post that confirms it
does it (and is refused, changing nothing, if the sequence moved on meanwhile).

Undoing a step reverses its ledger entries with new ones, which the treasury refuses once the
treasure has moved on outside this sequence: gold spent or moved on the owner's treasury page,
a later battle's sequence, a container captured. Those cannot be undone from here, so the
refusal (``ReopenRefused``) names each of them, latest first, with what must happen first,
to whoever may see the warband's treasury; anyone else learns only that later treasury
changes depend on the step (``undoing.REOPEN_REFUSED``) and who can take them back.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import dateformat, timezone

from battles.aftermath.engine import STEP_NAMES, changed
from battles.aftermath.permissions import TREASURY_STEPS, check_reopens
from battles.aftermath.registry import handler
from battles.aftermath.undoing import REOPEN_REFUSED, ReversalRefused, ledger_entries, undo_step
from battles.models import PostBattleSequence, StepAction, StepRecord
from core.errors import RuleViolation
from warbands.models import LedgerEntry
from warbands.permissions import can_see_treasury

LISTED = 5  # later changes named in a refusal; the rest are counted


@dataclass(frozen=True)
class LaterStep:
    """A step that reopening an earlier one undoes. ``summary``: what it did, for those who
    may see it (empty for a treasury step the viewer may not see inside)."""

    number: int
    name: str
    summary: str = ""


class ConfirmReopening(Exception):
    """Reopening ``step`` undoes ``later`` steps too (latest first): the organiser confirms
    first. Raised once the whole reopening was tried and rolled back, so nothing that stands
    in the way is found only after the confirmation."""

    def __init__(self, step: int, later: list[LaterStep]) -> None:
        super().__init__(f"Reopening step {step} undoes {len(later)} later step(s) first.")
        self.step, self.name, self.later = step, STEP_NAMES[step], later


class ReopenRefused(RuleViolation):
    """A step cannot be undone yet. ``headline``: why; ``blockers``: the later changes that
    stand in the way, latest first; ``advice``: what to do about them."""

    def __init__(self, headline: str, blockers=(), advice: str = "") -> None:
        self.headline, self.blockers, self.advice = headline, list(blockers), advice
        super().__init__(" ".join(filter(None, [headline, "; ".join(self.blockers), advice])))


# --- Reopening -----------------------------------------------------------------------------


@transaction.atomic
def reopen_step(
    sequence, step: int, *, actor, reason: str, seen: int | None, confirmed: bool = True
) -> PostBattleSequence:
    """An organiser reopens any earlier step, with a reason shown in the battle's history:
    every later change of the sequence is undone, latest first, and the rolls of the
    reopened steps may be made again.

    ``seen``: the current step the organiser's page showed. A reopening posted from a page
    drawn before the sequence moved (a second tab, a double click with its own token, or
    after the player played the reopened steps again) is refused, so it never undoes what
    was done since. ``confirmed`` False: when later steps would be undone too, nothing is and
    ``ConfirmReopening`` lists them."""
    sequence = (
        PostBattleSequence.objects.select_for_update(of=("self",), no_key=True)
        .select_related(
            "participant__battle__campaign",
            "participant__warband__campaign",
            "participant__warband__owner",
        )
        .get(pk=sequence.pk)
    )
    check_reopens(actor, sequence)
    if not reason.strip():
        raise RuleViolation("Say why the step is reopened: it is shown in the battle's history.")
    if seen != sequence.current_step:
        raise RuleViolation("The sequence has moved on since this page was drawn: reload it.")
    if not 1 <= step < sequence.current_step or step > 10:
        raise RuleViolation("That step cannot be reopened.")
    changed(sequence, step=step, league=True)
    last = min(sequence.current_step, 10)
    records = list(
        StepRecord.objects.filter(
            sequence=sequence, undone_at__isnull=True, step__gte=step, step__lte=last
        )
    )
    later = later_steps(sequence, step, records, actor=actor)
    try:
        with transaction.atomic():  # undone as a whole, or not at all, before explaining
            for number in range(last, step - 1, -1):
                undo_step(sequence, number, actor=actor, reason=reason.strip()[:300])
                sequence.tasks.filter(step=number, void=False).update(void=True)
    except ReversalRefused as refused:
        raise explain(refused, sequence, actor=actor, undone=ledger_entries(records)) from refused
    if later and not confirmed:
        raise ConfirmReopening(step, later)  # and everything above is rolled back
    sequence.current_step = step
    sequence.completed_at = None
    sequence.save(update_fields=["current_step", "completed_at"])
    handler(step).prepare(sequence)  # its rolls listed afresh, the old ones void
    return sequence


def later_steps(sequence, step: int, records: list[StepRecord], *, actor) -> list[LaterStep]:
    """The steps after ``step`` that reopening it undoes, latest first: those with a live
    record, and the current step when its dice are rolled already. Their summaries are
    shown unless they are treasury steps the actor may not see inside."""
    numbers = sorted({r.step for r in records if r.step > step}, reverse=True)
    current = sequence.current_step
    if current <= 10 and current not in numbers:
        rolled = sequence.tasks.filter(step=current, void=False).exclude(faces=[])
        if rolled.exists():
            numbers.insert(0, current)
    sees = can_see_treasury(actor, sequence.participant.warband)
    shown = [r.pk for r in records if r.step in numbers and (sees or r.step not in TREASURY_STEPS)]
    lines: dict[int, list[str]] = {}
    actions = StepAction.objects.filter(record__in=shown).exclude(summary="").order_by("pk")
    for number, summary in actions.values_list("record__step", "summary"):
        lines.setdefault(number, []).append(summary)
    return [LaterStep(n, STEP_NAMES[n], "\n".join(lines.get(n, []))) for n in numbers]


# --- Explaining a refusal ------------------------------------------------------------------


def explain(refused: ReversalRefused, sequence, *, actor, undone: set[int]) -> ReopenRefused:
    """Why the steps cannot be undone, from the ledger entry the treasury refused to reverse:
    the later changes to its container made outside what is being undone, latest first, and
    what must happen to them. Read once the undo is rolled back, so they are as they stand."""
    warband = sequence.participant.warband
    owner = warband.owner.username
    entry = refused.entry
    if not can_see_treasury(actor, warband):
        return ReopenRefused(
            REOPEN_REFUSED,
            advice=f"Only {owner} sees what moved in the treasury since, and can take it back "
            "on the treasury page; ask them to, then reopen the step again.",
        )
    step = f"Step {entry.step}" if entry.step is not None else "The step"
    if entry.container.warband_id != warband.pk:
        return ReopenRefused(
            f"{step} cannot be undone: {entry.container.public_name} has left {warband.name} "
            "since (captured or lost), and what the step put into it or took out cannot "
            "come back.",
            advice="Correct the roster by hand instead, or leave the step as it is.",
        )
    blockers = blocking_changes(entry, undone)
    listed = [_sentence(change, owner) for change in blockers[:LISTED]]
    if len(blockers) > LISTED:
        listed.append(f"and {len(blockers) - LISTED} earlier change(s) to it")
    why = _period(str(refused))
    if not listed:
        return ReopenRefused(f"{step} cannot be undone: {why}")
    return ReopenRefused(
        f"{step} cannot be undone yet: {why} What changed in {entry.container.the} since, "
        "outside this sequence (latest first):",
        listed,
        advice="Take these back first, latest first, then reopen the step again.",
    )


def _period(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else f"{text}."


def blocking_changes(entry: LedgerEntry, undone: set[int]) -> list[LedgerEntry]:
    """The warband's later changes to ``entry``'s container that reopening does not undo,
    newest first: of the same kind (the same item, when there are such), else all of them.
    Changes that cancel out (``_net``) are left out."""
    rows = list(
        LedgerEntry.objects.filter(
            container_id=entry.container_id, warband_id=entry.warband_id, pk__gt=entry.pk
        )
        .exclude(pk__in=undone)
        .select_related("container", "battle", "actor")
        .order_by("-pk")[:200]
    )
    rows = _net(rows)
    alike = [r for r in rows if r.kind == entry.kind]
    if entry.kind == LedgerEntry.Kind.ITEM:
        alike = [r for r in alike if r.item_name == entry.item_name] or alike
    return alike or rows


def _net(rows: list[LedgerEntry]) -> list[LedgerEntry]:
    """``rows`` (newest first) without the changes that cancel out: gold put in and the same
    gold taken out again in the same place (the treasury page, or one step of a sequence),
    as a reversal and the entry it reverses do. They leave the container as it was, so they
    stand in nobody's way."""
    open_: dict[tuple, list[LedgerEntry]] = {}
    cancelled: set[int] = set()
    for row in rows:
        where = (row.battle_id, row.step, row.kind, row.item_name)
        match = open_.get((*where, -row.amount))
        if match:
            cancelled.update((row.pk, match.pop().pk))
        else:
            open_.setdefault((*where, row.amount), []).append(row)
    return [row for row in rows if row.pk not in cancelled]


def _sentence(entry: LedgerEntry, owner: str) -> str:
    """ "3 Mar 2026 14:02: alice took 30 gc out of the Treasure Chest (transfer between
    containers, on the treasury page): alice can put 30 gc back into it on the treasury
    page" — the change, and how to take it back."""
    when = dateformat.format(timezone.localtime(entry.created_at), "j M Y H:i")
    who = entry.actor.username if entry.actor_id else "the app"
    name = entry.container.the
    what = _amount(entry)
    if entry.amount > 0:
        done, undo = f"put {what} into {name}", f"take {what} out of it"
    else:
        done, undo = f"took {what} out of {name}", f"put {what} back into it"
    where = "on the treasury page"
    if entry.battle_id and entry.step is not None:
        where = f"in step {entry.step} of the sequence after {entry.battle.scenario}"
        fix = f"reopen that step first (or {owner} undoes it)"
    elif entry.battle_id:
        where = f"after {entry.battle.scenario}"
        fix = "it came with that battle and cannot be taken back from here"
    else:
        fix = f"{owner} can {undo} on the treasury page"
    reason = entry.get_reason_display().lower()
    return f"{when}: {who} {done} ({reason}, {where}): {fix}"


def _amount(entry: LedgerEntry) -> str:
    if entry.kind == LedgerEntry.Kind.ITEM:
        return f"the {entry.item_name}"
    return f"{abs(entry.amount)} {entry.what}"
