"""The Mordheim map in the post-battle sequence (``battles.rules.mordheim_map``): its D6 is
rolled when it is bought in step 6, with the purchase's dice (typed after the price dice and
any Haggle dice, or by the server) and logged; the re-rolls it gives land in the exploration
of step 3 (``battles.aftermath.exploration``). Readings where the rules are silent:

- A Vague or an Accurate map's re-rolls (``Warband.map_rerolls``) are offered at the next
  exploration, each for one die of the player's choice, and are gone after it, used or not.
- A master map (``Warband.master_map``) gives its re-roll at each exploration where a hero
  carrying a Mordheim map explores (fought, and was not taken out of action); a map in a
  container is carried by no one.
- A map found while exploring is rolled for by the players, as the location's note says: the
  rule rolls "when you buy a map".
"""

from __future__ import annotations

from battles.aftermath.engine import Context
from battles.rules import mordheim_map as rules
from core.dice import Need
from warbands.models import Warband, Warrior, WarriorItem

KEY = rules.KEY


def with_map_die(need: Need) -> Need:
    """The dice a purchase of a Mordheim map types: its own, then the map's D6."""
    reads = f"{need.reads} then D6 for the map" if need.count else "D6 for the map"
    return Need(need.count + 1, reads)


def bought(ctx: Context, dice) -> str:
    """Roll the D6 of a Mordheim map just bought and keep what it gives the warband."""
    roll = dice.roll(1, 6, "Mordheim map: what it is (D6)").total
    found = rules.map_roll(roll)
    warband = ctx.warband
    if found.rerolls:
        ctx.journal.update(warband, map_rerolls=warband.map_rerolls + found.rerolls)
    if found.master and not warband.master_map:
        ctx.journal.update(warband, master_map=True)
    told = f" {found.told}" if found.told else ""
    return f"{found.describe(roll)}.{told}"


def rerolls(warband: Warband, heroes: list[Warrior]) -> list[str]:
    """The exploration re-rolls the warband's Mordheim maps give, given the heroes who explore."""
    sources = [
        f"Mordheim map ({n + 1} of {warband.map_rerolls})" for n in range(warband.map_rerolls)
    ]
    if warband.master_map:
        carrier = (
            WarriorItem.objects.filter(warrior__in=[h.pk for h in heroes], item__key=KEY)
            .select_related("warrior")
            .order_by("warrior_id")
            .first()
        )
        if carrier is not None:
            sources.append(f"Master map ({carrier.warrior.name})")
    return sources
