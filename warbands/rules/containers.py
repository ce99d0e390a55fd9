"""Mayhem in Mordheim storage containers: capacities, heaviness, nesting.

Source: ../shared/rules/mim-carried-items-and-storage-containers.txt ("Storage Container
Descriptions"). Pure: plain values in, plain values out.

Readings where the text leaves a number open (each tested in tests/rules/test_containers.py):

- **Carts and the coach roof count space.** A cart takes "five treasure chests, ten large sacks,
  or twenty backpacks/saddle bags", the coach roof "two treasure chests or four large sacks or
  eight backpacks/saddle bags". Both lists keep the same proportions, so we read them as space:
  a chest takes 4 units, a large sack 2, a backpack or saddle bags 1; a cart holds 20 units and
  the roof 8, in any mix (a cart with 3 chests still has room for 4 sacks).
- **A cart's open capacity** is what five treasure chests would hold (500 gc, 100 shards, 50
  items), less the maxima of every container placed in it ("reduce the amount of treasure that
  can be openly held in it by the storage container's maximum values"), never below zero.
- **Pack animals** carry "up to two treasure chests and four large sacks": both at once, and
  nothing else (ridden animals may carry only saddle bags).
- **A warmount** carries one set of saddle bags ("One set of saddle bags can be attached to a
  mount").
- **Heavy** applies to the carried storage containers (backpack, large sack, saddle bags,
  treasure chest); a pouch can never reach the thresholds, and carts, coaches and animals are
  not carried items.
- **A carrier is heavy only where the text halves its movement**: a riding horse with a heavy
  container on its back (its movement is halved, "not so" as for the mule). The mule moves
  normally with heavy loads, the cart "moves normally even when carrying heavy storage
  containers" and the coach is treated as a cart, so none of them is ever heavy, whatever it
  carries (see ``carrier_is_heavy``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.errors import RuleViolation
from core.words import A, a, plural, possessive

__all__ = [
    "BOXES",
    "CARRIERS",
    "CART_OPEN_CAPACITY",
    "CATALOGUE",
    "HEAVY_GOLD",
    "HEAVY_ITEMS",
    "HEAVY_WYRDSTONE",
    "Capacity",
    "ContainerSpec",
    "Contents",
    "carrier_is_heavy",
    "check_contents",
    "check_placement",
    "is_heavy",
    "open_capacity",
    "spec",
]

# Rule 3: "Any storage container holding 50+ Gold Crowns or 10+ Wyrdstone Shards or 5+ Stored
# Items becomes Heavy."
HEAVY_GOLD = 50
HEAVY_WYRDSTONE = 10
HEAVY_ITEMS = 5


@dataclass(frozen=True)
class Capacity:
    gold: int
    wyrdstone: int
    items: int


@dataclass(frozen=True)
class Contents:
    gold: int = 0
    wyrdstone: int = 0
    items: int = 0


@dataclass(frozen=True)
class ContainerSpec:
    kind: str
    name: str
    capacity: Capacity  # what it holds itself (openly, for a cart)
    price: int | None  # gold crowns; None: not bought as a container (a warmount)
    rarity: int | None  # None: Common
    carried_item: bool = True  # a marker on the table that can be left uncontrolled
    either_or: bool = False  # the pouch: gold or wyrdstone, not both
    hero_only: bool = False  # the pouch is hero equipment
    size: int = 0  # space it takes in a cart or on a coach roof
    space: int = 0  # space it offers to other containers (cart 20, roof 8)
    carries: tuple[tuple[str, int], ...] = ()  # per-kind limits (pack animal, warmount)
    open_holding: bool = False  # a cart also holds treasure openly
    can_be_heavy: bool = False


NOTHING = Capacity(0, 0, 0)
FIVE_CHESTS = Capacity(500, 100, 50)
CART_OPEN_CAPACITY = FIVE_CHESTS
_BOXES = ("treasure_chest", "large_sack", "backpack", "saddle_bags")

# The catalogue, row by row as the rule text prints it (GC, Wyrdstone, Stored Items, Price,
# Rarity).
CATALOGUE: dict[str, ContainerSpec] = {
    spec.kind: spec
    for spec in (
        ContainerSpec("backpack", "Backpack", Capacity(25, 3, 1), 4, None, size=1,
                      can_be_heavy=True),
        ContainerSpec("large_sack", "Large Sack", Capacity(50, 10, 5), 2, None, size=2,
                      can_be_heavy=True),
        ContainerSpec("pouch", "Pouch", Capacity(6, 1, 0), 2, None, carried_item=False,
                      either_or=True, hero_only=True),
        ContainerSpec("saddle_bags", "Saddle Bags", Capacity(25, 5, 2), 5, 6, size=1,
                      can_be_heavy=True),
        ContainerSpec("treasure_chest", "Treasure Chest", Capacity(100, 20, 10), 10, None,
                      size=4, can_be_heavy=True),
        ContainerSpec("pack_mule", "Pack Animal (mule)", NOTHING, 20, 7,
                      carries=(("treasure_chest", 2), ("large_sack", 4))),
        ContainerSpec("pack_horse", "Pack Animal (horse)", NOTHING, 40, 8,
                      carries=(("treasure_chest", 2), ("large_sack", 4))),
        ContainerSpec("cart_mule", "Cart (mule)", FIVE_CHESTS, 60, 7, space=20,
                      open_holding=True),
        ContainerSpec("cart_horse", "Cart (horse)", FIVE_CHESTS, 80, 8, space=20,
                      open_holding=True),
        ContainerSpec("opulent_coach", "Opulent Coach", NOTHING, 250, 10, space=8),
        ContainerSpec("warmount", "Warmount", NOTHING, None, None,
                      carries=(("saddle_bags", 1),)),
    )
}  # fmt: skip


CARRIERS = tuple(kind for kind, c in CATALOGUE.items() if c.space or c.carries)
BOXES = _BOXES


def spec(kind: str) -> ContainerSpec:
    try:
        return CATALOGUE[kind]
    except KeyError:
        raise ValueError(f"unknown storage container {kind!r}") from None


def is_heavy(kind: str, contents: Contents) -> bool:
    """Rule 3 of storage containers: 50+ gc, 10+ shards or 5+ stored items."""
    if not spec(kind).can_be_heavy:
        return False
    return (
        contents.gold >= HEAVY_GOLD
        or contents.wyrdstone >= HEAVY_WYRDSTONE
        or contents.items >= HEAVY_ITEMS
    )


# Carriers whose movement a heavy load halves: only the riding horse as a pack animal (MiM,
# Pack Animal: the mule is "not halved ... Not so for the riding horse").
SLOWED_BY_HEAVY_LOADS = frozenset({"pack_horse"})


def carrier_is_heavy(kind: str, *, load_is_heavy: bool) -> bool:
    """Whether a pack animal, cart, coach or warmount counts as a heavy carried item at the end
    of the game: only when a heavy load halves its movement. Carts, the coach and the mule move
    normally with heavy containers, so a heavy load does not make them heavy."""
    return load_is_heavy and kind in SLOWED_BY_HEAVY_LOADS


def open_capacity(kind: str, children: Iterable[str] = ()) -> Capacity:
    """What a container may hold itself: its catalogue maxima, and for a cart the five-chest
    allowance less the maxima of every container placed in it."""
    own = spec(kind)
    if not own.open_holding:
        return own.capacity
    gold, wyrdstone, items = own.capacity.gold, own.capacity.wyrdstone, own.capacity.items
    for child in children:
        child_capacity = spec(child).capacity
        gold -= child_capacity.gold
        wyrdstone -= child_capacity.wyrdstone
        items -= child_capacity.items
    return Capacity(max(gold, 0), max(wyrdstone, 0), max(items, 0))


def check_contents(kind: str, contents: Contents, children: Sequence[str] = ()) -> None:
    """Refuse contents a container cannot hold: over any maximum, negative, or the pouch
    holding gold and wyrdstone together."""
    own = spec(kind)
    for value, name in (
        (contents.gold, "gold crowns"),
        (contents.wyrdstone, "wyrdstone shards"),
        (contents.items, "stored items"),
    ):
        if value < 0:
            raise RuleViolation(f"The {own.name} does not have that many {name}.")
    capacity = open_capacity(kind, children)
    if own.either_or and contents.gold and contents.wyrdstone:
        raise RuleViolation(
            f"{A(own.name)} holds up to {capacity.gold} gc or {capacity.wyrdstone} wyrdstone "
            "shard, not both."
        )
    for value, limit, name in (
        (contents.gold, capacity.gold, "gc"),
        (contents.wyrdstone, capacity.wyrdstone, "wyrdstone"),
        (contents.items, capacity.items, "stored items"),
    ):
        if value > limit:
            where = "openly in the " if own.open_holding else "in the "
            raise RuleViolation(
                f"Only {limit} {name} fit {where}{own.name} (that would make {value})."
            )


def check_placement(
    child: str, parent: str, siblings: Sequence[str], parent_contents: Contents | None = None
) -> None:
    """Refuse putting a ``child`` container on or into ``parent`` that already carries
    ``siblings``. For a cart, its open contents must still fit the smaller open capacity."""
    carrier = spec(parent)
    placed = spec(child)
    if carrier.carries:
        limits = dict(carrier.carries)
        if child not in limits:
            allowed = " and ".join(spec(kind).name for kind in limits)
            raise RuleViolation(f"{A(carrier.name)} carries only {allowed}.")
        if sum(1 for sibling in siblings if sibling == child) + 1 > limits[child]:
            raise RuleViolation(
                f"{A(carrier.name)} carries at most {plural(limits[child], placed.name)}."
            )
        return
    if not carrier.space:
        raise RuleViolation(f"Nothing can be put in {a(carrier.name)}.")
    if child not in _BOXES:
        raise RuleViolation(f"{A(placed.name)} cannot go in {a(carrier.name)}.")
    used = sum(spec(sibling).size for sibling in siblings)
    if used + placed.size > carrier.space:
        raise RuleViolation(
            f"There is no room for {a(placed.name)} in the {carrier.name}: it holds five "
            "treasure chests, ten large sacks or twenty backpacks/saddle bags"
            if carrier.space == 20
            else f"There is no room for {a(placed.name)} on the {possessive(carrier.name)} roof: "
            "it holds two treasure chests, four large sacks or eight backpacks/saddle bags"
        )
    if carrier.open_holding and parent_contents is not None:
        check_contents(parent, parent_contents, [*siblings, child])
