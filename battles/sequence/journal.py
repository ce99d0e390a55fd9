"""The journal of a post-battle step: every change it makes, so that undo restores exactly.

Steps change the roster through a ``Journal`` (``update``, ``create``, ``delete``, ``watch``)
and the treasury through ``warbands.treasury``; the journal notes the ledger entries written
meanwhile. ``revert`` walks the journal backwards: fields get their old values, created rows
go, deleted rows come back with their primary keys, and every ledger entry is reversed by a new
entry (never deleted: the ledger is append-only).
"""

from __future__ import annotations

from contextlib import contextmanager

from django.apps import apps
from django.db import models, transaction
from django.db.models import ProtectedError
from django.utils import timezone

from battles.models import Captive, StepAction, StepRecord
from core.queries import one
from warbands import treasury
from warbands.models import LedgerEntry, StorageContainer
from warbands.permissions import secret_refusals
from warbands.rules import RuleViolation

# What a refused reversal tells someone who may not see inside the container (an organiser
# reopening a step): the treasury's own reason names its contents or its name.
REOPEN_REFUSED = "That step cannot be reopened: later treasury changes depend on it."


class ReversalRefused(RuleViolation):
    """A ledger entry of a journal could not be reversed: its treasure has moved on since.
    The message is what ``revert`` may tell the actor; ``entry`` is the entry refused, from
    which ``battles.sequence.reopening`` finds the later changes that stand in the way."""

    def __init__(self, message: str, *, entry: LedgerEntry) -> None:
        super().__init__(message)
        self.entry = entry


CAPTIVE_SETTLED = "A hero captured in that step has been ransomed, exchanged or lost since."


def _label(obj_or_model) -> str:
    return obj_or_model._meta.label


def _snapshot(obj: models.Model, fields=None) -> dict:
    """Concrete field values (by attname) as JSON-safe strings or plain values."""
    data = {}
    for field in obj._meta.concrete_fields:
        if fields is not None and field.name not in fields and field.attname not in fields:
            continue
        value = getattr(obj, field.attname)
        if value is None or isinstance(value, bool | int | str | list | dict):
            data[field.attname] = value
        else:
            data[field.attname] = field.value_to_string(obj)
    return data


def _restore(model, data: dict) -> dict:
    values = {}
    for field in model._meta.concrete_fields:
        if field.attname in data:
            value = data[field.attname]
            values[field.attname] = field.to_python(value) if isinstance(value, str) else value
    return values


def _update_op(obj: models.Model, before: dict, fields) -> dict:
    """The journal's note of ``fields`` changed on ``obj``: their values before and now."""
    return {"op": "update", "model": _label(obj), "pk": obj.pk, "before": before,
            "after": _snapshot(obj, fields)}  # fmt: skip


