"""Who may take part in a battle beside whom. Pure.

Kislevites, Trained Bear (its ``needs_tamer`` effect): it is used only in a game its Bear
Tamer takes part in, and with no Tamer free to fight it stays at camp. The list's ``needs``
roster rule for the bear's type names its tamers (``any_of``) and keeps it from being hired
without one; this is the same rule in battle. A type with ``needs_tamer`` but no ``needs`` rule
names no tamer, and fights as any warrior (a list's own data would be missing its half).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["NEEDS_TAMER", "needs_a_tamer", "untamed_types"]

NEEDS_TAMER = "needs_tamer"


def needs_a_tamer(special_rules: Iterable[Mapping] | None) -> bool:
    return any(rule.get("effect") == NEEDS_TAMER for rule in special_rules or ())


def untamed_types(
    fielded: Iterable[tuple[str, Iterable[Mapping] | None]],
    needs: Sequence[tuple[str, Sequence[str], str]],
) -> dict[str, tuple[str, ...]]:
    """Of the ``fielded`` warriors' types (type key, its special rules), those that need a
    tamer (``needs_tamer``) with none of their tamers fielded, each with its tamers' keys.
    ``needs``: the list's roster rules (``WarbandLimits.needs``)."""
    fielded = list(fielded)
    present = {key for key, _ in fielded}
    tamers = {type_key: tuple(keys) for type_key, keys, _ in needs}
    return {
        key: tamers[key]
        for key, rules in fielded
        if key in tamers and needs_a_tamer(rules) and not set(tamers[key]) & present
    }
