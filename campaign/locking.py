"""Rows a view reads under their row lock, handed on to the service that would lock them again.

A post runs in one transaction (``campaign.once``). Where the view reads the very rows its
service then locks (a post-battle sequence, the two containers of a move), it reads them
``FOR UPDATE`` at once and marks them; the service takes marked rows as they are instead of
locking and reading them a second time. A mark holds only inside the transaction that made it
(the outermost atomic block), so a row read earlier, or in another transaction, is read again.
"""

from __future__ import annotations

from django.db import connection


def for_update(queryset, **options):
    """``queryset`` read under its rows' locks when there is a transaction to hold them."""
    if not connection.in_atomic_block:
        return queryset
    return queryset.select_for_update(**options)


def mark(*rows) -> None:
    """Say that ``rows`` were read by ``for_update`` in the current transaction."""
    if connection.in_atomic_block:
        for row in rows:
            row._locked_in = connection.atomic_blocks[0]


def held(rows, *, once: bool = False) -> bool:
    """Every one of ``rows`` was marked in the current transaction. ``once``: the marks are
    used up (a second call reads afresh)."""
    current = connection.atomic_blocks[0] if connection.in_atomic_block else None
    found = current is not None and all(getattr(r, "_locked_in", None) is current for r in rows)
    if once:
        for row in rows:
            row._locked_in = None
    return found
