"""Pure rules of reporting a battle: which combinations of results make sense.

Readings (the rulebook describes two-player games and multiplayer routs, not a form):
- A battle has at least two warbands, each at most once.
- Either every warband drew (the game ended with nobody routing), or at least one warband won
  and at least one lost; a draw does not mix with wins and losses.
- A warband that routed lost. Routers are numbered 1, 2, 3 … in the order they routed, each
  number once; Mayhem in Mordheim's multi-warband recovery depends on that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.errors import RuleViolation
from core.words import possessive

__all__ = [
    "REMAINING",
    "ROUTING",
    "DiscoveryTest",
    "FortuneRow",
    "LooseItem",
    "Placer",
    "Recovery",
    "RecoveryRoll",
    "ReportedResult",
    "Side",
    "after_securing",
    "check_results",
    "choosing_order",
    "discovery_test",
    "fortune_roll",
    "look_up_fortune",
    "placement_order",
    "random_fortune_markers",
    "resolve_uncontrolled",
]


@dataclass(frozen=True)
class ReportedResult:
    warband_id: int
    result: str  # "won", "draw" or "lost"
    routed: bool = False
    rout_order: int | None = None


def check_results(results: Sequence[ReportedResult]) -> None:
    if len(results) < 2:
        raise RuleViolation("A battle needs at least two warbands.")
    if len({r.warband_id for r in results}) != len(results):
        raise RuleViolation("Each warband takes part once.")
    outcomes = {r.result for r in results}
    if not outcomes <= {"won", "draw", "lost"}:
        raise RuleViolation("Each warband won, drew or lost.")
    if outcomes == {"draw"}:
        pass
    elif "draw" in outcomes or outcomes != {"won", "lost"}:
        raise RuleViolation("Either every warband drew, or at least one won and at least one lost.")
    for r in results:
        if r.routed and r.result != "lost":
            raise RuleViolation("A warband that routed lost the battle.")
        if not r.routed and r.rout_order is not None:
            raise RuleViolation("Only a warband that routed has a rout order.")
    orders = sorted(r.rout_order for r in results if r.routed and r.rout_order is not None)
    routers = sum(1 for r in results if r.routed)
    if len(orders) != routers and routers > 1:
        raise RuleViolation("Say in which order the warbands routed (1 for the first).")
    if orders and orders != list(range(1, len(orders) + 1)):
        raise RuleViolation("Number the routed warbands 1, 2, 3 … in the order they routed.")


# --- Securing uncontrolled carried items (Mayhem in Mordheim) ------------------------------
#
# Source: mim-carried-items-and-storage-containers.txt, "Securing Uncontrolled Carried Items",
# the Uncontrolled Carried Item Recovery Table and its modifiers, "Recovery in Games With
# Multiple Warbands" and the no-routers paragraph. Readings where the text is silent, each
# tested in tests/rules/test_recovery.py:
#
# - Modifiers count in favour of whoever they help: "+1 or -1 (player chooses)" for a Band of
#   Pitters, the most standing Quartermasters or a mule's own warband is always chosen to help
#   that warband; on the table a "+" helps the warband remaining on the battlefield.
# - A warband "which no longer has any warriors remaining on the table which can secure items"
#   secures only on its natural roll (1 routing, 6 remaining); otherwise the item goes to the
#   other side if that side can secure it, and is left behind (lost) if neither can. In the
#   multi-warband chain the earlier routers have no models by definition and secure normally,
#   as the text's example shows (the Sisters of Cersei secure the last item).
# - With nobody routed and two warbands, the first listed wins on 1-3 and the second on 4-6
#   (the text's example); a modifier helping the second adds, helping the first subtracts; the
#   heavy modifier, which exists because routers struggle with heavy loads, does not apply;
#   natural 1 and 6 go to the first and the second. With three or more warbands remaining
#   (with or without routers) they roll off for it: each rolls a D6 plus the modifiers that
#   help it, highest wins, ties roll again.
# - The mule modifier applies to the first roll only: in the chain "only apply the modifiers
#   for Heavy, Band of Pitters, and Quartermasters".

REMAINING, ROUTING = "remaining", "routing"


@dataclass(frozen=True)
class Side:
    """A warband at the end of the game, as the recovery rules see it."""

    warband_id: int
    name: str
    routed: bool = False
    rout_order: int | None = None
    securers: int = 1  # its warriors still on the table able to secure an item
    pitters: int = 0  # a Band of Pitters' modifier (1, or 2 where the group allows it)
    quartermasters: int = 0  # standing Quartermasters at the end (when the option is on)


@dataclass(frozen=True)
class LooseItem:
    """An uncontrolled carried item to resolve."""

    label: str
    heavy: bool = False
    majority: int | None = None  # warband whose warriors are the majority near it, if any
    mule_of: int | None = None  # the warband that deployed this mule


@dataclass(frozen=True)
class RecoveryRoll:
    high: tuple[int, ...]  # the warbands a high roll favours ("remaining")
    low: tuple[int, ...]  # those a low roll favours ("routing")
    die: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    winner: str  # REMAINING or ROUTING side of this roll
    natural: bool  # decided by a natural 1 or 6 whatever the modifiers

    @property
    def description(self) -> str:
        shown = " ".join(f"{value:+d} {label}" for label, value in self.modifiers)
        return f"D6 {self.die}{' ' + shown if shown else ''} = {self.total}"


@dataclass(frozen=True)
class Recovery:
    winner: int | None  # the warband that secures the item; None: left behind
    rolls: tuple[RecoveryRoll, ...]
    note: str = ""


def _modifiers(
    item: LooseItem,
    high: Sequence[Side],
    low: Sequence[Side],
    *,
    first_roll: bool,
    quartermaster_option: bool,
    counted: Sequence[Side],
    heavy_applies: bool = True,
) -> list[tuple[str, int]]:
    """The modifiers of one roll. Only the warbands in ``counted`` bring their Band of Pitters
    and Quartermasters: the final warbands of the game for the first roll, the routers still in
    contention for each roll of the multi-warband chain."""
    high_ids = {s.warband_id for s in high}
    low_ids = {s.warband_id for s in low}
    found: list[tuple[str, int]] = []

    def favour(warband_id: int, size: int, label: str) -> None:
        if warband_id in high_ids:
            found.append((label, size))
        elif warband_id in low_ids:
            found.append((label, -size))

    if first_roll and item.majority is not None:
        favour(item.majority, 1, "majority of warriors near it")
    if heavy_applies and item.heavy:
        found.append(("heavy", 1))
    counted_ids = {s.warband_id for s in counted}
    for side in (*high, *low):
        if side.pitters and side.warband_id in counted_ids:
            favour(side.warband_id, side.pitters, f"{possessive(side.name)} Band of Pitters")
    if quartermaster_option:
        most = max((s.quartermasters for s in counted), default=0)
        leaders = [s for s in counted if s.quartermasters == most]
        if most > 0 and len(leaders) == 1:
            favour(leaders[0].warband_id, 1, f"{possessive(leaders[0].name)} Quartermasters")
    if first_roll and item.mule_of is not None:
        favour(item.mule_of, 1, "the mule knows its own")
    return found


def _table_roll(dice, item, high, low, **kwargs) -> RecoveryRoll:
    """One roll on the Uncontrolled Carried Item Recovery Table: 1-2 low side, 3-6 high side,
    a natural 1 or 6 final whatever the modifiers."""
    die = dice.roll(1, 6, f"recovery of {item.label}").total
    modifiers = tuple(_modifiers(item, high, low, **kwargs))
    total = die + sum(value for _, value in modifiers)
    if die in (1, 6):
        winner, natural = (ROUTING if die == 1 else REMAINING), True
    else:
        winner, natural = (REMAINING if total >= 3 else ROUTING), False
    return RecoveryRoll(
        high=tuple(s.warband_id for s in high),
        low=tuple(s.warband_id for s in low),
        die=die,
        modifiers=modifiers,
        total=total,
        winner=winner,
        natural=natural,
    )


def _equal_roll(dice, item, first: Side, second: Side, **kwargs) -> RecoveryRoll:
    """No routers, two warbands: 1-3 the first, 4-6 the second; natural 1 and 6 final."""
    die = dice.roll(1, 6, f"recovery of {item.label}").total
    modifiers = tuple(_modifiers(item, [second], [first], heavy_applies=False, **kwargs))
    total = die + sum(value for _, value in modifiers)
    if die in (1, 6):
        winner, natural = (ROUTING if die == 1 else REMAINING), True
    else:
        winner, natural = (REMAINING if total >= 4 else ROUTING), False
    return RecoveryRoll(
        high=(second.warband_id,),
        low=(first.warband_id,),
        die=die,
        modifiers=modifiers,
        total=total,
        winner=winner,
        natural=natural,
    )


def _roll_off(dice, item, sides: Sequence[Side], **kwargs) -> tuple[Side, list[RecoveryRoll]]:
    """Three or more warbands with an equal chance: highest D6 plus its own modifiers."""
    rolls: list[RecoveryRoll] = []
    contenders = list(sides)
    for _ in range(20):
        scored = []
        for side in contenders:
            die = dice.roll(1, 6, f"roll-off for {item.label}: {side.name}").total
            modifiers = tuple(
                (label, value)
                for label, value in _modifiers(item, [side], [], heavy_applies=False, **kwargs)
                if value > 0
            )
            total = die + sum(value for _, value in modifiers)
            rolls.append(
                RecoveryRoll((side.warband_id,), (), die, modifiers, total, REMAINING, False)
            )
            scored.append((total, side))
        best = max(total for total, _ in scored)
        contenders = [side for total, side in scored if total == best]
        if len(contenders) == 1:
            return contenders[0], rolls
    return contenders[0], rolls  # twenty tied roll-offs: take the first listed


def resolve_uncontrolled(
    item: LooseItem,
    sides: Sequence[Side],
    dice,
    *,
    quartermaster_option: bool = False,
) -> Recovery:
    """Who secures one uncontrolled carried item at the end of the game."""
    remaining = [s for s in sides if not s.routed]
    routers = sorted((s for s in sides if s.routed), key=lambda s: s.rout_order or 0)
    common = {"quartermaster_option": quartermaster_option, "counted": sides}
    if not remaining:
        # Everybody routed: the last to rout counts as remaining (as in the chain).
        remaining, routers = [routers[-1]], routers[:-1]
        if not routers:
            return Recovery(remaining[0].warband_id, (), "the only warband left secures it")
    if not routers:
        if len(remaining) == 2:
            first, second = remaining
            roll = _equal_roll(dice, item, first, second, first_roll=True, **common)
            winner, loser = (second, first) if roll.winner == REMAINING else (first, second)
            return _check_securers(roll, winner, loser, [roll])
        chosen, rolls = _roll_off(dice, item, remaining, first_roll=True, **common)
        return Recovery(chosen.warband_id, tuple(rolls))
    # The first roll counts only the modifiers of the final warbands in the game: those that
    # stayed and the last to rout, whose models were still on the table when it ended.
    # (With everybody routed this roll is the chain's first, and every router still counts.)
    everybody_routed = all(s.routed for s in sides)
    final = common if everybody_routed else {**common, "counted": [*remaining, routers[-1]]}
    roll = _table_roll(dice, item, remaining, routers, first_roll=True, **final)
    rolls = [roll]
    if roll.winner == REMAINING:
        if len(remaining) == 1:
            other = routers[-1]
            return _check_securers(roll, remaining[0], other, rolls, other_side=routers)
        chosen, more = _roll_off(dice, item, remaining, first_roll=True, **final)
        return Recovery(chosen.warband_id, tuple(rolls + more))
    if len(routers) == 1:
        winner = routers[0]
        if winner.securers <= 0 and not roll.natural:
            # The routing warband has nobody left to take it: the other side keeps it.
            takers = [s for s in remaining if s.securers > 0]
            if takers:
                return Recovery(takers[0].warband_id, tuple(rolls), "nobody left to secure it")
            return Recovery(None, tuple(rolls), "nobody left to secure it: it is lost")
        return Recovery(winner.warband_id, tuple(rolls))
    # Several routers: roll again down the rout order, the last to rout counting as remaining,
    # with only the heavy, Band of Pitters and Quartermaster modifiers.
    chain = list(routers)
    while len(chain) > 1:
        last, earlier = chain[-1], chain[:-1]
        # Each roll of the chain compares the routers still in contention (the Quartermasters
        # standing when each of them routed), not the warbands that already lost the item.
        in_chain = {**common, "counted": chain}
        roll = _table_roll(dice, item, [last], earlier, first_roll=False, **in_chain)
        rolls.append(roll)
        if roll.winner == REMAINING:
            return Recovery(last.warband_id, tuple(rolls))
        chain = earlier
    return Recovery(chain[0].warband_id, tuple(rolls))


def _check_securers(
    roll: RecoveryRoll, winner: Side, loser: Side, rolls, other_side: Sequence[Side] = ()
) -> Recovery:
    """A winner with no warriors left able to secure items takes it only on its natural roll;
    otherwise it goes to the other side, if that side can, or is lost."""
    if winner.securers > 0 or roll.natural:
        return Recovery(winner.warband_id, tuple(rolls))
    candidates = [s for s in (loser, *other_side) if s.securers > 0]
    if candidates:
        return Recovery(candidates[0].warband_id, tuple(rolls), "nobody left to secure it")
    return Recovery(None, tuple(rolls), "nobody left to secure it: it is lost")


def choosing_order(sides: Sequence[Side], dice) -> list[Side]:
    """Who chooses the next uncontrolled item: the warbands that did not rout first (rolling
    off when there are several), then the routers, the last to rout first."""
    remaining = [s for s in sides if not s.routed]
    if len(remaining) > 1:
        rolled = [
            (dice.roll(1, 6, f"choosing order: {s.name}").total, i, s)
            for i, s in enumerate(remaining)
        ]
        remaining = [s for _, _, s in sorted(rolled, key=lambda r: (-r[0], r[1]))]
    routers = sorted((s for s in sides if s.routed), key=lambda s: -(s.rout_order or 0))
    return remaining + routers


def after_securing(sides: Sequence[Side], warband_id: int | None) -> list[Side]:
    """The securing warband removes its closest warrior able to secure items."""
    return [
        replace(s, securers=max(s.securers - 1, 0)) if s.warband_id == warband_id else s
        for s in sides
    ]


# --- Random fortune (Mayhem in Mordheim, mim-random-fortune.txt) ---------------------------


def random_fortune_markers(dice, warbands: int) -> int:
    """ "Roll a D3 and add the number of warbands participating in the game.\""""
    return (dice.roll(1, 6, "random fortune markers (D3)").total + 1) // 2 + warbands


