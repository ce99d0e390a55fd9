"""The Mordheim map (rulebook, equipment; 02-weapons-armour-equipment.md): "When you buy a map,
roll a D6":

1 Fake: your opponent may automatically choose the next scenario you play.
2-3 Vague: you may re-roll any one dice during the next exploration phase; the second roll
stands.
4 Catacomb map: you may automatically choose the scenario next time you fight a battle.
5 Accurate: you may re-roll up to three dice during the next exploration phase; the second
roll stands.
6 Master map: from now on you may always re-roll one dice when rolling on the Exploration chart
as long as the Hero who possesses this map was not taken out of action in the battle.

Pure: the D6 in, what it gives out. The scenario choices are told to the players (the league
does not pick scenarios for them).
"""

from __future__ import annotations

from dataclasses import dataclass

KEY = "mordheim_map"


@dataclass(frozen=True)
class MapRoll:
    name: str
    rerolls: int = 0  # exploration dice re-rolled at the next exploration
    master: bool = False  # one die re-rolled at every exploration while its hero stands
    told: str = ""  # what the players carry out themselves

    def describe(self, roll: int) -> str:
        said = {
            "Fake": "worthless; the opponent may choose the next scenario you play",
            "Vague": "re-roll one exploration die at the next exploration",
            "Catacomb map": "you may choose the scenario next time you fight a battle",
            "Accurate": "re-roll up to three exploration dice at the next exploration",
            "Master map": "re-roll one exploration die at every exploration while a hero "
            "carrying the map was not taken out of action",
        }[self.name]
        return f"the Mordheim map (D6 {roll}) is {self.name}: {said}"


def map_roll(roll: int) -> MapRoll:
    """What a Mordheim map is, by the D6 rolled when it is bought."""
    if roll == 1:
        return MapRoll("Fake", told="Your opponent may choose the next scenario you play.")
    if roll in (2, 3):
        return MapRoll("Vague", rerolls=1)
    if roll == 4:
        return MapRoll(
            "Catacomb map", told="You may choose the scenario next time you fight a battle."
        )
    if roll == 5:
        return MapRoll("Accurate", rerolls=3)
    return MapRoll("Master map", master=True)
