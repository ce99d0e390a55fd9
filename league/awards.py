"""The campaign's awards, beside its league table and in its standings file: the warband that
put most enemies out of action, the one that played most battles and, once the campaign is
over, the richest.

The first two are read from the table's rows (no query of their own). The richest is the
warband holding the most gold crowns across its containers, wyrdstone shards breaking a tie
(items are left out: what one is worth depends on a sale). Treasuries are secret while the
campaign runs, so it is read, in one grouped query, only when
``warbands.permissions.treasury_totals_public`` says the campaign is over. Ties share an award;
an award nobody earned (no battle yet, an empty treasury) is not given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from campaign.models import Campaign
from league.standings import Row
from warbands.permissions import treasury_totals_public
from warbands.treasury.queries import totals_by_warband


@dataclass(frozen=True)
class Award:
    title: str
    warbands: tuple  # the winners' Warband rows, by name
    figure: str  # what won it, in words

    @property
    def names(self) -> str:
        return ", ".join(warband.name for warband in self.warbands)


def _most(rows: Sequence[Row], value: Callable[[Row], object]) -> tuple[object, tuple]:
    """The highest ``value`` among ``rows`` and the warbands that reach it."""
    best = max((value(row) for row in rows), default=None)
    winners = sorted((row.warband for row in rows if value(row) == best), key=lambda w: w.name)
    return best, tuple(winners)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def awards(campaign: Campaign, rows: Sequence[Row]) -> list[Award]:
    """The awards earned so far, from the league table's ``rows`` (every warband's)."""
    found = []
    enemies, winners = _most(rows, lambda row: row.enemies_ooa)
    if enemies:
        figure = f"{enemies} {'enemy' if enemies == 1 else 'enemies'}"
        found.append(Award("Most enemies put out of action", winners, figure))
    played, winners = _most(rows, lambda row: row.played)
    if played:
        found.append(Award("Most battles played", winners, _plural(played, "battle")))
    if treasury_totals_public(campaign) and rows:
        totals = totals_by_warband(campaign)
        richest, winners = _most(rows, lambda row: totals.get(row.warband.pk, (0, 0)))
        gold, wyrdstone = richest
        if gold or wyrdstone:
            shards = f", {_plural(wyrdstone, 'wyrdstone shard')}" if wyrdstone else ""
            figure = f"{gold} gc{shards}"
            found.append(Award("Richest warband", winners, figure))
    return found


def richest_hidden(campaign: Campaign) -> bool:
    """The richest warband is not told yet: the campaign still runs."""
    return not treasury_totals_public(campaign)


__all__ = ["Award", "awards", "richest_hidden"]
