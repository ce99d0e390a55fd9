"""Undoing a post-battle step: its journal walked backwards, once everything it puts back is
locked and found as the step left it.

``revert`` reverses the journal newest change first: fields get their old values, created
rows go, deleted rows come back with their primary keys, and every ledger entry is reversed
by a new entry (never deleted: the ledger is append-only). Other players and other pages
change the same things meanwhile: the captor sells the hero the step took captive, the owner
stores on his treasury page the helmet the step bought, or spends the gold it brought. So
before anything is put back, every row the journal touches (captives, warbands, containers,
warriors' items, warriors, then the rest) is locked in the app's lock order
(``warbands.treasury.ledger``) and read afresh, and each change is checked against it: a
field must still hold what the step wrote, a row the step created must still be as it was
made and carry nothing added since, a row it deleted must have somewhere to come back to.
Anything moved since refuses the whole undo (``MovedSince``), saying what moved and what
would work instead; a treasury reason reaches only those who may see the treasury
(``warbands.permissions.secret_refusals``).
"""

from __future__ import annotations

from collections import defaultdict
from contextlib import nullcontext
from itertools import groupby

from django.apps import apps
from django.core.exceptions import ObjectDoesNotExist
from django.db import models, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from battles.aftermath.journal import restored, snapshot
from battles.models import Captive, StepAction, StepRecord
from core.errors import RuleViolation
from warbands import treasury
from warbands.models import (
    LedgerEntry,
    StorageContainer,
    Warband,
    Warrior,
    WarriorItem,
)
from warbands.permissions import secret_refusals

# What a refused reversal tells someone who may not see inside the container (an organiser
# reopening a step): the treasury's own reason names its contents or its name.
REOPEN_REFUSED = "That step cannot be reopened: later treasury changes depend on it."

#: The app's lock order (``warbands.treasury.ledger``), as the captives' services keep it
#: too: captives, warbands, containers, warriors' items, warriors; other rows after them.
LOCK_ORDER = (
    "battles.Captive",
    "warbands.Warband",
    "warbands.StorageContainer",
    "warbands.WarriorItem",
    "warbands.Warrior",
)
#: The sequence's own bookkeeping: changed only under the sequence's row lock, which the undo
#: holds, and by the sequence itself (a roll's faces), so nothing else can have moved it.
BOOKKEEPING = {"battles.PostBattleSequence", "battles.SequenceTask", "battles.StepRecord"}
#: Fields that change without moving anything: names, a container's number among its kind,
#: a captor's offers for a hero still held; and the dates that say when (``_changed``). A
#: row whose other fields are as the step left it may go, or come back, whatever these say.
FREE_FIELDS = {"name", "label", "number", "notes", "ransom", "ransom_into", "exchange_for"}
#: What, added since to a row the step created, would go with it (``Model.delete`` cascades)
#: or keeps it (``PROTECT``), by the field that refers to it: each says what the row has
#: done since.
DEPENDENTS = {
    "warbands.WarriorItem.warrior": "has been given equipment since",
    "warbands.Injury.warrior": "has been injured since",
    "battles.WarriorOutcome.warrior": "has fought in a battle since",
    "battles.Fighter.warrior": "has fought in a battle since",
    "battles.Captive.warrior": "has been taken captive since",
    "warbands.StorageContainer.holder": "has been given a container to carry since",
    "warbands.StorageContainer.parent": "has had a container placed on it since",
    "warbands.StoredItem.container": "has had items stored in it since",
    "warbands.LedgerEntry.container": "has had treasure put in or taken out since",
    "warbands.LedgerEntry.sold_container": "has been sold since",
    "battles.Captive.ransom_into": "is where a ransom is to be paid since",
    "battles.CarriedItemAtEnd.container": "has been carried in a battle since",
}
ADVICE = "Take that change back first, or leave the step as it is and correct the roster by hand."


class ReversalRefused(RuleViolation):
    """A ledger entry of a journal could not be reversed: its treasure has moved on since.
    The message is what ``revert`` may tell the actor; ``entry`` is the entry refused, from
    which ``battles.aftermath.reopening`` finds the later changes that stand in the way."""

    def __init__(self, message: str, *, entry: LedgerEntry) -> None:
        super().__init__(message)
        self.entry = entry


class MovedSince(RuleViolation):
    """Something the step changed has moved since (``what``), so the step cannot be undone;
    ``advice``: what would work instead."""

    def __init__(self, step: int | None, what: str, advice: str = ADVICE) -> None:
        self.what, self.advice = what, advice
        done = f"Step {step}" if step is not None else "That step"
        super().__init__(f"{done} cannot be undone: {what}. {advice}")


# --- Locks ---------------------------------------------------------------------------------


def _lock_order(label: str) -> tuple:
    return (LOCK_ORDER.index(label), "") if label in LOCK_ORDER else (len(LOCK_ORDER), label)


