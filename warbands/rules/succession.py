"""Pure rules of a warband that lost its leader and buys him again (campaigns text, Death of a
leader). No Django, no ORM: plain values in, plain values out.

Most warbands may never hire a new leader: a hero takes command and keeps it
(``roster.check_hire`` refuses a second leader). The Undead are the exception: the Necromancer
takes over when the Vampire dies, the warband may buy a new Vampire after the next game, and
the Necromancer then steps down and loses the Leader ability.

Reading where the text is silent: "the next game" is counted from the last game the dead
leader was part of (the one he died after, or was captured in); a new one may be bought in the
post-battle sequence of any game the warband fought after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.errors import RuleViolation
from warbands.rules.roster import RosterEntry

__all__ = ["LEADER_BOUGHT_AGAIN", "acting_leader_steps_down", "leader_bought_again"]

# The warband families (``WarbandType.family``) whose dead leader may be bought again.
LEADER_BOUGHT_AGAIN: frozenset[str] = frozenset({"Undead"})


def leader_bought_again(family: str, leader_name: str, *, games_since_lost: int | None) -> bool:
    """Whether hiring a warrior of the list's leader type (``leader_name``) brings a new
    leader, before whom the acting leader steps down. ``games_since_lost``: how many games
    the warband fought after the last one a dead leader of that type was part of, the game
    whose sequence is being played included; None when none of them died.

    True for a list of ``LEADER_BOUGHT_AGAIN`` whose leader died, once a game has passed;
    ``RuleViolation`` before that; False otherwise (a second leader is refused as ever)."""
    if family not in LEADER_BOUGHT_AGAIN or games_since_lost is None:
        return False
    if games_since_lost < 1:
        raise RuleViolation(
            f"A new {leader_name} may be bought after the next game, not in the sequence of "
            "the game the last one was lost in."
        )
    return True


def acting_leader_steps_down(roster: Sequence[RosterEntry]) -> list[RosterEntry]:
    """The roster as it stands once the leader bought again takes command: whoever led in
    his place leads no more (he loses the Leader ability)."""
    return [replace(entry, is_leader=False) for entry in roster]
