"""The rules of play the battle helper applies (core rules: characteristics, the turn sequence,
movement; FACTS.md §8: rout tests). Pure: plain values in, plain results out, dice injected.

- Characteristic tests: D6 equal to or under the value passes, a 6 always fails. Leadership
  tests (Rally, Rout): 2D6 equal to or under Ld.
- The turn: recovery, movement, shooting, hand-to-hand. In a player's recovery phase his
  stunned warriors become knocked down, and those knocked down when it began may stand up;
  fleeing warriors may take a Rally test, and cannot rally when the closest model is an enemy.
- Hiding is refused to a warrior who ran, fled, fell, is stunned or charged that turn.
- Initiative tests for climbing (one, no higher than the warrior's Move), jumping down and
  diving charges (one per full 2", 6" at most), jumping a gap (one, 3" at most), and a warrior
  knocked down or stunned within 1" of an edge (one). A fall deals D3 hits at the Strength
  of the height fallen, no armour save, each rolled to wound (``battles.rules.wounds``).
- Rout: at the start of its own turn, a warband with a quarter or more of its models out of
  action tests on its leader's Ld (or, with the leader stunned or out of action, the best Ld
  of those neither stunned nor out of action, hired swords aside). It may rout voluntarily
  instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.dice import Dice, d3

STANDING = "standing"
KNOCKED_DOWN = "knocked_down"
STUNNED = "stunned"
FLEEING = "fleeing"
HIDDEN = "hidden"
OUT_OF_ACTION = "out_of_action"
STATES = {
    STANDING: "Standing",
    KNOCKED_DOWN: "Knocked down",
    STUNNED: "Stunned",
    FLEEING: "Fleeing",
    HIDDEN: "Hidden",
    OUT_OF_ACTION: "Out of action",
}

PHASES = {
    "recovery": "Recovery",
    "movement": "Movement",
    "shooting": "Shooting",
    "combat": "Hand-to-hand",
}
PHASE_ORDER = list(PHASES)

HIGHEST_JUMP = 6  # inches: jumping down and diving charges


@dataclass(frozen=True)
class Test:
    """One kind of Initiative test the page prompts: what it is, how many tests a height
    takes, and whether a failure is a fall (and from what height)."""

    key: str
    label: str
    asks_height: bool
    falls: bool


TESTS = {
    "climb_up": Test("climb_up", "Climbing up", True, False),
    "climb_down": Test("climb_down", "Climbing down", True, True),
    "jump_down": Test("jump_down", "Jumping down", True, True),
    "diving_charge": Test("diving_charge", "Diving charge", True, True),
    "gap": Test("gap", "Jumping a gap", True, True),
    "edge": Test("edge", 'Knocked down or stunned within 1" of an edge', True, True),
}


class PlayError(ValueError):
    """A move the rules do not allow, with the reason a player reads."""


def characteristic_test(roll: int, value: int) -> bool:
    """A D6 equal to or under the characteristic; a 6 always fails."""
    return roll != 6 and roll <= value


def tests_for(test: Test, height: int, movement: int | None = None) -> int:
    """How many Initiative tests: one per full 2" jumped down (6" at most: under 2", none),
    else one. ``height`` is what he would fall: for a gap, the drop below it, not its width
    (the player judges the width, 3" at most, and whether his move covers it); for a climb,
    the height climbed, which may not be more than his Movement (core rules, climbing).
    ``movement`` None: a Move rolled in play (2D6), which the player judges."""
    if test.key in ("jump_down", "diving_charge"):
        if not 1 <= height <= HIGHEST_JUMP:
            raise PlayError(f'A warrior jumps down {HIGHEST_JUMP}" at most.')
        return height // 2
    if test.key in ("climb_up", "climb_down") and not 1 <= height <= 30:
        raise PlayError("Give the height climbed in inches.")
    if test.asks_height and not 1 <= height <= 30:
        raise PlayError("Give the height of the fall in inches.")
    if test.key in ("climb_up", "climb_down") and movement and height > movement:
        raise PlayError(
            f'He cannot climb {height}": a climb is no higher than his Move ({movement}").'
        )
    return 1


@dataclass(frozen=True)
class TestResult:
    passed: bool
    rolls: tuple[int, ...]
    fall_height: int  # 0: no fall

    def describe(self, initiative: int) -> str:
        if not self.rolls:
            return 'no test under 2"'
        shown = ", ".join(str(r) for r in self.rolls)
        verdict = "passed" if self.passed else "failed"
        return f"I {initiative}: rolled {shown}, {verdict}" + (
            f'; falls {self.fall_height}"' if self.fall_height else ""
        )


def initiative_tests(
    dice: Dice, test: Test, height: int, initiative: int, who: str, movement: int | None = None
) -> TestResult:
    """Roll the tests one by one; the first failure ends them (the warrior falls from where he
    jumped, the full height; a failed climb up only stops him)."""
    count = tests_for(test, height, movement)
    rolls = []
    for n in range(count):
        purpose = f"{test.label}: {who}, Initiative test" + (f" {n + 1}" if count > 1 else "")
        roll = dice.roll(1, 6, purpose).total
        rolls.append(roll)
        if not characteristic_test(roll, initiative):
            return TestResult(False, tuple(rolls), height if test.falls else 0)
    return TestResult(True, tuple(rolls), 0)


def fall_hits(dice: Dice, height: int, who: str) -> tuple[int, int]:
    """A fall: D3 hits at the Strength of the height in inches, no armour save. Returns the
    hits and their Strength (capped at 10, the highest characteristic)."""
    hits = d3(dice, f'A fall of {height}": {who}, D3 hits')
    return hits, min(height, 10)


LEADER_REACH = 6  # inches: the Leader rule
# Skills that lengthen the leader's reach: the Norse Battle Tongue (12").
REACH_SKILLS = {"battle_tongue": 12}


def leader_reach(leader_rules: Sequence[Mapping], leader_skills: set[str]) -> int:
    """How far, in inches, warriors may use their leader's Leadership: 6", or longer by his
    own rule (``effect: leader_range`` with its ``inches``: the Reikland captain's 12") or a
    skill of ``REACH_SKILLS``."""
    reaches = [LEADER_REACH]
    reaches += [int(r["inches"]) for r in leader_rules if r.get("effect") == "leader_range"]
    reaches += [REACH_SKILLS[key] for key in leader_skills if key in REACH_SKILLS]
    return max(reaches)


def leadership_test(dice: Dice, leadership: int, purpose: str) -> tuple[bool, int]:
    total = dice.roll(2, 6, purpose).total
    return total <= leadership, total


def may_hide(state: str, *, ran: bool, charged: bool, fell: bool, fled: bool) -> str:
    """Empty when the warrior may hide, else why not."""
    if state == STUNNED:
        return "A stunned warrior cannot hide."
    if state in (FLEEING, OUT_OF_ACTION, KNOCKED_DOWN):
        return f"A warrior {STATES[state].lower()} cannot hide."
    for done, what in ((ran, "ran"), (charged, "charged"), (fled, "fled"), (fell, "fell")):
        if done:
            return f"A warrior who {what} this turn cannot hide."
    return ""


def recovered(state: str) -> str:
    """What a warrior's state becomes as his own recovery phase begins (stunned: knocked down;
    everything else stays, and those knocked down then may stand up)."""
    return KNOCKED_DOWN if state == STUNNED else state


@dataclass(frozen=True)
class Model:
    """One model of a warband, as the rout test sees it. ``weight``: what he counts for when
    out of action (``rout_weight``); a model of weight 0 counts neither in the warband's size
    nor out of action."""

    state: str
    leadership: int
    is_leader: bool = False
    weight: Fraction = Fraction(1)
    hired: bool = False  # a hired sword: never lends his Leadership to a Rout test


def rout_weight(type_key: str, family: str) -> Fraction:
    """How much a model counts towards the rout test: Gnoblars not at all (Largely
    Insignificant); an Orc Mob's Goblin Warriors and Cave Squigs half (Not Orcs)."""
    if "gnoblar" in type_key:
        return Fraction(0)
    if family == "Orc Mob" and type_key in ("goblin_warrior", "cave_squig"):
        return Fraction(1, 2)
    return Fraction(1)


def must_test(models: list[Model]) -> bool:
    """A quarter or more of the warband out of action (12 warriors: 3). Not Orcs halves the
    Goblins out of action, not the warband's size: 5 Orcs and 10 Goblins test at 4 Orcs or 8
    Goblins out."""
    total = sum(1 for m in models if m.weight)
    out = sum(m.weight for m in models if m.state == OUT_OF_ACTION)
    return total > 0 and out * 4 >= total


def rout_leadership(models: list[Model]) -> int:
    """The leader's Ld; with the leader stunned or out of action (or absent), the best Ld of
    those neither stunned nor out of action (0 when none is left). A hired sword's never
    counts (hired-swords chapter: his Leadership is not used for Rout tests), though he counts
    in the warband's size and losses."""
    leader = next((m for m in models if m.is_leader), None)
    if leader and leader.state not in (STUNNED, OUT_OF_ACTION):
        return leader.leadership
    able = [m.leadership for m in models if m.state not in (STUNNED, OUT_OF_ACTION) and not m.hired]
    return max(able, default=0)


@dataclass(frozen=True)
class Reroll:
    key: str
    label: str
    once_per_game: bool


SILK = Reroll("silk", "Cathayan silk clothes (the leader's: the first failed test)", True)
REROLLS = {
    "utter_determination": Reroll("utter_determination", "Utter Determination", False),
    "bellowing_roar": Reroll("bellowing_roar", "Bellowing Roar", False),
    "da_cunnin_plan": Reroll("da_cunnin_plan", "Da Cunnin' Plan (while the Boss stands)", False),
    "blood_oath": Reroll("blood_oath", "Blood Oath (once per battle)", True),
}
# A list's own re-roll of every failed Rout test (``effect: rout_reroll``: the Ostermarkers'),
# labelled with the rule's name.
LIST_REROLL = "rout_reroll"


def rout_rerolls(
    *,
    leader_skills: set[str],
    leader_out: bool,
    leader_has_silk: bool,
    family: str,
    list_rules: Sequence[Mapping] = (),
    used: set[str],
) -> list[Reroll]:
    """The re-rolls of a failed Rout test the warband still has (FACTS.md §8 and the warband
    lists): its leader's skills, the leader's Cathayan silk (Mercenaries, first failed test),
    a rule of the warband's list (``list_rules`` with ``effect: rout_reroll``: Ostermark's). A
    re-roll is taken at most once per test; those once per game at most once. Da Cunnin' Plan
    needs the Boss not out of action; the others are silent on it, so the helper offers them
    whatever became of the leader. The silk's "first failed test" is read as the first one the
    warband re-rolls with it: a test re-rolled with a skill leaves it unused, as players would
    expect."""
    offered = []
    for key, reroll in REROLLS.items():
        if key in leader_skills and not (reroll.once_per_game and key in used):
            if key == "da_cunnin_plan" and leader_out:
                continue
            offered.append(reroll)
    if leader_has_silk and family == "Mercenaries" and "silk" not in used:
        offered.append(SILK)
    for rule in list_rules:
        if rule.get("effect") == LIST_REROLL:
            offered.append(Reroll(LIST_REROLL, rule["name"], False))
    return offered


def next_turn(order_len: int, player: int, turn: int) -> tuple[int, int]:
    """The next player's turn: (player index, turn number); the turn number goes up when the
    first player starts again."""
    player = (player + 1) % order_len
    return player, turn + (1 if player == 0 else 0)


def winners_after_rout(order: list[int], routed: set[int]) -> list[int] | None:
    """The game ends with one warband left standing (two players: at the first rout)."""
    left = [w for w in order if w not in routed]
    return left if len(left) <= 1 else None
