"""SQL statements written by hand to be sent together with others in one statement (as the
data-modifying ``WITH`` queries of ``battles.journal.Journal.save`` or of
``warbands.treasury._save_balances``), each value prepared as Django's own save prepares it."""

from __future__ import annotations

from django.db import connection
from django.db.models import Model


def insert(rows: list[Model], *, returning: bool = True) -> tuple[str, list]:
    """``INSERT INTO`` the rows' table the unsaved ``rows`` (all of one model), ``RETURNING id``
    in their order unless ``returning`` is false; each field's ``pre_save`` runs as in
    ``Model.save`` (``auto_now_add`` sets ``created_at``)."""
    model = type(rows[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    row = f"({', '.join(['%s'] * len(fields))})"
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection)
              for obj in rows for field in fields]  # fmt: skip
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    sql = f"INSERT INTO {model._meta.db_table} ({columns}) VALUES {', '.join([row] * len(rows))}"
    return (f"{sql} RETURNING id" if returning else sql), values
