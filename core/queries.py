"""Small query helpers every app uses."""

from __future__ import annotations


def one(queryset):
    """The row ``queryset`` finds (it filters on a primary key), or None: ``first()`` without
    its ordering, which costs Django more to build than the key lookup costs PostgreSQL."""
    return next(iter(queryset.order_by()[:1]), None)
