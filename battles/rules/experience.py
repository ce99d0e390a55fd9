"""Experience (post-battle step 2): the underdog bonus and the advance tables.

Sources: campaigns-post-battle-injuries-experience.txt ("Experience", "Underdogs") and
FACTS.md sections 1 to 3. Readings where the texts are silent, each tested in
tests/rules/test_experience.py:

- The underdog bonus goes to every hero and henchman group, like the +1 for surviving
  (FACTS.md section 1 marks this [U]); the difference is taken against the highest-rated
  opposing warband of the battle.
- Racial maximums on a hero's advance (FACTS.md section 3): a rolled characteristic at its
  maximum gives the other of its pair (S or A, I or Ld, W or T; on a 7 the player chooses WS or
  BS); if both are at their maximum the player adds +1 to any characteristic not at its
  maximum ("the only way some races reach their maximum Movement"); if none is left, the hero
  takes a new skill instead.
- A henchman group never gains more than +1 on a starting characteristic: a result that would,
  or that hits a racial maximum, is rolled again (on 6-7 the player chooses whichever of BS and
  WS is still allowed). A roll of 10-12 when the warband has its maximum number of heroes, or
  for a group being re-rolled after the lad's got talent, is rolled again.

Warband special rules (reference/warbands-core-and-grade-1a.md), by their list files' `effect`
(``effects_of`` reads them from a warrior type's special rules):
- `talent_reroll` (Ungor, Minotaur): the lad's got talent is rolled again, as when the warband
  has its maximum of heroes.
- `talent_kills` (Orc Mob Goblins, Runts): a roll of 10-12 (the lad's got talent) removes one
  model from the roster instead; like a promoted lad, the rest of the group rolls again.
- `talent_skill_lists` (Ogre, Halfling): a promoted model picks only from `lists`, or from the
  warband's hero lists but `not_lists`.
- `half_rate_advances` (Ogre, Slow Witted): an advance at twice each box's experience (the
  henchman's thick boxes at 2, 5, 9 and 14 are reached at 4, 10, 18 and 28).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from battles.rules.tasks import ask
from core.words import possessive
from warbands.rules.roster import CHARACTERISTIC_NAMES, CHARACTERISTICS, Profile, advances_earned

__all__ = [
    "HENCHMAN_CHOICES",
    "HENCHMAN_RAISES",
    "HERO_CHOICES",
    "HERO_PAIRS",
    "LADS_TALENT",
    "TALENT_KILLED",
    "UNDERDOG_BONUS",
    "Advance",
    "HenchmanContext",
    "HeroContext",
    "advances_due",
    "effects_of",
    "henchman_advance",
    "hero_advance",
    "talent_lists",
    "underdog_bonus",
]

# The Advance kind of a Goblin's lad's got talent (Runts): the model is removed instead.
TALENT_KILLED = "talent_killed"


def effects_of(special_rules: Sequence[Mapping]) -> dict[str, Mapping]:
    """A warrior type's special rules that change campaign play, by their ``effect`` key (the
    list files' encoding, warbands/data/README.md)."""
    return {rule["effect"]: rule for rule in special_rules if rule.get("effect")}


