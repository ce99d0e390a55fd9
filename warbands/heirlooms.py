"""A family heirloom bought at half price when the warband is founded: the ``heirloom`` effect
(the Kislevites' Druzhina Captain, Inheritance).

The player picks the item ("as his family heirloom" on the muster board's buy form), once, from
the warrior's own equipment lists. Readings where the text is silent or loose:

- Half the price is rounded up: the warband pays whole crowns, and a half crown never turns
  into gold it did not have.
- Which item is the heirloom is not written down: it is the one he paid less than its list
  price for, and more than nothing (at the muster nothing else is cheaper than the list: a
  first dagger is free, mutations and gromril cost more). Giving it back while mustering
  refunds what was paid and leaves the heirloom to buy again.
- Only while the warband is founded (the muster's purchases); replacing a lost heirloom at one
  and a half times its price, and the -1 until then, are played at the table.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.errors import RuleViolation
from warbands.models import Warrior, WarriorType

__all__ = ["half_price", "has_heirloom", "heirloom_open", "heirloom_price"]


def has_heirloom(warrior_type: WarriorType) -> bool:
    return any(rule.get("effect") == "heirloom" for rule in warrior_type.special_rules or [])


def half_price(price: int) -> int:
    """Half of ``price``, rounded up (see the module's readings)."""
    return (price + 1) // 2


def heirloom_open(warrior: Warrior, entries: Iterable) -> bool:
    """Whether ``warrior`` may still buy his heirloom: his type has one and none of his items
    was bought below its list price (``entries``: his lists' ``EquipmentListEntry`` rows)."""
    if not has_heirloom(warrior.warrior_type):
        return False
    listed = {entry.item.key: entry.price for entry in entries}
    return not any(
        0 < owned.price_paid < listed.get(owned.item.key, 0) for owned in warrior.carried()
    )


def heirloom_price(warrior: Warrior, entries: Iterable, price: int, *, gold: int) -> int:
    """What ``warrior`` pays for an item of ``price`` bought as his heirloom, with ``gold``
    left in the purse; refused when he has none to buy, has bought it, or cannot pay."""
    if not has_heirloom(warrior.warrior_type):
        raise RuleViolation(f"{warrior.name} has no family heirloom to buy.")
    if not heirloom_open(warrior, entries):
        raise RuleViolation(f"{warrior.name} has bought his family heirloom already.")
    if price == 0:
        raise RuleViolation("That item costs him nothing already: choose another heirloom.")
    cost = half_price(price) * warrior.group_size
    if cost > gold:
        raise RuleViolation(f"As his heirloom it costs {cost} gc but only {gold} gc are left.")
    return half_price(price)
