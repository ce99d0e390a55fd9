"""Rows a block of code writes, noted as they are written: a post-battle step's ledger entries
(``warbands.treasury.noting_entries``), a task's rolls in the dice log
(``battles.dice.noting_rolls``). Exactly those rows, whatever other requests write meanwhile;
outside any block nothing is noted."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Noting:
    def __init__(self, name: str) -> None:
        self._rows: ContextVar[list[int] | None] = ContextVar(name, default=None)

    @contextmanager
    def into(self, rows: list[int]) -> Iterator[list[int]]:
        """Append to ``rows`` the primary key of every row noted inside the block, in order."""
        token = self._rows.set(rows)
        try:
            yield rows
        finally:
            self._rows.reset(token)

    def note(self, pk: int) -> None:
        if (rows := self._rows.get()) is not None:
            rows.append(pk)
