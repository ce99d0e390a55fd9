"""What is already known of each side at the end of the game, so that step 0's questions
(Mayhem in Mordheim, carried items) start from it rather than from nothing: the warriors left
on the table to secure items and the Quartermasters still on their feet.

Where it comes from, best first: what the warband already declared; the battle helper, which
knows each model's state when the game ended; the side entered on the report, which knows
who went out of action (a henchman group: how many of its models). None of them says whether a
Band of Pitters fought, so that question always starts from none.

Readings: a warrior "still on the table" is one not out of action (fleeing off the table puts
a model out of action in the helper). "Standing" Quartermasters are those not out of action,
knocked down or stunned when the game ended; the report does not know who was knocked down,
so from a report it counts the Quartermasters not out of action.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.models import Fighter, Participant, WarriorOutcome
from battles.rules import play
from warbands.models import Warrior

QUARTERMASTER = "quartermaster"
DOWN = (play.OUT_OF_ACTION, play.KNOCKED_DOWN, play.STUNNED)

DECLARED, HELPER, REPORT = "declared", "helper", "report"


@dataclass(frozen=True)
class AtTheEnd:
    """The numbers step 0 asks for, each None when nothing recorded it; ``source``: where
    they come from (``DECLARED``, ``HELPER``, ``REPORT``, or "" for nowhere)."""

    securers: int | None = None
    pitters: int | None = None
    quartermasters: int | None = None
    source: str = ""


def recorded(participant: Participant) -> AtTheEnd:
    """What step 0's form starts from for ``participant`` (a few queries, whatever the
    league's size)."""
    if participant.carried_items_declared or participant.declaration_proposed_by_id:
        return AtTheEnd(
            participant.securers, participant.pitters, participant.quartermasters, DECLARED
        )
    fighters = list(
        Fighter.objects.filter(side__participant=participant, game__ended_at__isnull=False)
        .values_list("state", "warrior_id")
    )  # fmt: skip
    if fighters:
        masters = _quartermasters({w for state, w in fighters if state not in DOWN})
        on_table = sum(1 for state, _ in fighters if state != play.OUT_OF_ACTION)
        return AtTheEnd(securers=on_table, quartermasters=masters, source=HELPER)
    if participant.side_entered_at is None:
        return AtTheEnd()
    outcomes = list(
        WarriorOutcome.objects.filter(participant=participant).select_related("warrior")
    )
    left = {
        o.warrior_id: 0
        if o.out_of_action
        else max(o.warrior.group_size - o.models_out_of_action, 0)
        for o in outcomes
    }
    masters = _quartermasters({warrior for warrior, models in left.items() if models})
    return AtTheEnd(securers=sum(left.values()), quartermasters=masters, source=REPORT)


def _quartermasters(warrior_ids: set[int]) -> int:
    if not warrior_ids:
        return 0
    known = Warrior.objects.filter(pk__in=warrior_ids, skills__skill__key=QUARTERMASTER)
    return known.distinct().count()
