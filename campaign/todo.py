"""What waits for a user: the one shape every source of his to-do list returns.

The list itself is built in ``league.todo`` from one small source per kind; the shape lives
here, low in the layers, so that a source of any app (``battles``, ``warbands``) may build its
items itself. An item says what is to be done and where, in public words only: never what a
treasury holds, a ransom's amount or a secret roll, since it is shown on the dashboard and
sent by e-mail (``core.notices``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    """One thing for the user to do. ``kind``: which source made it (a short name, stable:
    tests and mails read it); ``text``: what to do, in public words; ``campaign_id`` and
    ``campaign``: where (the campaign's name); ``url``: the page where it is done, a path;
    ``since``: since when it waits (None when nothing says)."""

    kind: str
    text: str
    campaign_id: int
    campaign: str
    url: str
    since: datetime.datetime | None = None


# A source: the user in, his items of one kind out, in a fixed number of queries whatever the
# league's size (``tests/league/test_todo.py`` counts them at two sizes).
Source = Callable[[object], Iterable[Waiting]]
