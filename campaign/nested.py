"""Related rows read in their parents' statement, one JSON array per parent and relation.

``prefetch_related`` reads each relation in a query of its own: the roster sheet's warriors with
their items, skills, spells and injuries cost five statements, and every statement is a round
trip plus Django building its SQL. ``nested`` has PostgreSQL put each parent's related rows
into the parent's own row instead (``ARRAY(SELECT json_build_object(…) … ORDER BY …)``, a
correlated subquery on the relation's foreign-key index), and turns them back into model
instances as the parents are read: ``warrior.items.all()`` then answers from memory, as after
``prefetch_related``, and ``owned.item`` (a foreign key named in ``nested``) is loaded too.

Every concrete field of the related rows is read (so nothing is deferred and no field access
can start a query of its own); values come back through JSON and are turned into Python by
each field's ``to_python`` (dates and times are ISO strings in JSON). The related rows keep
their model's default ordering, with the primary key last so that ties are always in the
same order.

Building and compiling such a subquery costs Django more than PostgreSQL takes to run it (a
warrior's items: about 4 ms, for 1 ms of the statement). Its SQL is the same every time for
one parent model, relation and outer query alias, so ``_Rows`` has Django build and compile
it the first time and the process reuses the SQL afterwards (``_COMPILED``).
"""

from __future__ import annotations

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.fields import ArrayField
from django.db import connection
from django.db.models import Expression, JSONField, Model, OuterRef, QuerySet
from django.db.models.functions import JSONObject
from django.db.models.query import ModelIterable

PREFIX = "_nested_"
# (parent model, relation, related, outer query's base alias and alias prefix, database)
# -> (sql, params) of the compiled subquery
_COMPILED: dict[tuple, tuple[str, tuple]] = {}


def _fields(model: type[Model], path: str = "") -> dict:
    return {f.attname: f"{path}{f.attname}" for f in model._meta.concrete_fields}


def _rows(parent: type[Model], relation: str, related: tuple[str, ...]) -> ArraySubquery:
    """The rows of ``parent``'s reverse foreign key ``relation`` as JSON objects, each foreign
    key in ``related`` as a nested object under ``@name``."""
    rel = parent._meta.get_field(relation)
    child = rel.related_model
    fields = _fields(child)
    for name in related:
        target = child._meta.get_field(name).related_model
        fields[f"@{name}"] = JSONObject(**_fields(target, f"{name}__"))
    ordering = [*child._meta.ordering, "pk"]
    rows = child._default_manager.filter(**{rel.field.name: OuterRef("pk")}).order_by(*ordering)
    return ArraySubquery(rows.values(row=JSONObject(**fields)))


class _Rows(Expression):
    """``_rows(parent, relation, related)`` in a query: Django builds and compiles the subquery
    the first time, against the query it is in; afterwards the SQL is reused while the outer
    query names its table the same way (a top-level query always does; one used as a subquery
    is aliased anew, which is another key)."""

    def __init__(self, parent: type[Model], relation: str, related: tuple[str, ...]):
        super().__init__(output_field=ArrayField(JSONField()))
        self.parent, self.relation, self.related = parent, relation, related

    def as_sql(self, compiler, connection):
        query = compiler.query
        key = (self.parent, self.relation, self.related, query.base_table,
               query.alias_prefix, connection.alias)  # fmt: skip
        found = _COMPILED.get(key)
        if found is None:
            subquery = _rows(self.parent, self.relation, self.related)
            sql, params = compiler.compile(subquery.resolve_expression(query))
            found = _COMPILED[key] = (sql, tuple(params))
        return found[0], list(found[1])


def _instance(model: type[Model], data: dict) -> Model:
    fields = model._meta.concrete_fields
    values = [None if data[f.attname] is None else f.to_python(data[f.attname]) for f in fields]
    return model.from_db(connection.alias, [f.attname for f in fields], values)


def attach(parent: Model, relation: str, rows) -> None:
    """``parent.<relation>.all()`` answers ``rows`` (from ``nested``) without a query."""
    rel = parent._meta.get_field(relation)
    children = []
    for data in rows or ():
        child = _instance(rel.related_model, data)
        for key, value in data.items():
            if key.startswith("@"):
                fk = rel.related_model._meta.get_field(key[1:])
                target = fk.related_model
                loaded = (
                    None if value[target._meta.pk.attname] is None else _instance(target, value)
                )
                fk.set_cached_value(child, loaded)
        children.append(child)
    remember(parent, relation, children)


def remember(parent: Model, relation: str, children: list[Model]) -> None:
    """``parent.<relation>.all()`` answers ``children`` (all of them) without a query."""
    field = parent._meta.get_field(relation).field
    for child in children:
        field.set_cached_value(child, parent)
    queryset = getattr(parent, relation).all()
    queryset._result_cache, queryset._prefetch_done = children, True
    cache = getattr(parent, "_prefetched_objects_cache", None)
    if cache is None:
        cache = parent._prefetched_objects_cache = {}
    cache[relation] = queryset


class NestedIterable(ModelIterable):
    """Model instances with their nested relations attached as they are read."""

    def __iter__(self):
        names = [name for name in self.queryset.query.annotations if name.startswith(PREFIX)]
        for obj in super().__iter__():
            for name in names:
                attach(obj, name[len(PREFIX) :], getattr(obj, name))
            yield obj


def nested(queryset: QuerySet, **relations: tuple[str, ...]) -> QuerySet:
    """``queryset`` with each reverse foreign key in ``relations`` read in the same statement;
    the value names the foreign keys of the related rows to load with them, as
    ``select_related`` would (``nested(warriors, items=("item",), injuries=())``)."""
    annotated = queryset.annotate(
        **{
            f"{PREFIX}{name}": _Rows(queryset.model, name, tuple(related))
            for name, related in relations.items()
        }
    )
    annotated._iterable_class = NestedIterable
    return annotated