@dataclass(frozen=True)
class Placer:
    warband_id: int
    name: str
    rating: int


def placement_order(placers: Sequence[Placer], dice) -> list[Placer]:
    """ "In order of Warband Rating, lowest to highest ... If there are ties in warband ratings
    roll off to determine placement order" (the higher roll places first)."""
    rolled = []
    ratings = [p.rating for p in placers]
    for index, placer in enumerate(placers):
        tied = ratings.count(placer.rating) > 1
        roll = dice.roll(1, 6, f"placement roll-off: {placer.name}").total if tied else 0
        rolled.append((placer.rating, -roll, index, placer))
    return [placer for *_, placer in sorted(rolled, key=lambda r: r[:3])]


@dataclass(frozen=True)
class DiscoveryTest:
    roll: int
    discovered: bool
    cult_attack: bool


def discovery_test(dice, *, warband: str, holds_dark_artefact: bool) -> DiscoveryTest:
    """D6: 1-3 nothing, 4-6 a discovery. A natural 1 brings the cult's attack when the warband
    started the game with a Dark Artefact."""
    roll = dice.roll(1, 6, f"random fortune discovery test: {warband}").total
    return DiscoveryTest(roll, roll >= 4, roll == 1 and holds_dark_artefact)


@dataclass(frozen=True)
class FortuneRow:
    low: int
    high: int
    result: str
    kind: str  # "carried_item", "animal", "cart" or "coach"


def fortune_roll(dice, table: str) -> int:
    """D66 (tens and units) or D100 (1-100), as the scenario says."""
    if table == "d100":
        return dice.roll(1, 100, "random fortune table (D100)").total
    first, second = dice.roll(2, 6, "random fortune table (D66)").faces
    return first * 10 + second


def look_up_fortune(rows: Sequence[FortuneRow], roll: int) -> FortuneRow | None:
    return next((row for row in rows if row.low <= roll <= row.high), None)
