"""Querysets that Django builds and compiles once per process, then runs with new values.

Building a queryset and compiling it to SQL costs Django far more than PostgreSQL takes to run
the statement: the permission read of every warband page (the warband with its campaign,
owner, warband type and the user's membership) took 2.3 ms, of which PostgreSQL's part was
0.17 ms. For a read whose shape never changes, only its values (a primary key, the user's),
``Compiled`` has Django build and compile the queryset once, with stand-in values, notes where
those stand-ins sit among the statement's parameters, and afterwards runs the same SQL with
the real values put in their places. The rows are turned into model instances as Django's own
``ModelIterable`` does (``select_related`` objects, annotations, field converters), so callers
get what evaluating the queryset would give them.

The queryset is still written with the ORM (the permission rules stay in
``campaign.permissions``); only the compiling is skipped. What keeps this safe:
- each stand-in must be found among the compiled parameters exactly as given, and nothing else
  may equal one, or the first use fails loudly (a lookup that transforms its value, such as
  ``__contains``, cannot be compiled this way);
- every value must be an ``int``: ``None`` or a list would change the SQL itself (``IS NULL``,
  ``IN (…)`` of another length); the values are keys, and one beyond PostgreSQL's ``bigint``
  (a forged form field) matches no row, so the read answers none without asking;
- a builder that locks (``select_for_update``) is compiled inside the caller's transaction
  and refused outside one, as Django refuses it.

It leans on Django's compiler (``select``, ``klass_info``, ``annotation_col_map``, converters,
``get_related_populators``) as ``ModelIterable`` of Django 5.2 uses them;
``tests/campaign/test_compiled.py`` compares every kind of read with the ORM's own, so an
upgrade that changes them fails there first.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators

from campaign import nested

_BIGINT = (-(2**63), 2**63 - 1)
# Far from any primary key or count this app stores; each stand-in is told from the others.
_STAND_INS = tuple(-9_000_000_000_000_000 - 7919 * i for i in range(1, 65))


class Compiled:
    """``Compiled(build)``: ``build(*values)`` returns the queryset; calling the ``Compiled``
    with the values returns the list of its model instances."""

    def __init__(self, build: Callable[..., QuerySet], *, using: str = "default") -> None:
        self.build, self.using = build, using
        self._plan = None
        self._count = None  # how many values it takes: as many as at its first call
        self._nested: list[str] = []
        self._converters: dict = {}
        self._model_span, self._init_list, self._populators = (0, 0), [], []

    def __call__(self, *values: int) -> list[Model]:
        if not all(type(value) is int for value in values):
            raise TypeError(f"Compiled reads take int values, not {values!r}")
        if not all(_BIGINT[0] <= value <= _BIGINT[1] for value in values):
            return []  # a key PostgreSQL cannot store matches no row (as Django's lookups say)
        plan = self._plan or self._compile(len(values))
        if len(values) != self._count:
            raise TypeError(f"this read takes {self._count} values, not {len(values)}")
        sql, slots, compiler, locks = plan
        connection = connections[self.using]
        if locks and not connection.in_atomic_block:
            raise transaction.TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = [values[slot] if slot is not None else fixed for slot, fixed in slots]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        return list(self._instances(compiler, rows))

    def first(self, *values: int) -> Model | None:
        """The first instance the read answers, or None (``QuerySet.first`` without its
        ordering by primary key: the reads it serves find at most one row)."""
        return next(iter(self(*values)), None)

    def _compile(self, count: int):
        if count > len(_STAND_INS):
            raise ValueError(f"at most {len(_STAND_INS)} values, not {count}")
        stand_ins = _STAND_INS[:count]
        queryset = self.build(*stand_ins)
        compiler = queryset.query.get_compiler(using=self.using)
        if queryset._known_related_objects or queryset._prefetch_related_lookups:
            raise ValueError("a Compiled queryset cannot carry related objects or prefetches")
        if queryset._iterable_class not in (ModelIterable, nested.NestedIterable):
            raise ValueError("a Compiled queryset returns model instances")
        self._nested = [
            name[len(nested.PREFIX) :]
            for name in queryset.query.annotations
            if queryset._iterable_class is nested.NestedIterable and name.startswith(nested.PREFIX)
        ]
        locks = bool(queryset.query.select_for_update)
        # Django compiles a locking read only inside a transaction (no statement is sent).
        with transaction.atomic(using=self.using, savepoint=False):
            sql, params = compiler.as_sql()
        slots = []
        for param in params:
            if type(param) is int and param in stand_ins:
                slots.append((stand_ins.index(param), None))
            else:
                if param in stand_ins:
                    raise ValueError(f"a stand-in value was changed on its way into the SQL: {sql}")
                slots.append((None, param))
        found = {slot for slot, _ in slots if slot is not None}
        if found != set(range(count)):
            missing = sorted(set(range(count)) - found)
            raise ValueError(f"values {missing} do not reach the SQL as given: {sql}")
        fields = [column[0] for column in compiler.select[: compiler.col_count]]
        if compiler.has_composite_fields(fields):
            raise ValueError("a Compiled queryset cannot read composite primary keys")
        self._converters = compiler.get_converters(fields)
        # What ModelIterable works out on every evaluation, worked out once.
        klass_info = compiler.klass_info
        select_fields = klass_info["select_fields"]
        self._model_span = (select_fields[0], select_fields[-1] + 1)
        start, end = self._model_span
        self._init_list = [column[0].target.attname for column in compiler.select[start:end]]
        self._populators = get_related_populators(klass_info, compiler.select, self.using)
        self._count = count
        self._plan = (sql, tuple(slots), compiler, locks)
        return self._plan

    def _instances(self, compiler, rows):
        """Django's ``ModelIterable.__iter__`` on rows already fetched."""
        db = self.using
        annotation_col_map = compiler.annotation_col_map
        model_cls = compiler.klass_info["model"]
        start, end = self._model_span
        init_list, related_populators = self._init_list, self._populators
        if self._converters:  # as compiler.results_iter, with the converters found once
            rows = compiler.apply_converters(rows, self._converters)
        for row in rows:
            obj = model_cls.from_db(db, init_list, row[start:end])
            for populator in related_populators:
                populator.populate(row, obj)
            for name, position in annotation_col_map.items():
                setattr(obj, name, row[position])
            for relation in self._nested:  # as nested.NestedIterable
                nested.attach(obj, relation, getattr(obj, nested.PREFIX + relation))
            yield obj


class CompiledEach:
    """``Compiled`` for a builder that takes any number of values (``filter(pk__in=pks)``):
    the SQL differs with their number, so there is one ``Compiled`` per number of values."""

    def __init__(self, build: Callable[..., QuerySet]) -> None:
        self.build = build
        self._by_count: dict[int, Compiled] = {}

    def __call__(self, *values: int) -> list[Model]:
        read = self._by_count.get(len(values))
        if read is None:
            read = self._by_count.setdefault(len(values), Compiled(self.build))
        return read(*values)
