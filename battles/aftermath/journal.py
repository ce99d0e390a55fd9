"""The journal of a post-battle step: every change it makes, so that undo restores exactly.

Steps change the roster through a ``Journal`` (``update``, ``create``, ``delete``, ``watch``)
and the treasury through ``warbands.treasury``; the journal notes the ledger entries written
meanwhile. Each change keeps what undo must find to put it back: a field's value before and
after, a created row as it was made, a deleted row whole. ``battles.aftermath.undoing`` walks
the journal backwards.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.db import models
from django.utils import timezone

from battles.models import StepAction, StepRecord
from core.queries import one


def _label(obj_or_model) -> str:
    return obj_or_model._meta.label


def snapshot(obj: models.Model, fields=None) -> dict:
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


def restored(model, data: dict) -> dict:
    """A ``snapshot``'s values as the model's fields take them (by attname)."""
    values = {}
    for field in model._meta.concrete_fields:
        if field.attname in data:
            value = data[field.attname]
            values[field.attname] = field.to_python(value) if isinstance(value, str) else value
    return values


def _update_op(obj: models.Model, before: dict, fields) -> dict:
    """The journal's note of ``fields`` changed on ``obj``: their values before and now."""
    return {"op": "update", "model": _label(obj), "pk": obj.pk, "before": before,
            "after": snapshot(obj, fields)}  # fmt: skip


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
        before = snapshot(obj, list(fields))
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
            before = snapshot(obj, [field])
            setattr(obj, field, value)
            ops.append(_update_op(obj, before, [field]))
        if changes:
            type(changes[0][0]).objects.bulk_update([obj for obj, _ in changes], [field])
        for op in ops:
            self._add(op)

    def create(self, model, **fields) -> models.Model:
        return self.created(model.objects.create(**fields))

    def created(self, obj: models.Model) -> models.Model:
        """Note a row a service created (a container bought, a recruit's item), as it was
        made: undo takes it away only while it is still so."""
        self._add({"op": "create", "model": _label(obj), "pk": obj.pk, "data": snapshot(obj)})
        return obj

    def will_delete(self, obj: models.Model) -> None:
        """Note a row a service is about to delete (an item taken off a warrior)."""
        self._add({"op": "delete", "model": _label(obj), "data": snapshot(obj)})

    def add_m2m(self, obj: models.Model, field: str, ids: list[int]) -> None:
        getattr(obj, field).add(*ids)
        self._add({"op": "m2m_add", "model": _label(obj), "pk": obj.pk, "field": field, "ids": ids})

    def delete(self, obj: models.Model) -> None:
        self.will_delete(obj)
        obj.delete()

    @contextmanager
    def watch(self, obj: models.Model, fields: list[str]):
        """Note the fields a service changes on ``obj`` (a container lost with its hero)."""
        before = snapshot(obj, fields)
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
        for name, value in done.items():
            setattr(record, name, value)
        if live is None:  # the step's first action creates its record
            record.changes = len(self.ops)
            record.save()
        else:  # the live row, as read: only the fields below are written
            record.pk, record.changes = live[0], live[1] + len(self.ops)
            if self.ops or done:
                StepRecord.objects.filter(pk=record.pk).update(changes=record.changes, **done)
        if self.ops or self.summary:
            StepAction.objects.create(record=record, journal=self.ops, summary=self.summary)
