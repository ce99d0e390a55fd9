"""What exploring a special location (post-battle step 3, FACTS.md section 4) works with and
gives: the heroes who may be chosen (``Hero``), what the warband brings (``LocationContext``),
what is found (``Find``), and the ``Visit`` each location's rule reads its dice and asks its
questions through (``battles.rules.exploration_locations``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from battles.rules.tasks import ask
from core.words import possessive
from warbands.rules.families import POSSESSED

# FACTS.md section 4, magical artefacts (D6): (item key, name).
MAGICAL_ARTEFACTS = (
    ("boots_rope_of_pieter", "Boots & Rope of Pieter"),
    ("count_of_ventimiglias_misericordia", "Count of Ventimiglia's Misericordia"),
    ("attlas_plate_mail", "Att'la's Plate Mail"),
    ("bow_of_seeking", "Bow of Seeking"),
    ("executioners_hood", "Executioner's Hood"),
    ("all_seeing_eye_of_numas", "All-seeing Eye of Numas"),
)


@dataclass(frozen=True)
class Hero:
    """A hero who may be chosen for a location's effect (on the roster, not captured)."""

    id: int
    name: str
    T: int = 3
    Ld: int = 7


@dataclass(frozen=True)
class LocationContext:
    """What the warband brings to a special location: its list's family (some locations treat
    Skaven, the Possessed, the Undead and the pious differently), its heroes and leader, and
    what the rules need of the campaign."""

    family: str = ""
    heroes: tuple[Hero, ...] = ()
    leader: Hero | None = None
    prisoner_groups: tuple[tuple[int, str], ...] = ()  # human henchman groups with room
    owned_artefacts: frozenset[str] = frozenset()
    has_catacombs_reroll: bool = False


@dataclass
class Find:
    """What a special location gives."""

    name: str
    gold: int = 0
    shards: int = 0
    items: list[tuple[str, str, int]] = field(default_factory=list)  # (item key or "", name, n)
    zombies: int = 0
    experience: dict[int, int] = field(default_factory=dict)  # hero id → experience
    miss_game: list[int] = field(default_factory=list)
    hero_lost: int | None = None
    academic_skills: int | None = None
    kept_gems: int | None = None
    manual_reader: int | None = None  # the hero who read the training manual
    symbol_bearer: int | None = None  # the hero who carries the Freetraders symbol
    prisoner_joins: int | None = None  # henchman group id
    wardog_for_leader: bool = False
    free_hired_sword: bool = False
    straggler: bool = False
    catacombs_reroll: bool = False
    notes: list[str] = field(default_factory=list)

    def item(self, key: str, name: str, count: int = 1) -> None:
        if count:
            self.items.append((key, name, count))

    def give_experience(self, hero: int, amount: int = 1) -> None:
        self.experience[hero] = self.experience.get(hero, 0) + amount


def leadership_test(dice, hero: Hero | None, label: str) -> bool:
    """2D6 equal to or under the leader's Leadership; no leader, no pass."""
    if hero is None:
        return False
    return (
        dice.roll(2, 6, f"{label}: {possessive(hero.name)} Leadership test ({hero.Ld})").total
        <= hero.Ld
    )


@dataclass
class Visit:
    """One special location being explored: the dice, what the warband brings to it
    (``context``), the player's answers so far, and what is found."""

    dice: object
    context: LocationContext
    answers: Mapping[str, str]
    find: Find

    @property
    def name(self) -> str:
        return self.find.name

    @property
    def heroes(self) -> tuple[Hero, ...]:
        return self.context.heroes

    @property
    def skaven(self) -> bool:
        return self.context.family.startswith("Skaven")

    @property
    def possessed(self) -> bool:
        """The Possessed, or a list that counts as them (``counts_as_possessed``: the context's
        family is then theirs, ``warbands.rules.families.counted_family``)."""
        return self.context.family == POSSESSED

    @property
    def undead(self) -> bool:
        return self.context.family == "Undead"

    @property
    def pious(self) -> bool:
        return self.context.family in ("Witch Hunters", "Sisters of Sigmar")

    def roll(self, n: int = 1, what: str = "") -> int:
        """``n`` D6, added up, for what the location's ``what`` says."""
        return self.dice.roll(n, 6, f"{self.name}{what}").total

    def d3(self, what: str) -> int:
        return (self.dice.roll(1, 6, f"{self.name}: {what} (D3)").total + 1) // 2

    def pick_hero(self, key: str, text: str, *, optional: str = "") -> Hero | None:
        """Ask which hero; ``optional`` adds a "nobody" answer with that label (returns None)."""
        options = tuple((str(hero.id), hero.name) for hero in self.heroes)
        options += (("none", optional),) if optional else ()
        chosen = ask(self.answers, key, text, options)
        return None if chosen == "none" else next(h for h in self.heroes if str(h.id) == chosen)

    def split_experience(self, points: int) -> None:
        """Experience "split among the heroes": one question per point."""
        for n in range(1, points + 1):
            hero = self.pick_hero(f"xp_{n}", f"Experience point {n} of {points} goes to")
            self.find.give_experience(hero.id)

    def artefact(self) -> None:
        """FACTS.md: "Each artefact can exist only once in a campaign; if it is already owned,
        re-roll." With all six owned, nothing is found."""
        owned = self.context.owned_artefacts
        if len(owned) >= len(MAGICAL_ARTEFACTS):
            self.find.notes.append("Every magical artefact is owned already: nothing is found.")
            return
        while True:
            key, label = MAGICAL_ARTEFACTS[
                self.dice.roll(1, 6, f"{self.name}: which artefact (D6)").total - 1
            ]
            if key not in owned:
                self.find.item(key, label)
                return
