"""Pure rule of who may have an item (reference/02-weapons-armour-equipment.md, each item's
availability: "Skaven only", "Dwarfs only", "May not be bought by Undead" …). No Django.

An item names the warband lists that may have it (``allowed``: empty for every list) and those
that may not (``refused``), with a short label of the restriction in our own words. Readings
where the text is silent: the restriction is a warband's, checked wherever the warband buys
(muster, the rare-items step, the common-items step); a restriction to some of a warband's
models (heroes only, a race) is left to the warband's equipment lists, as the rules leave it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Restriction", "may_have"]


@dataclass(frozen=True)
class Restriction:
    """Who may have an item: the keys of the warband lists allowed (none: all) and refused."""

    allowed: Sequence[str] = ()
    refused: Sequence[str] = ()
    label: str = ""

    @property
    def restricted(self) -> bool:
        return bool(self.allowed or self.refused)


def may_have(item_name: str, restriction: Restriction, warband_key: str) -> str | None:
    """``None`` when a warband of the list ``warband_key`` may have the item, otherwise the
    reason it may not, naming the restriction."""
    if not restriction.restricted:
        return None
    barred = warband_key in restriction.refused or (
        bool(restriction.allowed) and warband_key not in restriction.allowed
    )
    if not barred:
        return None
    label = restriction.label or "a restricted item"
    return f"{item_name} is not for this warband ({label})."
