"""Reads that several sources of the list share, made once per list.

``waiting_for`` opens a scope (``one_list``); inside it a read marked ``@shared`` runs once per
user, and the sources that need it (a side to enter, a report to confirm, carried items to
declare all read the user's participations) filter its rows in Python. Outside a scope (a
source called on its own) it simply runs: the scope never outlives the list, so no read is
kept from one list to the next."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

_reads: ContextVar[dict | None] = ContextVar("todo_shared_reads", default=None)


@contextmanager
def one_list() -> Iterator[None]:
    token = _reads.set({})
    try:
        yield
    finally:
        _reads.reset(token)


def shared(read: Callable[[object], T]) -> Callable[[object], T]:
    @functools.wraps(read)
    def once(user) -> T:
        reads = _reads.get()
        if reads is None:
            return read(user)
        key = (read.__qualname__, user.pk)
        if key not in reads:
            reads[key] = read(user)
        return reads[key]

    return once
