"""Sawbones (optional rules, Town Cryer 8; a campaign's house rule): a hero may see a physician
after a battle instead of looking for a rare item, pay for one roll on the surgery table of one
lasting injury, and take what the surgeon makes of it. Pure: plain values in, plain results
out.

- One injury, one attempt, per hero and post-battle sequence, paid before the roll.
- Some injuries cannot be treated at all (chest wound, blinded in one eye, old battle wound);
  the leg, the smashed leg and the hand go to limb surgery, madness and nerves to the brain
  surgeon. Any other lasting injury (one of a list's own charts) is not on these tables.

Readings where the text is silent:
- An amputation takes the treated injury with it (the limb it was on is gone): the injury and
  its penalty go, then the amputation's own applies (a leg: Movement halved, rounding up).
- A cure takes back exactly the point the injury cost, never above the warrior's racial
  maximum.
- Madness treated by the brain surgeon's "worse" result becomes stupidity; when the madness
  was stupidity already, nothing changes, as the table says.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FEE", "Outcome", "brain_surgery", "limb_surgery", "surgery", "table_for"]

FEE = 20  # gold crowns per attempt, paid before the roll

LIMB = {"Leg wound": "M", "Smashed leg": None, "Hand injury": "WS"}
BRAIN = {"Madness": None, "Nervous condition": "I"}
UNTREATABLE = {"Chest wound", "Blinded in one eye", "Old battle wound"}


@dataclass(frozen=True)
class Outcome:
    """What a 2D6 on a surgery table does: ``dead`` (he dies; the warband keeps his gear),
    ``cured`` (the injury and its penalty go), ``miss_games``, ``amputated`` (limb surgery's
    4), ``stupid`` (he is subject to stupidity), ``unhinged`` (-1 Initiative, at least 1, and
    he causes fear)."""

    total: int
    summary: str
    dead: bool = False
    cured: bool = False
    miss_games: int = 0
    amputated: bool = False
    stupid: bool = False
    unhinged: bool = False


def table_for(injury: str) -> str | None:
    """``"limb"``, ``"brain"`` or ``None`` (untreatable, or on neither table)."""
    if injury in LIMB:
        return "limb"
    if injury in BRAIN:
        return "brain"
    return None


def penalty_of(injury: str) -> str | None:
    """The characteristic the injury lowered by one (the one a cure gives back), or None."""
    return {**LIMB, **BRAIN}.get(injury)


def limb_surgery(total: int) -> Outcome:
    if total <= 3:
        return Outcome(total, "the patient bled to death on the table", dead=True)
    if total == 4:
        return Outcome(total, "the surgeon took the limb off", amputated=True)
    if total <= 6:
        return Outcome(total, "the surgery failed; he misses the next battle", miss_games=1)
    if total <= 8:
        return Outcome(total, "the surgery failed")
    if total <= 10:
        return Outcome(total, "healed; he misses the next battle", cured=True, miss_games=1)
    return Outcome(total, "healed completely", cured=True)


def brain_surgery(total: int) -> Outcome:
    if total <= 3:
        return Outcome(total, "the treatment killed him", dead=True)
    if total <= 5:
        return Outcome(total, "worse than before: he is now subject to stupidity", stupid=True)
    if total == 6:
        return Outcome(total, "unhinged: -1 Initiative, and he now causes fear", unhinged=True)
    if total <= 8:
        return Outcome(total, "the treatment failed; he misses the next battle", miss_games=1)
    if total <= 10:
        return Outcome(total, "healed; he misses the next battle", cured=True, miss_games=1)
    return Outcome(total, "healed completely", cured=True)


def surgery(injury: str, total: int) -> Outcome:
    """The outcome of ``total`` (2D6) on the table that treats ``injury``."""
    table = table_for(injury)
    if table is None:
        raise ValueError(f"{injury} is not treated by the surgeons")
    return limb_surgery(total) if table == "limb" else brain_surgery(total)
