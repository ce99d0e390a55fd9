"""How a correction breaks the warband's list, said plainly (empty: it does not).

The same checks as the rules make when the warband gets the thing through them: an item off
the warrior's equipment list or refused to his warband (``treasury.list_refusal``, as equipping
from storage and buying check it), a skill from a list he may not learn from, a spell of
another list than his, a characteristic above his racial maximum. A correction may still
break the list (the table's ruling stands), but never silently: the organiser approving sees
it, and the feed says it once applied.
"""

from __future__ import annotations

from core.words import possessive
from warbands import treasury
from warbands.models import Correction, Warrior

Kind = Correction.Kind


def of(correction: Correction, warrior: Warrior) -> str:
    """How ``correction`` (not saved yet) breaks ``warrior``'s list: "" when it does not."""
    kind = correction.kind
    if kind == Kind.ITEM_ADDED:
        return treasury.list_refusal(warrior, correction.item) or ""
    if kind == Kind.SKILL_ADDED:
        return _skill(warrior, correction.skill)
    if kind == Kind.SPELL_ADDED:
        spell_list = warrior.warrior_type.spell_list_id
        if correction.spell.spell_list_id != spell_list:
            return (
                f"{correction.spell.name} is on the {correction.spell.spell_list.name} list, "
                f"which {warrior.name} does not cast from."
            )
        return ""
    if kind == Kind.CHARACTERISTIC:
        maximum = warrior.maximum
        name = correction.characteristic
        if maximum is not None and correction.value > (most := getattr(maximum, name)):
            whose = possessive(warrior.name)
            return f"{name} {correction.value} is above {whose} racial maximum of {most}."
    return ""


def _skill(warrior: Warrior, skill) -> str:
    if not warrior.is_hero:
        return f"{warrior.name} are henchmen: henchmen learn no skills."
    allowed = set(warrior.warrior_type.skill_lists.values_list("pk", flat=True))
    allowed |= set(warrior.extra_skill_lists.values_list("pk", flat=True))
    if skill.skill_list_id not in allowed:
        return (
            f"{skill.name} is on the {skill.skill_list.name} skill list, which {warrior.name} may "
            "not learn from."
        )
    return ""
