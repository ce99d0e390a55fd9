"""Serious injuries (post-battle step 1) and the death of a leader.

Source: campaigns-post-battle-injuries-experience.txt, "Henchmen with serious injuries", the
Heroes' serious injuries chart (D66) and "Death of a leader". Readings where the text is silent,
each tested in tests/rules/test_injuries.py:

- Multiple injuries: "Roll D6 times on this table. Re-roll any Dead, Captured and further
  Multiple Injuries results": a D6 for the count, then that many D66 rolls, each rolled again
  while it lands on 11-21 or 61.
- Blinded in one eye a second time: the warrior is blinded in his remaining good eye and
  retires (we do not roll which eye: a second result always takes the good one).
- Sold to the pits, lost: "roll to see whether he is dead or injured (ie, a D66 roll of
  11-35)": a D66 rolled again until it is 35 or less, applied as usual (a Multiple Injuries
  result there rolls its further injuries the same way), and if he lives he loses his armour
  and weapons.
- Bitter enmity: the hatred's target is written from the battle (who put him out of action,
  that warrior's leader, warband or warband type); unknown parts are written generically.

Warband special rules (reference/warbands-core-and-grade-1a.md), by their list files' `effect`:
- `protects_tamer` (Kislevites' Trained Bear, Fiercely Loyal): while his bear took part and was
  not taken out of action, the Bear Tamer's Robbed, Captured and Sold to the pits count as a
  Full recovery, wherever they come up (a Multiple injuries roll included).
- `daemonic_instability` (Carnival's Plague Bearers and Nurglings): out of action, each model
  is banished on a D6 of 1-3 instead of rolling for injury; the Plague Cart's +1 to that roll
  applies while the cart is on the roster. The Leadership test on a rout is taken on the table.
- `never_leader` (Ostland Ruffians, No Respect): never offered command, even as a promoted hero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from battles.rules.tasks import ask

__all__ = [
    "SERIOUS_INJURIES",
    "Enemy",
    "HeroInjuries",
    "Injury",
    "InjuryContext",
    "LeaderCandidate",
    "chart_result",
    "daemons_banished",
    "henchmen_lost",
    "hero_injuries",
    "new_leader",
    "silk_ruined",
]


def henchmen_lost(dice, *, name: str, models: int) -> tuple[int, list[int]]:
    """Each henchman out of action rolls a D6: on 1-2 he is gone for good. Returns how many
    were lost and the faces."""
    faces = [dice.roll(1, 6, f"{name}: henchman injury {n + 1}").total for n in range(models)]
    return sum(1 for face in faces if face <= 2), faces


def daemons_banished(dice, *, name: str, models: int, bonus: int = 0) -> tuple[int, list[int]]:
    """Daemonic instability: each daemon out of action rolls a D6 instead of an injury roll and
    is banished on 1-3 (``bonus``: the Plague Cart's +1). Returns how many went and the faces."""
    faces = [dice.roll(1, 6, f"{name}: daemonic instability {n + 1}").total for n in range(models)]
    return sum(1 for face in faces if face + bonus <= 3), faces


def silk_ruined(dice, *, name: str) -> tuple[bool, int]:
    """Cathayan silk clothes (equipment chapter): after a battle in which the leader wearing
    them was taken out of action, a D6 of 1-3 ruins them. Returns whether, and the face."""
    face = dice.roll(1, 6, f"{name}: are the Cathayan silk clothes ruined? (D6)").total
    return face <= 3, face


@dataclass(frozen=True)
class Enemy:
    """Who put the hero out of action, as far as the report knows."""

    warrior: str = ""  # the individual, if known
    warrior_is_hero: bool = True
    warband_id: int | None = None
    warband: str = ""
    leader: str = ""
    warband_type: str = ""


@dataclass(frozen=True)
class InjuryContext:
    name: str
    blinded_before: bool = False
    enemy: Enemy = field(default_factory=Enemy)
    opponents: tuple[tuple[int, str], ...] = ()  # (warband id, name): who could hold a captive
    guarded: bool = False  # a Bear Tamer whose bear stood (Fiercely Loyal)


@dataclass(frozen=True)
class Injury:
    """One result of the chart, with everything it does to the warrior."""

    code: int
    name: str
    dead: bool = False
    captured_by: int | None = None  # warband id of the captor
    retire: bool = False
    lowered: tuple[str, ...] = ()
    miss_games: int = 0
    lose_equipment: str = ""  # "all", or "weapons_and_armour" (thrown out of the pits)
    experience: int = 0
    gold: int = 0
    lasting: str = ""  # written on the roster as a lasting injury
    detail: str = ""


@dataclass(frozen=True)
class HeroInjuries:
    injuries: tuple[Injury, ...]

    @property
    def dead(self) -> bool:
        return any(injury.dead for injury in self.injuries)

    @property
    def summary(self) -> str:
        return "; ".join(
            injury.name + (f" ({injury.detail})" if injury.detail else "")
            for injury in self.injuries
        )


# The Heroes' serious injuries chart (D66): (lowest, highest, result), in the chart's order.
# What each result does is ``_apply``'s; ``battles.rules.at_hand`` draws the chart from this.
SERIOUS_INJURIES: tuple[tuple[int, int, str], ...] = (
    (11, 15, "Dead"),
    (16, 21, "Multiple injuries"),
    (22, 22, "Leg wound"),
    (23, 23, "Arm wound"),
    (24, 24, "Madness"),
    (25, 25, "Smashed leg"),
    (26, 26, "Chest wound"),
    (31, 31, "Blinded in one eye"),
    (32, 32, "Old battle wound"),
    (33, 33, "Nervous condition"),
    (34, 34, "Hand injury"),
    (35, 35, "Deep wound"),
    (36, 36, "Robbed"),
    (41, 55, "Full recovery"),
    (56, 56, "Bitter enmity"),
    (61, 61, "Captured"),
    (62, 63, "Hardened"),
    (64, 64, "Horrible scars"),
    (65, 65, "Sold to the pits"),
    (66, 66, "Survives against the odds"),
)


def chart_result(code: int) -> str:
    """The serious injury a D66 roll of ``code`` finds."""
    return next(name for low, high, name in SERIOUS_INJURIES if low <= code <= high)


def _d66(dice, purpose: str) -> int:
    first, second = dice.roll(2, 6, purpose).faces
    return first * 10 + second


def hero_injuries(dice, *, context: InjuryContext, answers: Mapping[str, str]) -> HeroInjuries:
    """Roll the Heroes' serious injuries chart for one hero taken out of action."""
    code = _d66(dice, f"{context.name}: serious injury (D66)")
    state = {"blinded": context.blinded_before}
    return HeroInjuries(tuple(_apply(code, dice, context, answers, state)))


# The results a Trained Bear keeps from its Tamer (Fiercely Loyal).
# The warbands whose new leader learns the old leader's magic (campaigns text, Death of the
# leader, and the lists of these warbands).
# A list that counts as the Possessed (the Carnival) is read with their family
# (``warbands.rules.families.counted_family``).
MAGIC_SUCCESSION = ("Sisters of Sigmar", "Cult of the Possessed")

GUARDED_AGAINST = ("Robbed", "Captured", "Sold to the pits")


def _apply(code: int, dice, context: InjuryContext, answers, state) -> list[Injury]:
    name = chart_result(code)
    who = context.name
    if context.guarded and name in GUARDED_AGAINST:
        return [Injury(code, "Full recovery", detail=f"{name.lower()}, but his bear guarded him")]
    if name == "Dead":
        return [Injury(code, name, dead=True, lose_equipment="all")]
    if name == "Multiple injuries":
        count = dice.roll(1, 6, f"{who}: how many further injuries (D6)").total
        injuries = [Injury(code, name, detail=f"{count} further injuries")]
        for n in range(count):
            again = _d66(dice, f"{who}: multiple injuries {n + 1} (D66)")
            while 11 <= again <= 21 or again == 61:
                again = _d66(dice, f"{who}: multiple injuries {n + 1}, rolled again (D66)")
            injuries.extend(_apply(again, dice, context, answers, state))
        return injuries
    if name == "Leg wound":
        return [Injury(code, name, lowered=("M",), lasting="Leg wound: -1 Movement")]
    if name == "Arm wound":
        roll = dice.roll(1, 6, f"{who}: arm wound (D6)").total
        if roll == 1:
            return [
                Injury(
                    code, name, detail="severe: the arm is amputated",
                    lasting="Amputated arm: may only use a single one-handed weapon",
                )
            ]  # fmt: skip
        return [Injury(code, name, detail="light wound: misses the next game", miss_games=1)]
    if name == "Madness":
        roll = dice.roll(1, 6, f"{who}: madness (D6)").total
        if roll <= 3:
            return [Injury(code, name, detail="stupidity", lasting="Madness: stupidity")]
        return [Injury(code, name, detail="frenzy", lasting="Madness: frenzy")]
    if name == "Smashed leg":
        roll = dice.roll(1, 6, f"{who}: smashed leg (D6)").total
        if roll == 1:
            return [
                Injury(
                    code, name, detail="may not run any more",
                    lasting="Smashed leg: may not run, but may still charge",
                )
            ]  # fmt: skip
        return [Injury(code, name, detail="misses the next game", miss_games=1)]
    if name == "Chest wound":
        return [Injury(code, name, lowered=("T",), lasting="Chest wound: -1 Toughness")]
    if name == "Blinded in one eye":
        if state["blinded"]:
            return [
                Injury(
                    code, name, detail="his remaining good eye: he retires", retire=True,
                    lasting="Blinded in both eyes",
                )
            ]  # fmt: skip
        state["blinded"] = True
        return [
            Injury(code, name, lowered=("BS",), lasting="Blinded in one eye: -1 Ballistic Skill")
        ]
    if name == "Old battle wound":
        return [
            Injury(
                code, name,
                lasting="Old battle wound: does not fight on a 1 on a D6 at the start of a battle",
            )
        ]  # fmt: skip
    if name == "Nervous condition":
        return [Injury(code, name, lowered=("I",), lasting="Nervous condition: -1 Initiative")]
    if name == "Hand injury":
        return [Injury(code, name, lowered=("WS",), lasting="Hand injury: -1 Weapon Skill")]
    if name == "Deep wound":
        games = (dice.roll(1, 6, f"{who}: deep wound, games to miss (D3)").total + 1) // 2
        return [Injury(code, name, detail=f"misses the next {games} games", miss_games=games)]
    if name == "Robbed":
        return [Injury(code, name, detail="all his equipment is lost", lose_equipment="all")]
    if name == "Full recovery":
        return [Injury(code, name)]
    if name == "Bitter enmity":
        roll = dice.roll(1, 6, f"{who}: bitter enmity (D6)").total
        return [
            Injury(
                code,
                name,
                detail=_hatred(roll, context.enemy),
                lasting=_hatred(roll, context.enemy),
            )
        ]
    if name == "Captured":
        captor = _captor(context, answers)
        holder = dict(context.opponents).get(captor, "the enemy")
        return [Injury(code, name, captured_by=captor, detail=f"held by {holder}")]
    if name == "Hardened":
        return [Injury(code, name, lasting="Hardened: immune to fear")]
    if name == "Horrible scars":
        return [Injury(code, name, lasting="Horrible scars: causes fear")]
    if name == "Sold to the pits":
        won = ask(
            answers, "pit_fight", f"{who} fought a Pit Fighter in the pits. Fight it out on the "
            "table: who won?", (("won", f"{who} won"), ("lost", f"{who} lost")),
        )  # fmt: skip
        if won == "won":
            return [Injury(code, name, detail="won the fight: 50 gc and +2 experience",
                           experience=2, gold=50)]  # fmt: skip
        again = _d66(dice, f"{who}: lost in the pits, dead or injured (D66, 11-35)")
        while again > 35:
            again = _d66(dice, f"{who}: lost in the pits, rolled again (D66, 11-35)")
        lost = [Injury(code, name, detail="lost the fight")]
        after = _apply(again, dice, context, answers, state)
        if not any(injury.dead for injury in after):
            lost.append(
                Injury(code, "Thrown out of the pits", lose_equipment="weapons_and_armour",
                       detail="without his armour and weapons")
            )  # fmt: skip
        return lost + after
    # 66
    return [Injury(code, name, experience=1, detail="+1 experience")]


def _hatred(roll: int, enemy: Enemy) -> str:
    """The D6 table of Bitter enmity."""
    if roll <= 3:
        if enemy.warrior and enemy.warrior_is_hero:
            return f"Bitter enmity: hates {enemy.warrior}"
        if enemy.leader:
            return f"Bitter enmity: hates {enemy.leader}, leader of {enemy.warband}"
        return "Bitter enmity: hates the warrior who put him out of action"
    if roll == 4:
        if enemy.leader:
            return f"Bitter enmity: hates {enemy.leader}, leader of {enemy.warband}"
        return "Bitter enmity: hates the leader of the warband that injured him"
    if roll == 5:
        return (
            f"Bitter enmity: hates the whole of {enemy.warband or 'the warband that injured him'}"
        )
    return f"Bitter enmity: hates all {enemy.warband_type or 'warbands of that type'}"


def _captor(context: InjuryContext, answers: Mapping[str, str]) -> int | None:
    if context.enemy.warband_id is not None:
        return context.enemy.warband_id
    if len(context.opponents) == 1:
        return context.opponents[0][0]
    if not context.opponents:
        return None
    choice = ask(
        answers, "captor", f"Which warband holds {context.name} captive?",
        tuple((str(pk), name) for pk, name in context.opponents),
    )  # fmt: skip
    return int(choice)


@dataclass(frozen=True)
class LeaderCandidate:
    warrior_id: int
    name: str
    leadership: int
    experience: int
    type_key: str
    may_lead: bool = True  # False for a type that never leads (Ruffians' No Respect)


def new_leader(
    heroes: Sequence[LeaderCandidate], dice, *, warband_family: str
) -> tuple[int | None, str]:
    """Death of a leader: the hero with the highest Leadership takes command; the most
    experience breaks a tie, then a D6 roll-off. In an Undead warband the Necromancer takes
    over, and without one the warband collapses. Returns the new leader (or None) and a note."""
    heroes = [h for h in heroes if h.may_lead]
    if not heroes:
        return None, "No hero is left to take command."
    if warband_family == "Undead":
        necromancers = [h for h in heroes if h.type_key == "necromancer"]
        if not necromancers:
            return None, (
                "Without a Necromancer the spells that hold the restless dead together unravel: "
                "the warband collapses until it buys a new Vampire."
            )
        return necromancers[0].warrior_id, f"{necromancers[0].name}, the Necromancer, takes over."
    best = max(h.leadership for h in heroes)
    contenders = [h for h in heroes if h.leadership == best]
    most = max(h.experience for h in contenders)
    contenders = [h for h in contenders if h.experience == most]
    while len(contenders) > 1:
        rolled = [(dice.roll(1, 6, f"new leader roll-off: {h.name}").total, h) for h in contenders]
        top = max(roll for roll, _ in rolled)
        contenders = [h for roll, h in rolled if roll == top]
    chosen = contenders[0]
    return chosen.warrior_id, f"{chosen.name} takes command."
