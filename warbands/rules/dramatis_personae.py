"""Dramatis personae (the chapter's opening sections): finding one after a battle and the
terms a warband hires him on. Pure: plain values in, plain results out.

- Looking for him: any number of heroes who were not taken out of action in the battle
  search; a D6 each; he is found when any one of them rolls under his own Initiative. A hero
  who searches does not look for rare items.
- Only one of a given persona in a warband; a warband may have several personae.
- He earns no experience, suffers serious injuries as a hero does, keeps his own equipment
  (nothing is bought for him or handed to him), and asks his upkeep after every battle he
  fought, the first too, or he leaves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Search", "campaign_refusal", "search", "wanderer_refusal"]


@dataclass(frozen=True)
class Search:
    """One search: each searcher's name, Initiative and D6, and whether he found him."""

    rolls: tuple[tuple[str, int, int], ...]

    @property
    def found(self) -> bool:
        return any(roll < initiative for _name, initiative, roll in self.rolls)

    def describe(self, persona: str) -> str:
        each = ", ".join(
            f"{name} {roll} against I {initiative}" for name, initiative, roll in self.rolls
        )
        outcome = "found" if self.found else "not found"
        return f"Looking for {persona}: {each}: {outcome}."


def search(searchers: Sequence[tuple[str, int]], rolls: Iterable[int]) -> Search:
    """The search by ``searchers`` (name, Initiative), one D6 of ``rolls`` each, in order."""
    pairs = zip(searchers, rolls, strict=True)
    return Search(tuple((name, initiative, roll) for (name, initiative), roll in pairs))


def campaign_refusal(name: str, *, held_elsewhere: bool, everywhere: bool) -> str | None:
    """He is one named character: while another warband of the campaign has him, nobody else
    may hire him (unless his entry lets two warbands have him at once)."""
    if held_elsewhere and not everywhere:
        return f"{name} fights for another warband of this campaign."
    return None


def wanderer_refusal(name: str, *, used_last_battle: bool) -> str | None:
    """A wanderer (Aenur, Dijin Katal …) stays for one battle; the warband that had him in its
    last battle seeks him again only after a battle fought without him."""
    if used_last_battle:
        return f"{name} fought the warband's last battle: seek him after one without him."
    return None
