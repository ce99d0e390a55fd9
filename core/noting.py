"""Rows a block of code writes, noted as they are written: a post-battle step's ledger entries
(``warbands.treasury.noting_entries``), a task's rolls for the dice log, held unsaved
(``battles.dice.holding_rolls``). Exactly those rows, whatever other requests write meanwhile;
outside any block nothing is noted."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Noting:
    def __init__(self, name: str) -> None:
        self._rows: ContextVar[list | None] = ContextVar(name, default=None)

    @contextmanager
    def into(self, rows: list) -> Iterator[list]:
        """Append to ``rows`` every row (or primary key) noted inside the block, in order."""
        token = self._rows.set(rows)
        try:
            yield rows
        finally:
            self._rows.reset(token)

    def note(self, row) -> bool:
        """Note ``row`` in the innermost block; False outside any block."""
        if (rows := self._rows.get()) is None:
            return False
        rows.append(row)
        return True
