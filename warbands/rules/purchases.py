"""Pure rules of an item whose purchase after the warband's founding takes more than its price
(reference/02-weapons-armour-equipment.md). No Django, no ORM, dice injected.

- Wolfcloak (Middenheim heroes): bought later, the hero pays the price (the journey to
  Middenheim and the hunt) and must then roll his Strength or less on a D6 to slay the wolf
  and wear its cloak. At the founding no roll is made. Reading where the text is silent: a
  failed hunt spends the money and wins no cloak, and the cloak is won by a hero, so it is
  never bought into the stash.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["WOLFCLOAK", "WolfHunt", "needs_wolf_hunt", "wolf_hunt"]

WOLFCLOAK = "wolfcloak"


@dataclass(frozen=True)
class WolfHunt:
    hero: str
    roll: int
    strength: int

    @property
    def slain(self) -> bool:
        """The D6 is equal to or under the hero's Strength."""
        return self.roll <= self.strength


def needs_wolf_hunt(item_key: str, *, being_founded: bool) -> bool:
    """A Wolfcloak bought after the warband's founding needs its hunt."""
    return item_key == WOLFCLOAK and not being_founded


def wolf_hunt(dice, *, hero: str, strength: int) -> WolfHunt:
    """The hero's D6 against his Strength for a Wolfcloak."""
    roll = dice.roll(1, 6, f"{hero}: the wolf hunt for a Wolfcloak (D6, {strength} or less)")
    return WolfHunt(hero, roll.total, strength)