def lock_rows(journal: list[dict], warband_id: int) -> dict[tuple[str, int], models.Model]:
    """Lock every row the journal puts back, changes or takes away, in the app's lock order
    (primary-key order within a model), and return them read afresh by (model, pk). The rows
    a step created are locked ``FOR UPDATE``, since undo deletes them: nothing may add a row
    that refers to one meanwhile. Rows a deleted row referred to (the warrior an item comes
    back to) are locked too; so are the containers of the ledger entries, and before them
    the warband, as the services that pay or correct lock it first. A journal of the sequence's
    own bookkeeping alone (a step that changed nothing) puts nothing back: nothing is locked."""
    wanted: dict[str, set[int]] = defaultdict(set)
    doomed: dict[str, set[int]] = defaultdict(set)
    entries = [pk for op in journal if op["op"] == "ledger" for pk in op["pks"]]
    if entries:
        containers = LedgerEntry.objects.filter(pk__in=entries).values_list("container_id")
        wanted["warbands.StorageContainer"].update(pk for (pk,) in containers)
    for op in journal:
        if op["op"] in ("update", "m2m_add"):
            wanted[op["model"]].add(op["pk"])
        elif op["op"] == "create":
            doomed[op["model"]].add(op["pk"])
        elif op["op"] == "delete":
            for field in apps.get_model(op["model"])._meta.concrete_fields:
                target = field.related_model._meta.label if field.is_relation else ""
                if target in LOCK_ORDER and op["data"].get(field.attname) is not None:
                    wanted[target].add(op["data"][field.attname])
    if not (set(wanted) | set(doomed)) - BOOKKEEPING:
        return {}
    wanted["warbands.Warband"].add(warband_id)
    found: dict[tuple[str, int], models.Model] = {}
    for label in sorted(set(wanted) | set(doomed), key=_lock_order):
        if label in BOOKKEEPING:
            continue
        rows = apps.get_model(label).objects.order_by("pk")
        # Primary-key order across both strengths (a created backpack after the chest it was
        # filled from, as the treasury's moves lock them): one statement per run of rows of one
        # strength, so one statement when the model has rows of one kind only (the common case).
        every = sorted(wanted[label] | doomed[label])
        for kept, run in groupby(every, key=lambda pk, label=label: pk not in doomed[label]):
            locked = rows.filter(pk__in=list(run)).select_for_update(of=("self",), no_key=kept)
            found.update(((label, row.pk), row) for row in locked)
    return found


# --- Checks --------------------------------------------------------------------------------


def describe(obj: models.Model) -> str:
    """What a player calls the row in a sentence (never a container's secret name)."""
    try:
        if isinstance(obj, WarriorItem):
            return f"the {obj.item.name} of {obj.warrior.name}"
        if isinstance(obj, StorageContainer):
            return f"the {obj.public_name}"
        if isinstance(obj, Captive):
            return f"{obj.warrior.name}, held captive by {obj.captor.name}"
    except ObjectDoesNotExist:  # a row rebuilt from the journal, whose warrior is gone
        pass
    return getattr(obj, "name", "") or f"a {obj._meta.verbose_name}"


def _changed(obj: models.Model, data: dict, free=frozenset()) -> list[str]:
    """The fields of ``data`` (a snapshot) that ``obj`` no longer holds, ``free`` ones and
    dates aside (when a row was made or taken is no part of what it holds)."""
    now = snapshot(obj, list(data))
    return [
        str(field.verbose_name)
        for field in obj._meta.concrete_fields
        if field.attname in data
        and field.name not in free
        and not isinstance(field, models.DateField)  # DateTimeField too
        and now.get(field.attname) != data[field.attname]
    ]


def _check_update(op: dict, row, step) -> None:
    """The fields the step changed still hold what it wrote."""
    if row is None:
        what = apps.get_model(op["model"])._meta.verbose_name
        raise MovedSince(step, f"a {what} it changed is gone since")
    changed = _changed(row, op.get("after") or {})  # no "after": an older journal
    if changed:
        raise MovedSince(step, f"{describe(row)} has changed since ({', '.join(changed)})")


def _check_created(op: dict, row, step) -> None:
    """The row the step created is still there, as it was made (``FREE_FIELDS`` aside), and
    nothing added since refers to it that would go with it or keep it (``DEPENDENTS``)."""
    model = apps.get_model(op["model"])
    made = op.get("data")  # none: an older journal, which only says the row was made
    if row is None:
        what = describe(model(**restored(model, made))) if made else f"a {model._meta.verbose_name}"
        raise MovedSince(step, f"{what}, added in that step, is gone since (stored, sold, lost "
                         "or taken)")  # fmt: skip
    if isinstance(row, Captive) and row.status != Captive.Status.HELD:
        raise MovedSince(
            step,
            f"{row.warrior.name}, taken captive in that step, has been "
            f"{row.get_status_display().lower()} since",
            "That stays as it is: leave the step, or correct the roster by hand.",
        )
    if isinstance(row, StorageContainer):  # the ledger's reversals changed them just now
        row.refresh_from_db(fields=treasury.BALANCES)
    changed = _changed(row, made or {}, FREE_FIELDS)
    if changed:
        what = f"{describe(row)}, added in that step, has changed since"
        raise MovedSince(step, f"{what} ({', '.join(changed)})")
    for path, since in DEPENDENTS.items():
        label, name = path.rsplit(".", 1)
        dependent = apps.get_model(label)
        if dependent._meta.get_field(name).related_model is not model:
            continue
        rows = dependent.objects.filter(**{name: row.pk})
        if dependent is LedgerEntry:  # changes undone since stand in nobody's way
            rows = rows.filter(reverses__isnull=True, reversed_by__isnull=True)
        if rows.exists():
            raise MovedSince(step, f"{describe(row)}, added in that step, {since}")


