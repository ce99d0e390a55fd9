"""Hired swords (core rules, Hired Swords; Mordheim Annual 2002 for the Assassin): who may hire
whom, what he costs after each battle and what he adds to the rating. Pure: plain values in,
plain results out.

The hired sword's entry says which warband families may hire him (``only``) or may not
(``except``), and where the text names one list of a family, which lists (``only_lists``:
the Wolf Priest joins only the Middenheim Mercenaries; ``except_lists``: never a Warrior
Priest of Sigmar with them); the warband list may narrow it further (its ``hired_swords``
special rule: ``none``, ``only_named``, ``no_elves``, ``as_human_mercenaries`` or the keys it
allows, each of whom it may hire whatever his own entry says of other warbands).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.errors import RuleViolation
from core.words import A, a

__all__ = [
    "HiredSwordTerms",
    "check_hire_sword",
    "held_refusal",
    "hire_refusal",
    "sword_rating",
    "upkeep_for",
]

MERCENARIES = "Mercenaries"


@dataclass(frozen=True)
class HiredSwordTerms:
    """One hired sword's terms as the catalogue gives them."""

    key: str
    name: str
    hire_fee: int
    upkeep: int
    rating: int
    race: str = ""
    only: tuple[str, ...] = ()  # families that may hire him; empty: any but ``excluded``
    excluded: tuple[str, ...] = ()
    # Warband lists (keys) within a family, where the text names a single list.
    only_lists: tuple[str, ...] = ()
    excluded_lists: tuple[str, ...] = ()
    # Dislikes: (race, upkeep) — a warband with a warrior of that race pays more each battle.
    upkeep_with_race: tuple[str, int] | None = None
    never_with: tuple[str, ...] = ()  # a Highwayman never joins beside a Roadwarden
    extra: dict = field(default_factory=dict, compare=False)


def hire_refusal(
    terms: HiredSwordTerms, *, family: str, list_rule=None, warband_list: str = ""
) -> str | None:
    """Why a warband of ``family`` may not hire him (``None`` when it may). ``list_rule`` is the
    warband list's own ``hired_swords`` restriction, when it has one; ``warband_list`` the
    list's key, for a hired sword that names lists rather than families."""
    refused = f"{A(family)} warband may not hire {a(terms.name)}."
    if list_rule == "none":
        return f"{family} warbands hire no hired swords."
    if list_rule == "no_elves" and terms.race == "elf":
        return refused
    if isinstance(list_rule, list | tuple):
        # The list names whom it hires: the one it names may join it, whatever his own entry
        # says of other warbands (the Maneaters' rule names the Halfling Thief, whose entry
        # names neither Ogres nor Maneaters: the narrower rule, the list's, wins).
        return None if terms.key in list_rule else refused
    if list_rule == "only_named" and family not in terms.only:
        # The list hires only those whose entry names it.
        return refused
    families = {family, MERCENARIES} if list_rule == "as_human_mercenaries" else {family}
    if terms.only and not families & set(terms.only):
        return refused
    if family in terms.excluded and list_rule != "as_human_mercenaries":
        return refused
    if terms.only_lists and warband_list not in terms.only_lists:
        return refused
    if warband_list in terms.excluded_lists:
        return refused
    return None


def held_refusal(terms: HiredSwordTerms, held_keys: Iterable[str]) -> str | None:
    """Why he will not join the hired swords the warband has (one of each type; some refuse
    to serve beside another), or ``None``."""
    held = set(held_keys)
    if terms.key in held:
        return f"The warband has {a(terms.name)} already: one of each type."
    rivals = sorted(held & set(terms.never_with))
    if rivals:
        return f"{A(terms.name)} will not serve beside the warband's {', '.join(rivals)}."
    return None


def check_hire_sword(
    terms: HiredSwordTerms,
    *,
    family: str,
    list_rule,
    held_keys: Iterable[str],
    gold: int,
    warband_list: str = "",
) -> int:
    """The fee to pay for hiring him, or ``RuleViolation``: the warband may not hire him, has
    one already (Hired Swords: one of each type) or cannot pay."""
    reason = hire_refusal(terms, family=family, list_rule=list_rule, warband_list=warband_list)
    if reason:
        raise RuleViolation(reason)
    reason = held_refusal(terms, held_keys)
    if reason:
        raise RuleViolation(reason)
    if terms.hire_fee > gold:
        raise RuleViolation(
            f"Hiring {a(terms.name)} costs {terms.hire_fee} gc but only {gold} gc are at hand."
        )
    return terms.hire_fee


def upkeep_for(terms: HiredSwordTerms, *, races: Iterable[str]) -> int:
    """His upkeep after a battle: more when the warband includes a race he dislikes (an Elf
    Ranger with Dwarfs, a Troll Slayer with Elves)."""
    if terms.upkeep_with_race and terms.upkeep_with_race[0] in set(races):
        return terms.upkeep_with_race[1]
    return terms.upkeep


def sword_rating(terms_rating: int, experience: int) -> int:
    """His own rating value plus one point per experience point (each entry's Rating)."""
    return terms_rating + experience
