"""What carrying a warband into another campaign allows, as plain facts in and sentences out.

The services read the facts (under their locks) and raise the first refusal; the page asks
the same questions to list only the campaigns that would take the warband. Every refusal says
what would work instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.words import plural

# The treasury a carried or imported warband brings (``Campaign.CarriedTreasury``'s values).
STARTING_GOLD = "starting_gold"
KEPT = "kept"
NONE = "none"


@dataclass(frozen=True)
class CarryFacts:
    """Everything that decides whether ``warband`` may go into ``target`` now."""

    is_owner: bool
    status: str  # the warband's: draft, active, disbanded or archived
    source_status: str  # its campaign's: open, closed or archived
    same_campaign: bool
    is_member: bool
    target_open: bool
    target_allows: bool
    already_carried: bool
    open_sequences: int
    fighters: int  # its warriors free to fight (a disbanded warband has none left)
    list_refusal: str | None
    sword_refusals: tuple[str, ...]
    playing: int  # the owner's warbands in play in the target
    most: int  # the target's warbands per player


def carry_refusal(facts: CarryFacts) -> str | None:
    """Why the warband may not be carried (``None`` when it may), the first reason found."""
    if not facts.is_owner:
        return "Only the warband's owner may carry it into another campaign."
    if facts.status == "draft":
        return "Finish mustering the warband first: only a mustered warband can be carried."
    if facts.source_status == "archived":
        return "Its campaign is archived: ask an organiser to close it instead, then carry it."
    if not facts.fighters:
        return (
            "It has no warrior free to fight left (a disbanded warband loses them all): "
            "muster a new warband in the other campaign instead."
        )
    if facts.same_campaign:
        return "Choose another campaign: a warband is carried out of its own campaign."
    if not facts.is_member:
        return "You are not a member of that campaign: join it with its code first."
    if not facts.target_open:
        return "That campaign is closed: choose a running one."
    if not facts.target_allows:
        return (
            "That campaign does not take warbands from other campaigns: ask its organiser to "
            "allow carrying on its settings page."
        )
    if facts.already_carried:
        return (
            "This warband has already been carried into that campaign: play the copy there, "
            "or carry it into another campaign."
        )
    if facts.open_sequences:
        return (
            f"{plural(facts.open_sequences, 'post-battle sequence')} of this warband "
            f"{'is' if facts.open_sequences == 1 else 'are'} not finished: finish "
            f"{'it' if facts.open_sequences == 1 else 'them'}, then carry the warband."
        )
    if facts.list_refusal:
        return facts.list_refusal
    if facts.sword_refusals:
        return facts.sword_refusals[0]
    if facts.playing >= facts.most:
        return (
            f"That campaign allows {plural(facts.most, 'warband')} per player and you already "
            "have that many: disband one there first, or ask its organiser to allow more."
        )
    return None


def starting_split(gold: int, room: int) -> tuple[int, int]:
    """The starting gold of a carried warband: what fits in its free treasure chest, and what
    waits unstored (the player buys a container for it before the next sequence ends)."""
    stored = min(gold, max(room, 0))
    return stored, gold - stored
