"""The steps of the post-battle sequence, by number, in the rulebook's order (campaigns text,
the post-battle sequence; Mayhem in Mordheim adds step 0 and the treasury's containers)."""

from __future__ import annotations

from battles.sequence.carried_items import CarriedItems
from battles.sequence.dramatis_personae import DramatisPersonae
from battles.sequence.engine import Step
from battles.sequence.experience import Experience
from battles.sequence.exploration import Exploration
from battles.sequence.injuries import Injuries
from battles.sequence.rare_items import RareItems
from battles.sequence.rating import UpdateRating
from battles.sequence.reallocation import Reallocate
from battles.sequence.recruits import Recruits
from battles.sequence.veterans import Veterans
from battles.sequence.wyrdstone import SellWyrdstone

STEPS: dict[int, Step] = {
    step.number: step
    for step in (
        CarriedItems(),  # 0
        Injuries(),  # 1
        Experience(),  # 2
        Exploration(),  # 3
        SellWyrdstone(),  # 4
        Veterans(),  # 5
        RareItems(),  # 6
        DramatisPersonae(),  # 7
        Recruits(),  # 8
        Reallocate(),  # 9
        UpdateRating(),  # 10
    )
}


def handler(number: int) -> Step:
    """The step numbered ``number`` (0 to 10)."""
    return STEPS[number]
