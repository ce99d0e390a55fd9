"""The scenarios' own income, taken in post-battle step 3 beside what the exploration finds
(``battles.rules.scenarios``: ``Scenario.income`` and ``most_shards``): the wyrdstone a
scenario gives a warband, and the chest of Hidden Treasure (rulebook scenario 7).

Readings where the texts are silent:

- The shards a side entered with its report are taken as entered, at most the scenario's
  ``most_shards`` (none from a listed scenario without wyrdstone of its own; ten for one the
  app does not list, as ``battles.report.sides`` checks on entry).
- The chest goes to the warband that won (the scenario: the victorious warband gains it).
  Its dice are rolled in the table's order: 3D6 for the gold, then a D6 for each find, and a
  find of D3 pieces rolls its D3 right after the D6 that found it.
- The gems are the equipment catalogue's Gem, a treasure that sells for 10 gc (as the gems
  exploration finds in its Hidden Treasure): D3 of them go into the unstored pile, so the
  player sells them when he sells items, or keeps them.
- Light armour and the sword are the catalogue's, found like exploration's items.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battles.rules.scenarios import Scenario

__all__ = [
    "CHEST",
    "CHEST_GOLD_DICE",
    "SHARDS",
    "Chest",
    "ChestFind",
    "hidden_treasure_chest",
    "scenario_shards",
]


def scenario_shards(played: Scenario, entered: int) -> int:
    """The shards ``played`` gives a warband whose side entered ``entered``: at most the
    scenario's ``most_shards``."""
    return max(0, min(entered, played.most_shards))


@dataclass(frozen=True)
class ChestFind:
    """One find of the chest: ``key`` is the catalogue's item (``SHARDS`` for wyrdstone),
    named ``name``, found on a D6 at or above ``needed``; ``d3``: D3 of them. ``label``: the
    roll's name in the summary."""

    key: str
    name: str
    needed: int
    d3: bool = False
    label: str = ""


SHARDS = "shards"
CHEST_GOLD_DICE = 3  # 3D6 gold crowns, always found

# Rulebook scenario 7, Hidden Treasure: what the chest may hold, each on its own D6.
CHEST: tuple[ChestFind, ...] = (
    ChestFind(SHARDS, "Wyrdstone shard", 5, d3=True, label="wyrdstone"),
    ChestFind("light_armour", "Light armour", 4, label="light armour"),
    ChestFind("sword", "Sword", 3, label="a sword"),
    ChestFind("gem", "Gem", 5, d3=True, label="gems worth 10 gc each"),
)


@dataclass
class Chest:
    """What the chest held: gold, shards, items as (catalogue key, name, how many), and each
    roll read, for the step's summary."""

    gold: int
    shards: int = 0
    items: list[tuple[str, str, int]] = field(default_factory=list)
    detail: list[str] = field(default_factory=list)


def hidden_treasure_chest(dice) -> Chest:
    """Open the chest: 3D6 gc, then a D6 for each find of ``CHEST`` (at or above its number,
    it is in the chest; D3 of it when the table says so)."""
    gold = dice.roll(CHEST_GOLD_DICE, 6, "Hidden Treasure chest: gold crowns (3D6)")
    chest = Chest(gold=gold.total)
    chest.detail.append(f"3D6 {'+'.join(map(str, gold.faces))} = {gold.total} gc")
    for find in CHEST:
        what = find.label or find.name.lower()
        face = dice.roll(1, 6, f"Hidden Treasure chest: {what} ({find.needed}+)").total
        if face < find.needed:
            chest.detail.append(f"{what} ({find.needed}+): {face}, none")
            continue
        count = 1
        if find.d3:
            count = (
                dice.roll(1, 6, f"Hidden Treasure chest: how many, {what} (D3)").total + 1
            ) // 2
        found = f"found {count}" if find.d3 else "found"
        chest.detail.append(f"{what} ({find.needed}+): {face}, {found}")
        if find.key == SHARDS:
            chest.shards += count
        else:
            chest.items.append((find.key, find.name, count))
    return chest