class Journal:
    """Records the changes of one action of a step (saved by ``save``).

    ``ops`` are the action's own changes and ``summary`` its lines; ``save`` writes them as
    one ``StepAction`` of the step's live record (``record``, unsaved until then), creating the
    record on the step's first action. No read of the record is needed: the caller holds the
    sequence's row lock, so nobody else writes it meanwhile.

    The ledger entries come from ``treasury.noting_entries(journal.written)``, which the step
    runs inside: exactly the entries this step wrote, whatever other warbands write meanwhile.
    """

    def __init__(self, record) -> None:
        self.record = record
        self.ops: list[dict] = []  # the action's changes, oldest first
        self.summary = ""  # the action's summary lines
        self.written: list[int] = []  # ledger entries written by the step, oldest first
        self._noted = 0  # how many of them the journal holds already

    def _add(self, op: dict) -> None:
        # Ledger entries written before this change come first, so that undo (newest first)
        # takes back this change before it reverses them.
        if op["op"] != "ledger":
            self.note_ledger()
        self.ops.append(op)

    def update(self, obj: models.Model, **fields) -> models.Model:
        before = _snapshot(obj, list(fields))
        for name, value in fields.items():
            setattr(obj, name, value)
        obj.save(update_fields=list(fields))
        self._add(_update_op(obj, before, list(fields)))
        return obj

    def update_many(self, changes: list[tuple[models.Model, object]], field: str) -> None:
        """Set ``field`` on several rows of one model, each to its own value, in one statement
        (``bulk_update``); journaled as one update per row, in the order given."""
        ops = []
        for obj, value in changes:
            before = _snapshot(obj, [field])
            setattr(obj, field, value)
            ops.append(_update_op(obj, before, [field]))
        if changes:
            type(changes[0][0]).objects.bulk_update([obj for obj, _ in changes], [field])
        for op in ops:
            self._add(op)

    def create(self, model, **fields) -> models.Model:
        obj = model.objects.create(**fields)
        self._add({"op": "create", "model": _label(model), "pk": obj.pk})
        return obj

    def created(self, obj: models.Model) -> models.Model:
        """Note a row a service created (a container bought, a recruit's item)."""
        self._add({"op": "create", "model": _label(obj), "pk": obj.pk})
        return obj

    def will_delete(self, obj: models.Model) -> None:
        """Note a row a service is about to delete (an item taken off a warrior)."""
        self._add({"op": "delete", "model": _label(obj), "data": _snapshot(obj)})

    def add_m2m(self, obj: models.Model, field: str, ids: list[int]) -> None:
        getattr(obj, field).add(*ids)
        self._add({"op": "m2m_add", "model": _label(obj), "pk": obj.pk, "field": field, "ids": ids})

    def delete(self, obj: models.Model) -> None:
        self.will_delete(obj)
        obj.delete()

    @contextmanager
    def watch(self, obj: models.Model, fields: list[str]):
        """Note the fields a service changes on ``obj`` (a container lost with its hero)."""
        before = _snapshot(obj, fields)
        yield
        # The service's ledger entries come first in the journal, so that undo restores the
        # object (a lost container held again) before it puts the treasure back.
        self.note_ledger()
        obj.refresh_from_db(fields=fields)
        op = _update_op(obj, before, fields)
        if op["after"] != before:
            self._add(op)

    def note_ledger(self) -> None:
        """Note the ledger entries written since the last note (through the treasury)."""
        new = self.written[self._noted :]
        if new:
            self._noted = len(self.written)
            self._add({"op": "ledger", "pks": new})

    def save(self, *, completed_by=None) -> None:
        """Write this action to the step's live record: the record is created on the step's
        first action, else its count of changes grows by the action's; the action becomes a
        ``StepAction`` row when it changed or said something. ``completed_by``: the step ends
        now, done by this user. The caller holds the sequence's row lock, so nobody else
        writes the record meanwhile.

        The record's row stays small whatever the step's history, so an action costs the same
        however many came before it (``StepAction``)."""
        self.note_ledger()
        record = self.record
        done = {}
        if completed_by is not None:
            done = {"completed_at": timezone.now(), "completed_by": completed_by}
        # Read under the sequence's lock, in a statement of its own: a record another action
        # created while this one waited for the lock is seen (a subquery of the locking read
        # would still see the database as it was before the wait).
        live = one(
            StepRecord.objects.filter(
                sequence_id=record.sequence_id, step=record.step, undone_at__isnull=True
            ).values_list("pk", "changes")
        )
        if live is None:
            record.changes, fields = len(self.ops), None  # created now
        else:  # the row as read: only the fields below are written
            record.pk, record.changes = live[0], live[1] + len(self.ops)
            record._state.adding = False
            fields = ["changes", *done]
        for name, value in done.items():
            setattr(record, name, value)
        if fields is None or self.ops or done:
            record.save(update_fields=fields)
        if self.ops or self.summary:
            StepAction.objects.create(record=record, journal=self.ops, summary=self.summary)


def revert(journal: list[dict], *, actor=None) -> None:
    """Undo a journal, newest change first. A ledger entry that cannot be reversed (the
    treasure has moved on since) refuses the whole undo (``ReversalRefused``), with the
    treasury's reason for those who may see inside the container as it is now, and
    ``REOPEN_REFUSED`` for anyone else (``warbands.permissions.secret_refusals``)."""
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
        if op["op"] == "m2m_add":
            obj = model.objects.filter(pk=op["pk"]).first()
            if obj is not None:
                getattr(obj, op["field"]).remove(*op["ids"])
        elif op["op"] == "update":
            model.objects.filter(pk=op["pk"]).update(**_restore(model, op["before"]))
        elif op["op"] == "create":
            rows = model.objects.filter(pk=op["pk"])
            # A captive ransomed, exchanged or sold since (battles.captives) stays so.
            if model is Captive and rows.exclude(status=Captive.Status.HELD).exists():
                raise RuleViolation(CAPTIVE_SETTLED)
            try:
                with transaction.atomic():
                    rows.delete()
            except ProtectedError:
                # A container bought in the step that treasure went through: its ledger lines
                # stay (append-only), so the container stays too, marked sold.
                if model is not StorageContainer:
                    raise
                rows.update(status=StorageContainer.Status.SOLD, parent=None, holder=None)
        elif op["op"] == "delete":
            model.objects.create(**_restore(model, op["data"]))


def undo_step(sequence, number: int, *, actor, reason: str) -> StepRecord | None:
    """Undo the live record of step ``number`` of the locked ``sequence`` (none: nothing to
    undo) and mark it undone, by whom and why."""
    record = StepRecord.objects.filter(
        sequence=sequence, step=number, undone_at__isnull=True
    ).first()
    if record is None:
        return None
    revert(record.journal(), actor=actor)
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