def _check_deleted(op: dict, step, rows: dict) -> None:
    """The row the step took away has somewhere to come back to: the warrior who carried it
    is still on the roster."""
    model = apps.get_model(op["model"])
    warrior_id = op["data"].get("warrior_id") if model is not Warrior else None
    if warrior_id is None:
        return
    warrior = rows.get(("warbands.Warrior", warrior_id))
    if warrior is None or warrior.status not in Warrior.ON_ROSTER:
        what = describe(model(**restored(model, op["data"])))
        raise MovedSince(step, f"{what}, taken away in that step, has nobody to come back to: "
                         "his warrior is no longer on the roster")  # fmt: skip


# --- Reverting -----------------------------------------------------------------------------


def revert(journal: list[dict], *, actor=None, warband: Warband, step: int | None = None) -> None:
    """Undo a journal, newest change first, once what it puts back is locked and checked
    (this module's docstring). A ledger entry that cannot be reversed (the treasure has moved
    on since) refuses the whole undo (``ReversalRefused``); anything else moved since refuses
    it too (``MovedSince``); a reason about the treasury reaches those who may not see it as
    ``REOPEN_REFUSED`` (``warbands.permissions.secret_refusals``)."""
    rows = lock_rows(journal, warband.pk)
    for op in reversed(journal):
        if op["op"] == "ledger":
            for pk in reversed(op["pks"]):
                entry = LedgerEntry.objects.select_related("container__warband__campaign").get(
                    pk=pk
                )
                try:
                    with secret_refusals(actor, entry.container.warband, neutral=REOPEN_REFUSED):
                        treasury.reverse_entry(entry, actor=actor)
                except RuleViolation as refusal:
                    raise ReversalRefused(str(refusal), entry=entry) from refusal
            continue
        model = apps.get_model(op["model"])
        row = rows.get((op["model"], op.get("pk")))
        # A container's story is the treasury's: its owner hears it, others only that it moved.
        secret = model is StorageContainer
        with secret_refusals(actor, warband, neutral=REOPEN_REFUSED) if secret else nullcontext():
            _revert_op(op, model, row, rows, step)


def _revert_op(op: dict, model, row, rows: dict, step) -> None:
    if op["op"] == "m2m_add":
        obj = model.objects.filter(pk=op["pk"]).first()
        if obj is not None:
            getattr(obj, op["field"]).remove(*op["ids"])
    elif op["op"] == "update":
        if op["model"] not in BOOKKEEPING:
            _check_update(op, row, step)
        values = restored(model, op["before"])
        model.objects.filter(pk=op["pk"]).update(**values)
        if row is not None:  # later checks of the same row read what is put back
            for name, value in values.items():
                setattr(row, name, value)
    elif op["op"] == "create":
        if op["model"] in BOOKKEEPING:
            model.objects.filter(pk=op["pk"]).delete()
            return
        _check_created(op, row, step)
        try:
            with transaction.atomic():
                model.objects.filter(pk=op["pk"]).delete()
        except ProtectedError as protected:
            # A container bought in the step that treasure went through: its ledger lines
            # stay (append-only), so the container stays too, marked sold. Nothing else
            # refers to it (``_check_created``), and it is empty again.
            if model is not StorageContainer:
                raise MovedSince(step, f"{describe(row)}, added in that step, is in use "
                                 "since") from protected  # fmt: skip
            model.objects.filter(pk=op["pk"]).update(
                status=StorageContainer.Status.SOLD, parent=None, holder=None
            )
    elif op["op"] == "delete":
        _check_deleted(op, step, rows)
        model.objects.create(**restored(model, op["data"]))


def undo_step(sequence, number: int, *, actor, reason: str) -> StepRecord | None:
    """Undo the live record of step ``number`` of the locked ``sequence`` (none: nothing to
    undo) and mark it undone, by whom and why."""
    record = StepRecord.objects.filter(
        sequence=sequence, step=number, undone_at__isnull=True
    ).first()
    if record is None:
        return None
    revert(record.journal(), actor=actor, warband=sequence.participant.warband, step=number)
    record.undone_at = timezone.now()
    record.undone_by = actor
    record.reason = reason
    record.save(update_fields=["undone_at", "undone_by", "reason"])
    return record


def ledger_entries(records) -> set[int]:
    """The ledger entries the journals of ``records`` wrote (what undoing them reverses)."""
    journals = StepAction.objects.filter(record__in=records).values_list("journal", flat=True)
    return {
        pk for journal in journals for op in journal if op["op"] == "ledger" for pk in op["pks"]
    }
