"""Steps 3 to 9 of the post-battle sequence: exploration, selling wyrdstone, veterans, rare
items, dramatis personae, recruits and common items, and reallocation."""

from __future__ import annotations

from battles.sequence import Step


class Exploration(Step):
    number = 3


class SellWyrdstone(Step):
    number = 4


class Veterans(Step):
    number = 5


class RareItems(Step):
    number = 6


class DramatisPersonae(Step):
    number = 7


class Recruits(Step):
    number = 8


class Reallocate(Step):
    number = 9


STEPS = {step.number: step for step in (Exploration(), SellWyrdstone(), Veterans(), RareItems(),
                                        DramatisPersonae(), Recruits(), Reallocate())}  # fmt: skip
