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
from league.todo import aftermath, organising, reports, schedule
from league.todo.shared import one_list

SOURCES: tuple[Source, ...] = (
    reports.sides_to_enter,
    reports.reports_to_confirm,
    reports.helper_turns,
    reports.carried_items_to_declare,
    aftermath.sequences_to_play,
    aftermath.captive_offers,
    organising.corrections_to_approve,
    organising.declarations_proposed,
    schedule.challenges_to_answer,
)

_EPOCH = datetime.datetime.min.replace(tzinfo=datetime.UTC)


def waiting_for(user) -> list[Waiting]:
    """Everything waiting for the user, the longest waiting first. The sources share their
    common reads (``league.todo.shared``): a dozen queries at most, whatever the league."""
    with one_list():
        items = [item for source in SOURCES for item in source(user)]
    return sorted(items, key=lambda item: item.since or _EPOCH)
