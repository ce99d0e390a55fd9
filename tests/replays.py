"""What the services wrote, written again. The helpers that build a test's setup through the
real services (a duel mustered, a battle fought, each step of a post-battle sequence finished:
``tests.helpers``) are wrapped in ``replayable``. The first call of a process from a given
database records every row it wrote (a ``Recipe``); a later call from the very same database
writes those rows again in a few statements instead of the services' hundreds.

"The very same database" is every row of every table but the reference data (the warband
lists, content types and permissions: ``tests.postgresql.base.KEPT_TABLES``), read in one
query and digested: the same rows under the same keys, to the moment. So a step
recorded on a module's duel replays in every later test that starts from that duel untouched,
and a test that changed anything first (a house rule, a warrior's gold, a page drawn) gets the
services.

The rows are written again under the same primary keys, moments and all. A step's journal and a
sequence's state name rows by their ids inside JSON, so a copy under new keys would have to
find and rewrite them; keeping the keys, nothing needs rewriting. The keys are free: the
database's sequences only move on, so no other row ever takes a key the recording took, and
the recording's own rows are gone by the time of a later test (rolled back, or flushed after a
transactional test); where a restore of a backup set a sequence back, the replay moves it on
again (``Recipe._sequences_past``). A duel written again has
the keys and moments of the one recorded, so the steps played on it replay too, from test to
test and module to module. A call that sent an e-mail is never replayed.

``tests/test_replays.py`` plays through the services and by the recipe side by side and
compares every row, so a change to the services that a replay would miss fails there first.
Tests of what the services do call them directly (``tests.helpers.act``, the sequence's own
functions); only the setup before what a test checks is replayed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from django.apps import apps
from django.core import mail
from django.db import connection, models, transaction

from tests.postgresql.base import KEPT_TABLES

#: Primary keys that a sequence hands out.
AUTO_KEYS = (models.AutoField, models.BigAutoField, models.SmallAutoField)
Row = tuple[str, str]  # a row: its table and its primary key, as text


class NotReplayable(Exception):
    """An argument or result that names something other than rows and plain values."""


# --- The database's rows ---------------------------------------------------------------------


@functools.cache
def _tables() -> dict[str, type[models.Model]]:
    """Every table a test may write, with its model (the link tables' too)."""
    return {
        model._meta.db_table: model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and model._meta.db_table not in KEPT_TABLES
    }


def _key(table: str) -> str:
    """The column of the table's primary key."""
    return _tables()[table]._meta.pk.column


def rows() -> dict[Row, str]:
    """Every row ``_tables`` holds, as JSON, by table and key."""
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT '{table}', t.{quote(_key(table))}::text, row_to_json(t)::text "
        f"FROM {quote(table)} t"
        for table in sorted(_tables())
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return {(table, pk): row for table, pk, row in cursor.fetchall()}


def digest(found: dict[Row, str]) -> str:
    """One digest of the rows ``rows`` found: equal for equal rows, whatever their order."""
    hashed = hashlib.blake2b()
    for (table, pk), row in sorted(found.items()):
        hashed.update(f"{table}\0{pk}\0{row}\0".encode())
    return hashed.hexdigest()


# --- Arguments and results -------------------------------------------------------------------


def named(value):
    """``value`` with every row replaced by its key: hashable, and read again by ``found``."""
    if isinstance(value, models.Model):
        return ("row", value._meta.label, value.pk)
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, named(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(named(v) for v in value))
    if value is None or isinstance(value, bool | int | str):
        return value
    raise NotReplayable(repr(value))


def rows_in(value) -> dict[tuple[str, object], models.Model]:
    """The model instances in ``value`` (a row, or a dict, list or tuple holding rows)."""
    if isinstance(value, models.Model):
        return {(value._meta.label, value.pk): value}
    if isinstance(value, dict | list | tuple):
        inner = value.values() if isinstance(value, dict) else value
        return {key: row for item in inner for key, row in rows_in(item).items()}
    return {}


def found(value, handed: dict[tuple[str, object], models.Model]):
    """What ``named`` named: each row read again from the database, or, where the call was
    handed that row, the instance it was handed (read again)."""
    if not isinstance(value, tuple):
        return value
    kind, *rest = value
    if kind == "row":
        label, pk = rest
        if (label, pk) in handed:
            return handed[(label, pk)]
        return apps.get_model(label)._base_manager.get(pk=pk)
    if kind == "dict":
        return {k: found(v, handed) for k, v in rest[0]}
    items = [found(v, handed) for v in rest[0]]
    return items if kind == "list" else tuple(items)


# --- Recipes ---------------------------------------------------------------------------------


@dataclass
class Recipe:
    """What one call wrote, table by table (rows made, rows changed as they became, keys of
    rows deleted), and what it returned."""

    made: dict[str, list[str]] = field(default_factory=dict)
    changed: dict[str, list[str]] = field(default_factory=dict)
    deleted: dict[str, list[str]] = field(default_factory=dict)
    result: object = None
    #: (table, key column, highest key made) for the tables whose keys a sequence hands out
    tops: list[tuple[str, str, int]] = field(default_factory=list)

    @classmethod
    def between(cls, before: dict[Row, str], after: dict[Row, str], result) -> Recipe:
        recipe = cls(result=result)
        for (table, pk), row in after.items():
            if (table, pk) not in before:
                recipe.made.setdefault(table, []).append(row)
            elif before[(table, pk)] != row:
                recipe.changed.setdefault(table, []).append(row)
        for table, pk in before.keys() - after.keys():
            recipe.deleted.setdefault(table, []).append(pk)
        for table, made in recipe.made.items():
            if isinstance(_tables()[table]._meta.pk, AUTO_KEYS):
                key = _key(table)
                recipe.tops.append((table, key, max(int(json.loads(row)[key]) for row in made)))
        return recipe

    def replay(self, handed=()):
        """Write the rows again, all or nothing: rows deleted, then changed, then made (the
        foreign keys are checked at the end). What the call returned, read again, with the
        instances it was ``handed`` read again too (``play_to``'s sequence is left at its new
        step)."""
        quote = connection.ops.quote_name
        with transaction.atomic(), connection.cursor() as cursor:
            for table, keys in self.deleted.items():
                pk = quote(_key(table))
                cursor.execute(f"DELETE FROM {quote(table)} WHERE {pk}::text = ANY(%s)", [keys])
            for table, changed in self.changed.items():
                pk = quote(_key(table))
                model = _tables()[table]
                columns = [
                    quote(f.column) for f in model._meta.concrete_fields if not f.primary_key
                ]
                cursor.execute(
                    f"UPDATE {quote(table)} t SET ({', '.join(columns)}) "
                    f"= ROW({', '.join('s.' + c for c in columns)}) "
                    f"FROM json_populate_recordset(NULL::{quote(table)}, %s::json) s "
                    f"WHERE t.{pk} = s.{pk}",
                    ["[" + ",".join(changed) + "]"],
                )
            for table, made in self.made.items():
                cursor.execute(
                    f"INSERT INTO {quote(table)} "
                    f"SELECT * FROM json_populate_recordset(NULL::{quote(table)}, %s::json)",
                    ["[" + ",".join(made) + "]"],
                )
            self._sequences_past(cursor)
        known = rows_in(handed)
        for row in known.values():
            row.refresh_from_db()
        return found(self.result, known)

    def _sequences_past(self, cursor) -> None:
        """Each table's sequence moved on past the keys written, where it is not past them
        already: a restore of a campaign's backup sets the sequences back to the keys it
        finds (``league.backup``), and the services must not later take a key written here."""
        if self.tops:
            values = ", ".join(["(%s, %s, %s)"] * len(self.tops))
            cursor.execute(
                f"SELECT setval(s.name, v.top) FROM (VALUES {values}) v(name, pk, top) "
                "CROSS JOIN LATERAL (SELECT pg_get_serial_sequence(v.name, v.pk) AS name) s "
                "JOIN pg_sequences q ON q.schemaname || '.' || q.sequencename = s.name "
                "WHERE coalesce(q.last_value, 0) < v.top",
                [value for top in self.tops for value in top],
            )


#: The recipes of this process, by call and the digest of the database it started from (no
#: recipe where the call cannot be replayed).
RECIPES: dict[tuple, Recipe | None] = {}
_recording = [0]


def replayable(build: Callable):
    """Wrap a helper of the tests' setup whose effects are all rows in the database (and
    what it returns): its first call from a database records, later calls from the very same
    database replay."""

    @functools.wraps(build)
    def call(*args, **kwargs):
        if _recording[0]:
            return build(*args, **kwargs)  # inside a recording: part of it
        try:
            called = (build.__qualname__, named(args), named(kwargs))
        except NotReplayable:
            return build(*args, **kwargs)
        before = rows()
        key = (*called, digest(before))
        if key in RECIPES:
            recipe = RECIPES[key]
            return build(*args, **kwargs) if recipe is None else recipe.replay((args, kwargs))
        sent = len(getattr(mail, "outbox", ()))
        _recording[0] += 1
        try:
            result = build(*args, **kwargs)
        finally:
            _recording[0] -= 1
        try:
            unsent = len(getattr(mail, "outbox", ())) == sent
            RECIPES[key] = Recipe.between(before, rows(), named(result)) if unsent else None
        except NotReplayable:
            RECIPES[key] = None
        return result

    return call


@contextlib.contextmanager
def services_only():
    """Every replayable helper called inside runs the services, neither recording nor
    replaying (``tests/test_replays.py`` compares the two)."""
    _recording[0] += 1
    try:
        yield
    finally:
        _recording[0] -= 1
