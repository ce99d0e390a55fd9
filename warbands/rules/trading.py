"""Pure rules of what the traders sell, where and for how much: the Trading rules
(reference/03-campaigns-magic-optional-rules.md), each item's cost and availability
(reference/02-weapons-armour-equipment.md) and FACTS.md sections 6 and 7. No Django.

Where an item is bought, and at what price:

- the muster: a warrior from his own equipment lists, at the list price, rare items too and
  with no rarity roll (FACTS.md section 7): ``list_terms`` for a ``founding`` buyer;
- step 6: an item rare for the warband, once a hero's rarity roll reaches it, at the chart's
  price with its dice rolled then (``rare_terms``);
- step 8: a warrior from his own lists, Common items only, at the list price ("a new hireling
  can only buy Common items from his warband's equipment chart"): ``list_terms`` for a
  buyer not ``founding``; and for the stash, the chart's Common items at the chart's price
  (``stash_terms``).

What no trader sells (``Ware.for_sale`` false, and every treasure): the magical artefacts and
the Freetraders symbol found exploring, the treasures found exploring, a dramatis persona's own
gear. They are found, captured, or come with their owner; every path refuses them.

Readings where the texts are silent:
- A note of the chapter that changes an item's availability for some warriors ("Common for
  Warrior-Priests and Sisters of Sigmar", "Rare 6 for ...", "Common if warband includes
  Goblins", "Rare 7 for Skaven") is the availability for the warband list that has them
  (``Ware.rarity_for``): the Witch Hunters for their Warrior-Priest, the Orc Mob for its
  Goblins.
- A Common item whose chart price has dice (blessed water for the Sisters) costs the chart's
  price with its dice rolled when it is bought; from a warrior's own list, the list price.
- The first dagger is free when the warrior is hired, at the muster or in step 8 (he comes
  with it). One bought after the founding costs its price: sold for 1 gc and bought again for
  nothing, it would mint gold.
- Nothing else is free: a ware of no price is never offered.
- A Wolfcloak is won by a hero in the hunt (``purchases``), never bought into the stash;
  mutations and animals are never kept in a container, so never bought into the stash.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from core.errors import RuleViolation
from core.words import possessive
from warbands.rules.equipment_lists import Buyer, ListEntry, price_per_model
from warbands.rules.purchases import WOLFCLOAK
from warbands.rules.restrictions import Restriction, may_have

__all__ = [
    "NOT_STORED",
    "Offer",
    "Ware",
    "check_kit",
    "list_terms",
    "rare_offers",
    "rare_terms",
    "stash_offers",
    "stash_terms",
]

TREASURE = "treasure"
MUTATION = "mutation"
ANIMAL = "animal"
# Never kept in a container: a mutation is part of its warrior, an animal is no item to store.
NOT_STORED = (MUTATION, ANIMAL)


@dataclass(frozen=True)
class Ware:
    """An item of the catalogue as the traders see it. ``rarity`` is the chart's (None:
    Common); ``rarity_for`` the warband lists for which a note of the chapter changes it."""

    key: str
    name: str
    category: str
    price: int
    price_dice: str = ""
    rarity: int | None = None
    for_sale: bool = True
    restriction: Restriction = field(default_factory=Restriction)
    rarity_for: Mapping[str, int | None] = field(default_factory=dict)

    def rarity_of(self, warband: str) -> int | None:
        """Its availability for the warband list ``warband`` (None: Common)."""
        return self.rarity_for.get(warband, self.rarity)

    @property
    def sold(self) -> bool:
        """A trader sells it: not a find only, not treasure, and it has a price."""
        priced = self.price > 0 or bool(self.price_dice)
        return self.for_sale and self.category != TREASURE and priced

    def refusal(self, warband: str) -> str | None:
        """Why a warband of the list ``warband`` may not have it (``restrictions``)."""
        return may_have(self.name, self.restriction, warband)


@dataclass(frozen=True)
class Offer:
    """A ware offered on one path: what it costs there (the fixed part, and dice rolled when
    it is bought), how rare it is for this warband, and why this warband may not have it (an
    offer a warband may not take is shown, greyed, and refused when posted)."""

    ware: Ware
    price: int
    price_dice: str
    rarity: int | None
    refusal: str | None = None

    @property
    def key(self) -> str:
        return self.ware.key

    @property
    def name(self) -> str:
        return self.ware.name

    @property
    def label(self) -> str:
        return f"{self.price}+{self.price_dice} gc" if self.price_dice else f"{self.price} gc"

    @property
    def availability(self) -> str:
        return "Common" if self.rarity is None else f"Rare {self.rarity}"


def _check_sold(ware: Ware) -> None:
    if not ware.sold:
        raise RuleViolation(
            f"{ware.name} is not for sale: it is found (exploring, in a scenario) or comes "
            "with its owner, never bought."
        )


def stash_terms(ware: Ware | None, warband: str) -> Offer:
    """Step 8, bought into a container: a Common item of the chart (Common for this warband),
    at the chart's price. ``RuleViolation`` says why anything else is not offered here."""
    if ware is None:
        raise RuleViolation("Choose a Common item.")
    _check_sold(ware)
    if ware.category in NOT_STORED:
        raise RuleViolation(f"{ware.name} is never kept in a container: it is not for the stash.")
    if ware.key == WOLFCLOAK:
        raise RuleViolation("A Wolfcloak is won by a hero in the hunt: buy it for him.")
    rarity = ware.rarity_of(warband)
    if rarity is not None:
        raise RuleViolation(
            f"{ware.name} is Rare {rarity}: it is bought in step 6, after a rarity roll."
        )
    return Offer(ware, ware.price, ware.price_dice, None, ware.refusal(warband))


