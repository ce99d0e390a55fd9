"""The steps of the post-battle sequence, by number, in the rulebook's order (campaigns text,
the post-battle sequence; Mayhem in Mordheim adds step 0 and the treasury's containers)."""

from __future__ import annotations

from battles.aftermath.carried_items import CarriedItems
from battles.aftermath.dramatis_personae import DramatisPersonae
from battles.aftermath.engine import Step
from battles.aftermath.experience import Experience
from battles.aftermath.exploration import Exploration
from battles.aftermath.injuries import Injuries
from battles.aftermath.rare_items import RareItems
from battles.aftermath.rating import UpdateRating
from battles.aftermath.reallocation import Reallocate
from battles.aftermath.recruits import Recruits
from battles.aftermath.veterans import Veterans
from battles.aftermath.wyrdstone import SellWyrdstone

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
