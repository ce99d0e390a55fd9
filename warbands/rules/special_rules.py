"""What the app does with each special rule it shows: applies it (and where), applies its
campaign part and leaves the rest to the table, or leaves it all to the table. Pure.

The pages say so beside each rule, so that a player never takes a rule the app shows for one it
applies. A rule is applied when its ``effect`` is one the code reads (``APPLIED_EFFECTS``; the
list files and ``warbands/data/README.md`` name the effects), or when it is one of the rules the
roster itself keeps (``KEPT_BY_THE_ROSTER``: who leads, which spells a caster knows, who gains no
experience), checked against the warrior type's own fields so a rule of the same name that means
something else is not claimed. Anything else is played at the table: most are rules of the
game on the table (fear, frenzy, weapons), which the app does not track.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["APPLIED_EFFECTS", "Handling", "handling", "handling_for"]

#: Each effect the code reads, and where it applies it.
APPLIED_EFFECTS = {
    "hired_swords": "which hired swords the warband may hire",
    "wyrdstone_bonus": "the shards found in exploration (post-battle step 3)",
    "daemonic_instability": "the rolls for daemons out of action (post-battle step 1)",
    "no_serious_injury": "serious injuries (post-battle step 1)",
    "protects_tamer": "serious injuries (post-battle step 1)",
    "talent_skill_lists": "advances (post-battle step 2)",
    "half_rate_advances": "experience and advances (post-battle step 2)",
    "talent_reroll": "advances (post-battle step 2)",
    "talent_kills": "experience and advances (post-battle step 2)",
    "never_leader": "who takes command when the leader is lost",
    "leader_range": "the battle helper's Rally panel",
    "move_dice": "the Move shown on the roster and in the battle helper",
    "animosity": "the battle helper's rolls as the warband's turn begins",
    "rout_reroll": "the battle helper's Rout test, which offers the re-roll",
    "starting_item": "the item he brings when hired at the muster, at no cost",
    "upkeep": "its upkeep after every battle, paid or it leaves (post-battle step 7)",
    "starting_skill": "the skill he starts with, given when he is hired (muster and step 8)",
    "heirloom": "one item of his list at half price, bought at the muster",
    "wardogs_free_slots": "two of his wardogs left out of the warband's maximum size, at hiring",
    "counts_as_possessed": "exploration, captives and a new leader's magic, as the Possessed",
    # The hiring half is the list's ``needs`` roster rule (no bear without a Tamer); the effect
    # is its battle half (battles.rules.taking_part).
    "needs_tamer": "who takes part in a battle: only beside its tamer, or it stays at camp",
}


TABLE = "table"
PART = "part"
APPLIED = "applied"


@dataclass(frozen=True)
class Handling:
    """``kind``: ``applied``, ``part`` (the campaign part applied, the rest at the table) or
    ``table``; ``where``: what the app does with it (empty for ``table``)."""

    kind: str
    where: str = ""

    @property
    def label(self) -> str:
        if self.kind == APPLIED:
            return f"Applied by the app: {self.where}."
        if self.kind == PART:
            return f"The app keeps {self.where}; the rest is played at the table."
        return "Played at the table: the app does not track it."

    @property
    def short(self) -> str:
        """A few words for the printed sheet."""
        return {APPLIED: "applied by the app", PART: "partly applied by the app"}.get(
            self.kind, "played at the table"
        )


def _kept_by_the_roster(name: str, warrior: Mapping | None, leader_chosen: bool = False) -> str:
    """What the roster keeps of a rule it holds in the warrior type's own fields, or "";
    of a list's rule, only the Leader of a list whose player names him (``leader_chosen``)."""
    if warrior is None:
        if name == "Leader" and leader_chosen:
            return "who leads (the hero named at the muster) and his Leadership for the Rout test"
        return ""
    if name == "Leader" and warrior.get("is_leader"):
        return "who leads, and his Leadership for the battle helper's Rout test"
    if name in ("Wizard", "Magic User", "Prayers") and warrior.get("spell_list"):
        return "his spells: rolled when he is hired, learned with advances"
    if name in ("Animal", "Animals") and warrior.get("gains_experience") is False:
        return "that it gains no experience"
    if name in ("Large", "Large Target") and warrior.get("is_large"):
        return "its rating as a large creature"
    return ""


def handling(
    rule: Mapping, warrior: Mapping | None = None, *, leader_chosen: bool = False
) -> Handling:
    """What the app does with ``rule`` (a list's or a warrior type's special rule); ``warrior``
    is the warrior type's fields (``is_leader``, ``spell_list``, ``gains_experience``,
    ``is_large``) for a warrior's rule, ``None`` for a list's; ``leader_chosen``: the list's
    player names its leader (its ``leader`` roster rule)."""
    effect = rule.get("effect")
    if effect in APPLIED_EFFECTS:
        return Handling(APPLIED, APPLIED_EFFECTS[effect])
    kept = _kept_by_the_roster(rule.get("name", ""), warrior, leader_chosen)
    if kept:
        return Handling(PART, kept)
    return Handling(TABLE)


def handling_for(rule: Mapping, warrior_type) -> Handling:
    """What the app does with one of ``warrior_type``'s special rules (a ``WarriorType``, read
    by its attributes: columns of its row, no query)."""
    fields = {
        "is_leader": warrior_type.is_leader,
        "spell_list": warrior_type.spell_list_id,
        "gains_experience": warrior_type.gains_experience,
        "is_large": warrior_type.is_large,
    }
    return handling(rule, fields)
