"""Pure rules of a leader the player chooses (the list's ``leader`` roster rule). No Django, no
ORM: plain values in, plain values out.

Most lists name their leader's warrior type (``WarriorType.is_leader``), copied to the warrior
when he is hired. Some let the player choose which hero leads (Court of the Profane Pleasures,
Lustrian Reavers: "choose any of your Heroes as the Leader"); their ``roster_rules`` say
``"leader": "any_hero"``, or name the hero types that may lead. While mustering the player
names one of his heroes, and may name another instead; from then on the warrior's own
``is_leader`` is the leader, for every rule that asks who leads (the Rout test, the winning
leader's experience, the death of the leader), as for any list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import RuleViolation

__all__ = ["ANY_HERO", "Candidate", "check_leader_choice", "leader_from"]

#: The roster rule's value for a list whose every hero may lead.
ANY_HERO = "any_hero"


def leader_from(roster_rules: Mapping | None) -> tuple[str, ...] | None:
    """The hero types that may be named leader: ``()`` for any hero, the keys the list names,
    or ``None`` for a list whose leader is its leader type (no choice)."""
    chosen = (roster_rules or {}).get("leader")
    if chosen is None:
        return None
    if chosen == ANY_HERO:
        return ()
    if isinstance(chosen, list | tuple) and chosen and all(isinstance(k, str) for k in chosen):
        return tuple(chosen)
    raise ValueError(f"the leader roster rule is {ANY_HERO!r} or a list of hero types: {chosen!r}")


@dataclass(frozen=True)
class Candidate:
    """The warrior the player would name leader, as the rule needs him."""

    name: str
    type_key: str
    is_hero: bool
    hired_sword: bool = False
    never_leader: bool = False  # a type whose rule says it never leads (``never_leader``)


def check_leader_choice(allowed: tuple[str, ...] | None, candidate: Candidate) -> None:
    """Refuse naming ``candidate`` the leader when the list does not let the player choose
    (``allowed`` is None), when he is no hero of the list (henchmen and hired swords never
    lead the warband), when his type never leads, or when he is not of the types named."""
    if allowed is None:
        raise RuleViolation("This list's leader is its leader's warrior type: no hero is named.")
    if not candidate.is_hero or candidate.hired_sword:
        raise RuleViolation(f"Only one of the warband's own heroes may lead, not {candidate.name}.")
    if candidate.never_leader:
        raise RuleViolation(f"{candidate.name} may never lead the warband.")
    if allowed and candidate.type_key not in allowed:
        raise RuleViolation(f"{candidate.name} is not of a type that may lead this warband.")