def rare_terms(ware: Ware | None, warband: str, *, roll: int) -> Offer:
    """Step 6: an item rare for this warband, found by a rarity roll of ``roll`` or more
    (FACTS.md section 6), at the chart's price."""
    if ware is None:
        raise RuleViolation("Choose a rare item or container.")
    _check_sold(ware)
    rarity = ware.rarity_of(warband)
    if rarity is None:
        raise RuleViolation(f"{ware.name} is Common: buy it in step 8, with no rarity roll.")
    if rarity > roll:
        raise RuleViolation(f"{ware.name} is Rare {rarity}: the roll was {roll}.")
    return Offer(ware, ware.price, ware.price_dice, rarity, ware.refusal(warband))


def list_terms(entry: ListEntry, ware: Ware, buyer: Buyer, warband: str) -> Offer:
    """A warrior buying from his own equipment lists, at the list price a model: any item of
    them while the warband is founded (``buyer.founding``), only those Common for this warband
    afterwards."""
    founding = buyer.founding
    _check_sold(ware)
    if entry.heroes_only and not buyer.is_hero:
        raise RuleViolation(f"{ware.name} is for heroes only.")
    rarity = ware.rarity_of(warband)
    if not founding and rarity is not None:
        raise RuleViolation(
            f"{ware.name} is Rare {rarity}: after the founding it is bought in step 6, after a "
            "rarity roll."
        )
    price = price_per_model(entry, buyer)
    if price <= 0 and not (founding and entry.first_free):
        raise RuleViolation(f"{ware.name} has no price on {possessive(buyer.name)} list.")
    return Offer(ware, price, "", rarity, ware.refusal(warband))


def check_kit(group: str, wares: Iterable[Ware]) -> None:
    """New henchmen join a group armed and equipped as it is, and pay for it (Trading, new
    recruits and existing henchmen groups): refused when the group carries what no trader
    sells, which they could not be given."""
    for ware in wares:
        if not ware.sold:
            raise RuleViolation(
                f"{group} carry {ware.name}, which no trader sells: new models could not be "
                "equipped like them."
            )


def _offered(terms, wares: Iterable[Ware], *args, **kwargs) -> list[Offer]:
    offers = []
    for ware in wares:
        try:
            offers.append(terms(ware, *args, **kwargs))
        except RuleViolation:
            continue
    return offers


def stash_offers(wares: Iterable[Ware], warband: str) -> list[Offer]:
    """The ``stash_terms`` offers among ``wares``, in their order."""
    return _offered(stash_terms, wares, warband)


def rare_offers(wares: Iterable[Ware], warband: str, *, roll: int) -> list[Offer]:
    """The ``rare_terms`` offers among ``wares`` for a rarity roll of ``roll``."""
    return _offered(rare_terms, wares, warband, roll=roll)
