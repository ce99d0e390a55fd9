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
from dataclasses import dataclass

from warbands.rules import RuleViolation

__all__ = ["ReportedResult", "check_results"]


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