def advances_due(old: int, new: int, *, is_hero: bool, half_rate: bool = False) -> list[int]:
    """The thick boxes reached from ``old`` to ``new`` experience, one advance each. At half
    rate (the Ogre's Slow Witted) every box needs twice its experience; the boxes returned are
    then the experience at which each advance came."""
    if not half_rate:
        return advances_earned(old, new, is_hero=is_hero)
    return [2 * box for box in advances_earned(old // 2, new // 2, is_hero=is_hero)]


def talent_lists(lists: Sequence[tuple[str, str]], rule: Mapping | None) -> list[tuple[str, str]]:
    """The skill lists (key, name) a promoted lad may pick from: the warband's hero lists,
    narrowed by his type's ``talent_skill_lists`` rule (``lists`` only, or all but
    ``not_lists``)."""
    if not rule:
        return list(lists)
    if rule.get("lists"):
        return [entry for entry in lists if entry[0] in rule["lists"]]
    return [entry for entry in lists if entry[0] not in rule.get("not_lists", ())]


# FACTS.md section 1: (largest rating difference of the band, experience bonus).
UNDERDOG_BONUS: tuple[tuple[int, int], ...] = (
    (50, 0),
    (75, 1),
    (100, 2),
    (150, 3),
    (300, 4),
)
UNDERDOG_ABOVE_300 = 5


def underdog_bonus(own_rating: int, enemy_ratings: Sequence[int]) -> int:
    """Extra experience for each hero and henchman group of a warband that fought a
    higher-rated enemy: by the difference to the highest-rated opponent."""
    if not enemy_ratings:
        return 0
    difference = max(enemy_ratings) - own_rating
    if difference <= 0:
        return 0
    for upper, bonus in UNDERDOG_BONUS:
        if difference <= upper:
            return bonus
    return UNDERDOG_ABOVE_300


@dataclass(frozen=True)
class Advance:
    """What one advance roll gave."""

    kind: str  # "characteristic", "skill", "spell" or "lads_talent"
    characteristic: str = ""
    skill: str = ""  # the skill's key
    spell_roll: int = 0  # the D6 rolled on the spell list
    detail: str = ""
    rolls: tuple[int, ...] = ()


@dataclass(frozen=True)
class HeroContext:
    name: str
    current: Profile
    maximum: Profile | None
    skills: Mapping[str, Sequence[tuple[str, str]]]  # list name → (key, name) he may learn
    known_skills: frozenset[str] = frozenset()
    is_wizard: bool = False
    known_spell_rolls: frozenset[int] = frozenset()
    spell_list_size: int = 6
    learns_magic_first: bool = False  # a successor of a Sisters/Possessed/Carnival leader


def _at_max(context, characteristic: str) -> bool:
    if context.maximum is None:
        return False
    return context.current.get(characteristic) >= context.maximum.get(characteristic)


# The advance tables (2D6), FACTS.md section 3, as the engine reads them and
# ``battles.rules.at_hand`` draws them. A hero: a pair split by a D6 (1-3 the first), a
# choice of two, or else a new skill. A henchman group: one characteristic, a choice of two,
# or from ``LADS_TALENT`` up the lad's got talent.
HERO_PAIRS: dict[int, tuple[str, str]] = {6: ("S", "A"), 8: ("I", "Ld"), 9: ("W", "T")}
HERO_CHOICES: dict[int, tuple[str, str]] = {7: ("WS", "BS")}
HENCHMAN_RAISES: dict[int, str] = {2: "I", 3: "I", 4: "I", 5: "S", 8: "A", 9: "Ld"}
HENCHMAN_CHOICES: dict[int, tuple[str, str]] = {6: ("BS", "WS"), 7: ("BS", "WS")}
LADS_TALENT = 10


def hero_advance(dice, *, context: HeroContext, answers: Mapping[str, str]) -> Advance:
    """The hero advance table (2D6), FACTS.md section 3."""
    who = context.name
    if context.learns_magic_first:
        choice = ask(
            answers, "successor_magic",
            f"{who} succeeded the leader: learn a spell or prayer instead of rolling an advance?",
            (("spell", "Roll a spell or prayer"), ("advance", "Roll on the Advance table")),
        )  # fmt: skip
        if choice == "spell":
            return _spell(dice, context, "the new leader learns magic")
    roll = dice.roll(2, 6, f"{who}: hero advance (2D6)").total
    if roll not in HERO_PAIRS and roll not in HERO_CHOICES:
        return _new_skill(dice, context, answers, roll)
    if roll in HERO_CHOICES:
        allowed = [c for c in HERO_CHOICES[roll] if not _at_max(context, c)]
        if allowed:
            choice = ask(
                answers, "ws_or_bs", f"{who} rolled 7: +1 Weapon Skill or +1 Ballistic Skill?",
                tuple((c, f"+1 {CHARACTERISTIC_NAMES[c]}") for c in allowed),
            )  # fmt: skip
            return Advance("characteristic", characteristic=choice, detail=f"2D6 {roll}")
        return _any_other(context, answers, roll, HERO_CHOICES[roll], dice)
    pair = HERO_PAIRS[roll]
    sub = dice.roll(1, 6, f"{who}: advance {roll}, which one (D6)").total
    first, second = pair if sub <= 3 else pair[::-1]
    for characteristic in (first, second):
        if not _at_max(context, characteristic):
            return Advance(
                "characteristic",
                characteristic=characteristic,
                detail=f"2D6 {roll}, D6 {sub}"
                + (" (the other was at its racial maximum)" if characteristic == second else ""),
            )
    return _any_other(context, answers, roll, pair, dice)


def _any_other(context, answers, roll, pair, dice) -> Advance:
    free = [c for c in CHARACTERISTICS if c not in pair and not _at_max(context, c)]
    if not free:
        return _new_skill(dice, context, answers, roll)
    choice = ask(
        answers, "free_characteristic",
        f"{possessive(context.name)} {' and '.join(pair)} are at their racial maximum: "
        "+1 to which other characteristic?",
        tuple((c, f"+1 {CHARACTERISTIC_NAMES[c]}") for c in free),
    )  # fmt: skip
    return Advance("characteristic", characteristic=choice, detail=f"2D6 {roll}, both at maximum")


def _new_skill(dice, context: HeroContext, answers, roll: int) -> Advance:
    if context.is_wizard and len(context.known_spell_rolls) < context.spell_list_size:
        choice = ask(
            answers, "skill_or_spell",
            f"{context.name} may learn a new skill or, as a wizard, roll a random new spell.",
            (("skill", "A new skill"), ("spell", "A random new spell")),
        )  # fmt: skip
        if choice == "spell":
            return _spell(dice, context, f"2D6 {roll}")
    options = [
        (key, f"{name} ({list_name})")
        for list_name, skills in context.skills.items()
        for key, name in skills
        if key not in context.known_skills
    ]
    if not options:
        return Advance("skill", detail=f"2D6 {roll}: no skill left to learn")
    key = ask(answers, "skill", f"{context.name} learns a new skill: which one?", options)
    return Advance("skill", skill=key, detail=f"2D6 {roll}")


def _spell(dice, context: HeroContext, detail: str) -> Advance:
    """A random spell of his list; one he already knows is rolled again (Magic: "If you get
    the same spell twice, roll again")."""
    for _ in range(50):
        roll = dice.roll(1, 6, f"{context.name}: new spell (D6)").total
        if roll not in context.known_spell_rolls:
            return Advance("spell", spell_roll=roll, detail=detail)
    return Advance("skill", detail="no spell left to learn")


@dataclass(frozen=True)
class HenchmanContext:
    name: str
    starting: Profile
    current: Profile
    maximum: Profile | None
    heroes: int
    max_heroes: int
    talent_allowed: bool = True  # False for the re-roll after the lad's got talent
    raised: frozenset[str] = field(default_factory=frozenset)
    talent: str = "promotes"  # "promotes", "reroll" (Lowest of the Low) or "kills" (Runts)


def henchman_advance(dice, *, context: HenchmanContext, answers: Mapping[str, str]) -> Advance:
    """The henchman advance table (2D6), applied to the whole group, FACTS.md section 3."""
    who = context.name
    rolls: list[int] = []

    def allowed(characteristic: str) -> bool:
        raised = context.current.get(characteristic) > context.starting.get(characteristic)
        return not raised and not _at_max(context, characteristic)

    for _ in range(100):
        roll = dice.roll(2, 6, f"{who}: henchman advance (2D6)").total
        rolls.append(roll)
        if roll >= LADS_TALENT:
            if not context.talent_allowed or context.talent == "reroll":
                continue
            if context.talent == "kills":
                return Advance(TALENT_KILLED, detail=f"2D6 {roll}", rolls=tuple(rolls))
            if context.heroes < context.max_heroes:
                return Advance("lads_talent", detail=f"2D6 {roll}", rolls=tuple(rolls))
            continue
        if roll in HENCHMAN_CHOICES:
            options = [c for c in HENCHMAN_CHOICES[roll] if allowed(c)]
            if not options:
                continue
            choice = ask(
                answers, "bs_or_ws", f"{who} rolled {roll}: +1 Ballistic Skill or +1 Weapon Skill?",
                tuple((c, f"+1 {CHARACTERISTIC_NAMES[c]}") for c in options),
            )  # fmt: skip
            return Advance("characteristic", characteristic=choice, detail=f"2D6 {roll}",
                           rolls=tuple(rolls))  # fmt: skip
        characteristic = HENCHMAN_RAISES[roll]
        if allowed(characteristic):
            return Advance("characteristic", characteristic=characteristic, detail=f"2D6 {roll}",
                           rolls=tuple(rolls))  # fmt: skip
    return Advance("characteristic", detail="no characteristic left to raise", rolls=tuple(rolls))
