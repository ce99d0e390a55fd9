"""Pure rules of the roster: profiles, experience, rating and hiring (buying from the equipment
lists is ``warbands.rules.equipment_lists``).

No Django, no ORM, no randomness: plain values in, plain values out. Services load the rows,
turn them into the dataclasses below, call these functions and write the results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from core.errors import RuleViolation

__all__ = [
    "CHARACTERISTICS",
    "CHARACTERISTIC_NAMES",
    "HENCHMAN_ADVANCE_THRESHOLDS",
    "HENCHMAN_TRACK_LENGTH",
    "HERO_ADVANCE_THRESHOLDS",
    "HERO_TRACK_LENGTH",
    "HIRED_SWORD_EXTRA_WARRIORS",
    "MusterProblem",
    "Profile",
    "RatedWarrior",
    "Ratio",
    "RosterEntry",
    "TrackBox",
    "WarbandLimits",
    "WarriorKind",
    "advance_thresholds",
    "advances_earned",
    "characteristic_floor",
    "check_hire",
    "experience_track",
    "hired_sword_key",
    "lower_characteristic",
    "muster_problems",
    "next_advance",
    "raise_characteristic",
    "roster_entries",
    "roster_rule_problems",
    "warband_rating",
]

CHARACTERISTICS: tuple[str, ...] = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
CHARACTERISTIC_NAMES = {
    "M": "Movement",
    "WS": "Weapon Skill",
    "BS": "Ballistic Skill",
    "S": "Strength",
    "T": "Toughness",
    "W": "Wounds",
    "I": "Initiative",
    "A": "Attacks",
    "Ld": "Leadership",
}


# --- Profiles and racial maximums ----------------------------------------------------------


@dataclass(frozen=True)
class Profile:
    M: int
    WS: int
    BS: int
    S: int
    T: int
    W: int
    I: int  # noqa: E741 - the rulebook's name for Initiative
    A: int
    Ld: int

    def get(self, characteristic: str) -> int:
        return getattr(self, _checked(characteristic))

    def with_value(self, characteristic: str, value: int) -> Profile:
        return replace(self, **{_checked(characteristic): value})

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in CHARACTERISTICS}

    @classmethod
    def from_mapping(cls, values) -> Profile:
        return cls(**{name: int(values[name]) for name in CHARACTERISTICS})


def _checked(characteristic: str) -> str:
    if characteristic not in CHARACTERISTICS:
        raise ValueError(f"unknown characteristic {characteristic!r}")
    return characteristic


def raise_characteristic(current: Profile, characteristic: str, maximum: Profile) -> Profile:
    """+1 to one characteristic, never above the racial maximum (core rules, Experience:
    "no characteristic may be raised above the maximum for the warrior's race")."""
    value = current.get(characteristic)
    if value >= maximum.get(characteristic):
        raise RuleViolation(
            f"{CHARACTERISTIC_NAMES[characteristic]} is already at its racial maximum "
            f"({maximum.get(characteristic)})."
        )
    return current.with_value(characteristic, value + 1)


def characteristic_floor(starting_value: int) -> int:
    """The lowest an injury may push a characteristic.

    The serious-injury chart lowers M, WS, BS, T and I by 1 but prints no minimum; the core rules
    give characteristics "(usually) between 1 and 10" and treat 0 as "no ability whatsoever".
    Our reading, which players expect: an injury never takes a characteristic below 1, and a
    characteristic that starts at 0 (the Possessed's BS) stays 0.
    """
    return min(1, starting_value)


def lower_characteristic(current: Profile, characteristic: str, starting: Profile) -> Profile:
    """-1 to one characteristic from an injury, not below ``characteristic_floor``.

    A result that cannot lower the value further leaves it as it is (the injury is still
    recorded by the caller)."""
    floor = characteristic_floor(starting.get(characteristic))
    value = current.get(characteristic)
    return current.with_value(characteristic, max(floor, value - 1))


# --- Experience ----------------------------------------------------------------------------

# FACTS.md section 2 (S3, S6, S13): the thick-bordered boxes of the roster sheet.
HERO_ADVANCE_THRESHOLDS: tuple[int, ...] = (
    2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36, 41, 46, 51, 57, 63, 69, 76, 83, 90,
)  # fmt: skip
HENCHMAN_ADVANCE_THRESHOLDS: tuple[int, ...] = (2, 5, 9, 14)
# FACTS.md section 2: the hero strip has 90 boxes, the henchman strip 14. The rulebook says
# nothing of experience beyond the last box; we keep counting it (it still counts towards the
# rating) but no further advances come from it.
HERO_TRACK_LENGTH = 90
HENCHMAN_TRACK_LENGTH = 14


def advance_thresholds(is_hero: bool) -> tuple[int, ...]:
    return HERO_ADVANCE_THRESHOLDS if is_hero else HENCHMAN_ADVANCE_THRESHOLDS


def advances_earned(old_experience: int, new_experience: int, *, is_hero: bool) -> list[int]:
    """The thick boxes reached when experience goes from ``old`` to ``new``: one advance roll
    each. Thresholds at or below the old total (starting experience included) give nothing."""
    return [
        threshold
        for threshold in advance_thresholds(is_hero)
        if old_experience < threshold <= new_experience
    ]


def next_advance(experience: int, *, is_hero: bool) -> int | None:
    """The experience at which the next advance roll comes, or None past the last box."""
    return next((t for t in advance_thresholds(is_hero) if t > experience), None)


@dataclass(frozen=True)
class TrackBox:
    number: int
    ticked: bool
    thick: bool  # an advance roll is made on reaching this box
    starting: bool  # ticked at recruitment: no advance came from it


def experience_track(experience: int, *, is_hero: bool, starting_experience: int = 0):
    """The roster sheet's strip of boxes for one hero or henchman group."""
    length = HERO_TRACK_LENGTH if is_hero else HENCHMAN_TRACK_LENGTH
    thick = set(advance_thresholds(is_hero))
    return [
        TrackBox(
            number=n,
            ticked=n <= experience,
            thick=n in thick,
            starting=n <= starting_experience,
        )
        for n in range(1, length + 1)
    ]


# --- Warband rating ------------------------------------------------------------------------


@dataclass(frozen=True)
class RatedWarrior:
    models: int  # 1 for a hero, the group size for henchmen
    experience: int  # per model: every henchman of a group has the group's experience
    large: bool = False
    value: int | None = None  # a hired sword's own rating value (his entry's Rating)


def warband_rating(warriors: Iterable[RatedWarrior]) -> int:
    """Campaigns text, Warband rating: 5 per warrior plus accumulated experience; large
    creatures such as Rat Ogres are worth 20 plus their experience. A henchman group of three
    with 2 experience each is 3 warriors with 6 experience between them: 21. A hired sword
    adds his own value instead (Hired Swords, each entry's Rating: an Ogre 25 + experience)."""
    return sum(w.models * (_base(w) + w.experience) for w in warriors if w.models > 0)


def _base(warrior: RatedWarrior) -> int:
    if warrior.value is not None:
        return warrior.value
    return 20 if warrior.large else 5


# --- Hiring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ratio:
    """At most ``at_most`` models of ``type_key`` (or of the types of a tuple, together) for
    each model of the ``per`` types (Orc Mob: two Goblin Warriors for each Orc, Orc heroes
    included; Lustrian Reavers: two War Beasts of three types for the Beastmaster)."""

    type_key: str | tuple[str, ...]
    at_most: int
    per: tuple[str, ...]
    label: str  # "two Goblin Warriors for each Orc (Orc heroes included)"


@dataclass(frozen=True)
class WarbandLimits:
    """A warband list's recruiting limits (FACTS.md section 7, General recruiting rules), with
    the list's own roster rules (warbands-core-and-grade-1a.md):

    - ``extra_warriors``: (type key, n) pairs; while such a warrior is on the roster the
      maximum size grows by n (Carnival of Chaos: the Plague Cart adds 2).
    - ``needs``: (type key, keys, message); the type may only be hired while one of ``keys`` is
      on the roster (Kislevites: no Trained Bear without a Bear Tamer).
    - ``ratios``: see ``Ratio``.
    - ``leader_from``: the hero types the player may name leader (``()``: any hero), or None
      when the list's leader type leads (``warbands.rules.leader``).
    """

    max_warriors: int
    min_warriors: int = 3
    max_heroes: int = 6
    extra_warriors: tuple[tuple[str, int], ...] = ()
    needs: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    ratios: tuple[Ratio, ...] = ()
    leader_from: tuple[str, ...] | None = None

    def max_size(self, type_keys) -> int:
        """The maximum warband size with the warriors of ``type_keys`` on the roster (hired
        swords as ``hired_sword_key``: the Halfling Scout's Cook adds one)."""
        present = set(type_keys)
        extra = (*self.extra_warriors, *HIRED_SWORD_EXTRA_WARRIORS)
        return self.max_warriors + sum(n for key, n in extra if key in present)


def roster_entries(warriors) -> list[RosterEntry]:
    """The roster as the hiring rules see it, from warriors (anything with ``warrior_type``,
    ``is_hero``, ``is_leader``, ``group_size`` and ``hired_sword_id``). Hired Swords count in
    neither the warband's size nor its heroes: each is an entry of no models, there only for
    what his presence changes (the Halfling Scout's Cook: one more warrior)."""
    return [
        RosterEntry(
            type_key=w.warrior_type.key, is_hero=w.is_hero, is_leader=w.is_leader,
            models=w.group_size,
        )
        if w.hired_sword_id is None
        else RosterEntry(
            type_key=hired_sword_key(w.warrior_type.key), is_hero=False, is_leader=False,
            models=0,
        )
        for w in warriors
    ]  # fmt: skip


def hired_sword_key(key: str) -> str:
    """How a hired sword of the catalogue stands in a roster's type keys: apart from the
    warband list's own types, since he counts in neither the size nor the heroes."""
    return f"hired_sword:{key}"


# Hired Swords, Halfling Scout, Cook: while he is with it the warband's maximum size is one
# more (not its maximum number of heroes).
HIRED_SWORD_EXTRA_WARRIORS: tuple[tuple[str, int], ...] = ((hired_sword_key("halfling_scout"), 1),)


@dataclass(frozen=True)
class WarriorKind:
    """What the hiring rules need to know of a warrior type."""

    key: str
    name: str
    is_hero: bool
    is_leader: bool
    cost: int
    min_count: int
    max_count: int | None  # None: any number
    group_max: int = 1


@dataclass(frozen=True)
class RosterEntry:
    """A warrior (or henchman group) already on the roster. A hired sword is one of no models
    and no hero, keyed ``hired_sword_key``: only his presence counts (the Cook)."""

    type_key: str
    is_hero: bool
    is_leader: bool
    models: int


def check_hire(
    limits: WarbandLimits,
    roster: Sequence[RosterEntry],
    kind: WarriorKind,
    *,
    models: int,
    gold: int | None,
) -> int:
    """Refuse a hire the warband list does not allow; otherwise return its cost.

    ``models`` is 1 for a hero and the group size for henchmen (bought in groups of 1 to
    ``group_max``). Checked in the order a player would: group shape, type limit, leader, heroes,
    warband size, then gold (``gold=None`` checks the limits only).
    """
    if kind.is_hero and models != 1:
        raise RuleViolation("Heroes are hired one at a time.")
    if not kind.is_hero and not 1 <= models <= kind.group_max:
        raise RuleViolation(f"{kind.name} are bought in groups of 1 to {kind.group_max}.")
    already = sum(entry.models for entry in roster if entry.type_key == kind.key)
    if kind.max_count is not None and already + models > kind.max_count:
        raise RuleViolation(
            f"The warband may have at most {kind.max_count} {kind.name} (it has {already})."
        )
    after = [*roster, RosterEntry(kind.key, kind.is_hero, kind.is_leader, models)]
    for problem in roster_rule_problems(limits, after, only=kind.key):
        raise RuleViolation(problem.message)
    if kind.is_leader and any(entry.is_leader for entry in roster):
        raise RuleViolation("A warband has one leader and may never hire a second.")
    heroes = sum(1 for entry in roster if entry.is_hero)
    if kind.is_hero and heroes + 1 > limits.max_heroes:
        raise RuleViolation(f"A warband may have at most {limits.max_heroes} heroes.")
    warriors = sum(entry.models for entry in roster)
    maximum = limits.max_size(entry.type_key for entry in after)
    if warriors + models > maximum:
        raise RuleViolation(f"A warband may have at most {maximum} warriors (it has {warriors}).")
    cost = kind.cost * models
    if gold is not None and cost > gold:
        raise RuleViolation(f"Hiring costs {cost} gc but only {gold} gc are left.")
    return cost


@dataclass(frozen=True)
class MusterProblem:
    message: str


def muster_problems(
    limits: WarbandLimits,
    roster: Sequence[RosterEntry],
    kinds: Sequence[WarriorKind],
    *,
    missing_required: Sequence[str] = (),
) -> list[MusterProblem]:
    """What still stops a new warband from being finished (FACTS.md section 7): a leader,
    at least ``min_warriors`` warriors, every type's minimum, and required items
    (``missing_required``: one message per warrior that lacks, e.g., its mutation)."""
    problems = []
    if not any(entry.is_leader for entry in roster):
        named = " named" if limits.leader_from is not None else ""  # the player names him
        problems.append(MusterProblem(f"The warband has no leader{named} yet."))
    warriors = sum(entry.models for entry in roster)
    if warriors < limits.min_warriors:
        problems.append(
            MusterProblem(
                f"A warband needs at least {limits.min_warriors} warriors (it has {warriors})."
            )
        )
    maximum = limits.max_size(entry.type_key for entry in roster)
    if warriors > maximum:  # e.g. the Plague Cart dismissed after the 16th warrior was hired
        problems.append(
            MusterProblem(f"A warband may have at most {maximum} warriors (it has {warriors}).")
        )
    problems.extend(roster_rule_problems(limits, roster))
    for kind in kinds:
        if kind.is_leader or kind.min_count == 0:
            continue
        have = sum(entry.models for entry in roster if entry.type_key == kind.key)
        if have < kind.min_count:
            problems.append(
                MusterProblem(f"The warband must include {kind.min_count} {kind.name}.")
            )
    problems.extend(MusterProblem(message) for message in missing_required)
    return problems


def roster_rule_problems(
    limits: WarbandLimits, roster: Sequence[RosterEntry], *, only: str | None = None
) -> list[MusterProblem]:
    """Breaches of the list's ``needs`` and ``ratios`` by ``roster`` (for the type ``only``,
    when given). Checked when a warrior is hired and again when mustering ends, since a
    dismissal while mustering can break a ratio that held when the warrior was hired."""

    def count(keys) -> int:
        return sum(entry.models for entry in roster if entry.type_key in keys)

    problems = []
    for type_key, keys, message in limits.needs:
        if type_key != (only or type_key) or not count((type_key,)):
            continue
        if not count(keys):
            problems.append(MusterProblem(message))
    for ratio in limits.ratios:
        types = (ratio.type_key,) if isinstance(ratio.type_key, str) else ratio.type_key
        if only is not None and only not in types:
            continue
        have, per = count(types), count(ratio.per)
        if have > ratio.at_most * per:
            problems.append(
                MusterProblem(f"A warband may have at most {ratio.label}: {have} for {per}.")
            )
    return problems
