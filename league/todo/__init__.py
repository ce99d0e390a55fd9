"""What waits for a user, across every campaign he is in: one list, built from one small
source per kind. The dashboard shows it as "Waiting for you"; the daily digest mails it
(``league.todo.digest``).

Each source is a function ``user -> Iterable[campaign.todo.Waiting]`` that costs a fixed
number of queries whatever the league's size, and says only what is to be done and where:
an item is mailed, so it never names what a treasury holds, a ransom's amount or a secret
roll. A new kind is one more function in ``SOURCES``.
"""

from __future__ import annotations

import datetime

from campaign.todo import Source, Waiting
from league.todo import aftermath, organising, reports

SOURCES: tuple[Source, ...] = (
    reports.sides_to_enter,
    reports.reports_to_confirm,
    reports.helper_turns,
    aftermath.carried_items_to_declare,
    aftermath.sequences_to_play,
    aftermath.captive_offers,
    organising.corrections_to_approve,
    organising.declarations_proposed,
    # --- Challenges and fixtures (``battles/schedule/``): added here at merge -------------
    # ``schedule.challenges_awaiting(user)`` (a challenge for one of his warbands to accept
    # or refuse) and ``schedule.open_fixtures_for(user)`` (a fixture of the round his warband
    # has yet to play). Each must be a ``campaign.todo.Source``: take the user, return
    # ``Waiting`` items (``kind`` "challenge" and "fixture"; the campaign's id and name, a
    # path, since when), read open campaigns only, in a fixed number of queries (one, with
    # ``select_related`` of the campaign), and say nothing secret. Then list them here and
    # add a row for each to ``tests/league/test_todo.py``'s growth test.
)

_EPOCH = datetime.datetime.min.replace(tzinfo=datetime.UTC)


def waiting_for(user) -> list[Waiting]:
    """Everything waiting for the user, the longest waiting first."""
    items = [item for source in SOURCES for item in source(user)]
    return sorted(items, key=lambda item: item.since or _EPOCH)
