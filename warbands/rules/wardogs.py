"""Wardogs in the warband's size. Pure.

A wardog is a Hero's equipment (an item of the chart), yet it fights as a warrior and counts
towards the warband's maximum number of warriors (the equipment chapter, Wardogs). A warrior
with the ``wardogs_free_slots`` skill (Animal Friendship: Ostlanders, Horned Hunters) keeps up
to two of the wardogs he owns out of that count. Readings: a wardog is never a hero; a
warrior's wardogs beyond his two free ones count as anyone's; a list's own hounds (the Horned
Hunters' Warhounds) are henchmen whom no warrior owns, so the skill
leaves none of them out. Buying a wardog (step 6) or finding one (exploration) is not refused
at the maximum: the next hire is.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["FREE_WARDOGS", "WARDOG", "WARDOGS_ENTRY", "counted_wardogs"]

#: The chart's wardog (equipment.json).
WARDOG = "wardog"
#: How the wardogs stand among a roster's entries (``roster.RosterEntry.type_key``).
WARDOGS_ENTRY = "item:wardog"
#: Animal Friendship: "up to two wardogs" of his own leave the count.
FREE_WARDOGS = 2


def counted_wardogs(owners: Iterable[tuple[int, bool]]) -> int:
    """The wardogs that count towards the warband's size: ``owners`` is, for each warrior who
    owns any, how many he owns and whether he has Animal Friendship."""
    return sum(owned - (min(owned, FREE_WARDOGS) if friend else 0) for owned, friend in owners)
