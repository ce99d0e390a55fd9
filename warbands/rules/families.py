"""The family a warband list is treated as where a rule names another list's: the Carnival of
Chaos counts as the Possessed (its Tainted, the ``counts_as_possessed`` effect). Pure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["POSSESSED", "counted_family"]

#: The family a ``counts_as_possessed`` list is treated as.
POSSESSED = "Cult of the Possessed"


def counted_family(family: str, special_rules: Iterable[Mapping] | None) -> str:
    """The family the exploration and serious-injury rules treat a list as: the Possessed for a
    list with the ``counts_as_possessed`` effect (the Carnival of Chaos, Tainted: "for
    exploration and serious injuries"), its own otherwise. Read where the Possessed differ:
    the special locations, a captive's fate (sacrificed for experience) and a new leader who
    learns the old one's magic (the leader's death is a serious injury's outcome). Nowhere
    else: the Carnival is not the Possessed for hired swords, equipment or anything more."""
    if any(rule.get("effect") == "counts_as_possessed" for rule in special_rules or ()):
        return POSSESSED
    return family
