"""Buying from a warrior's equipment list (core rules, Trading and the lists' own pages): the
list's price for one model, the free first dagger, the Possessed's doubled mutations, and what
refuses a purchase. Pure: no Django, no ORM."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.errors import RuleViolation
from core.words import possessive

__all__ = ["Buyer", "ListEntry", "check_purchase", "price_per_model"]


@dataclass(frozen=True)
class ListEntry:
    """An item on one of the warrior's equipment lists, at its list price."""

    item_key: str
    item_name: str
    category: str
    price: int
    first_free: bool = False
    heroes_only: bool = False
    recruitment_only: bool = False
    repeat_price_multiplier: int = 1


@dataclass(frozen=True)
class Buyer:
    """The warrior (or henchman group) being equipped."""

    name: str
    is_hero: bool
    models: int
    owned_item_keys: Sequence[str] = field(default_factory=tuple)
    owned_categories: Sequence[str] = field(default_factory=tuple)
    being_recruited: bool = True
    founding: bool = False  # the warband is being mustered


def price_per_model(entry: ListEntry, buyer: Buyer) -> int:
    """The list price, with the dagger's first-free rule and the mutations' doubling.

    Core rules: every warrior's first dagger is free: it comes with him when he is hired, so a
    dagger bought while the warband is founded is free only when he has none, and one bought
    afterwards costs its price (``warbands.rules.trading``). Cult of the Possessed, Mutations:
    the first mutation costs the listed price, the second and later ones for the same model
    double.
    """
    if entry.first_free and buyer.founding and entry.item_key not in buyer.owned_item_keys:
        return 0
    if entry.repeat_price_multiplier > 1 and entry.category in buyer.owned_categories:
        return entry.price * entry.repeat_price_multiplier
    return entry.price


def check_purchase(
    entries: Sequence[ListEntry],
    item_key: str,
    buyer: Buyer,
    *,
    models: int,
    gold: int | None,
) -> tuple[ListEntry, int]:
    """Refuse an item the warrior may not have; otherwise return the entry and total cost
    (refused too when it costs more than ``gold``; ``None``: the caller checks the price).

    Henchmen in a group carry identical equipment (core rules, Henchmen), so a group buys for
    every model at once: ``models`` must be the group size.
    """
    entry = next((e for e in entries if e.item_key == item_key), None)
    if entry is None:
        raise RuleViolation(f"That item is not on {possessive(buyer.name)} equipment list.")
    if entry.heroes_only and not buyer.is_hero:
        raise RuleViolation(f"{entry.item_name} is for heroes only.")
    if entry.recruitment_only and not buyer.being_recruited:
        raise RuleViolation(f"{entry.item_name} can only be bought when the warrior is recruited.")
    if models != buyer.models:
        raise RuleViolation(
            f"Henchmen in a group are equipped alike: {entry.item_name} must be bought for all "
            f"{buyer.models} of {buyer.name}."
        )
    cost = price_per_model(entry, buyer) * models
    if gold is not None and cost > gold:
        raise RuleViolation(f"{entry.item_name} costs {cost} gc but only {gold} gc are left.")
    return entry, cost
