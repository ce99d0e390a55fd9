"""Choosing the scenario by the dice (campaigns text, pre-battle sequence): the player with the
lowest warband rating rolls 2D6 on the rulebook's scenario table, or, for three warbands or
more, on the Chaos on the Streets table of multiplayer scenarios; a 2 or a 12 lets the
lowest-rated player choose. The tables name the chapter's numbers, so a scenario whose data
is not loaded is still named."""

from __future__ import annotations

from dataclasses import dataclass

from battles.rules import scenarios

# campaigns text, Mordheim rulebook scenario table: 2D6 → the chapter's number (None: choose)
RULEBOOK: dict[int, int | None] = {
    2: None, 3: 5, 4: 7, 5: 3, 6: 8, 7: 2, 8: 4, 9: 9, 10: 6, 11: 1, 12: None,
}  # fmt: skip
# campaigns text, Chaos on the Streets scenarios (Town Cryer #5): its "Scenario 1" to "7" are
# the chapter's 11 (Treasure Hunt) to 17 (Monster Hunt)
MULTIPLAYER: dict[int, int | None] = {
    2: None, 3: 17, 4: 14, 5: 11, 6: 11, 7: 12, 8: 16, 9: 16, 10: 15, 11: 13, 12: None,
}  # fmt: skip
NAMES = {
    1: "Defend the Find", 2: "Skirmish", 3: "Wyrdstone Hunt", 4: "Breakthrough",
    5: "Street Fight", 6: "Chance Encounter", 7: "Hidden Treasure", 8: "Occupy",
    9: "Surprise Attack", 11: "Treasure Hunt", 12: "Street Brawl", 13: "The Lost Prince",
    14: "The Wizard's Mansion", 15: "The Pool", 16: "Ambush!", 17: "Monster Hunt",
}  # fmt: skip


@dataclass(frozen=True)
class ScenarioRoll:
    faces: tuple[int, ...]
    table: str  # which table was rolled on
    number: int | None  # the chapter's number; None: the lowest-rated player chooses
    name: str

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def key(self) -> str:
        """The scenario's key when its data is loaded, else ""."""
        found = scenarios.by_number(self.number) if self.number else None
        return found.key if found else ""


def table_for(warbands: int) -> tuple[str, dict[int, int | None]]:
    if warbands >= 3:
        return "the multiplayer scenario table", MULTIPLAYER
    return "the rulebook's scenario table", RULEBOOK


def roll_scenario(dice, *, warbands: int) -> ScenarioRoll:
    """Roll 2D6 on the table for so many warbands."""
    name, table = table_for(warbands)
    faces = tuple(dice.roll(2, 6, f"Scenario: 2D6 on {name}").faces)
    number = table[sum(faces)]
    shown = NAMES[number] if number else "the lowest-rated player chooses"
    return ScenarioRoll(faces, name, number, shown)
