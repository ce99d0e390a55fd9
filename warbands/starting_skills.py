"""Skills a warrior has from the day he is hired: his type's ``starting_skill`` effect (the
Carnival of Chaos's Brutes, Unnatural Strength: Strongman, of the Strength list).

Given at the muster (``warbands.services.hire_warrior``) and to a recruit hired after a battle
(post-battle step 8), never by an advance: it is part of what the type is, so a warrior who
loses it (a manual correction) is not given it again. The skill is looked for in the type's own
skill lists first, then in the lists of every warband (the core lists) and the type's list's
own, so a list's skill of the same key wins over a core one only where the type may learn it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Q

from core.words import possessive
from warbands.models import Skill, Warrior, WarriorSkill, WarriorType

__all__ = ["give_starting_skills", "starting_skills"]


def starting_skills(warrior_type: WarriorType) -> list[Skill]:
    """The skills ``warrior_type``'s ``starting_skill`` rules name (``skill``: a skill's key)."""
    keys = [
        rule["skill"]
        for rule in warrior_type.special_rules or []
        if rule.get("effect") == "starting_skill" and rule.get("skill")
    ]
    if not keys:
        return []
    own = set(warrior_type.skill_lists.values_list("pk", flat=True))
    found = Skill.objects.filter(key__in=keys).filter(
        Q(skill_list__in=own)
        | Q(skill_list__warband_type=None)
        | Q(skill_list__warband_type=warrior_type.warband_type_id)
    )
    chosen: dict[str, Skill] = {}
    for skill in sorted(found, key=lambda s: (s.skill_list_id not in own, s.skill_list_id)):
        chosen.setdefault(skill.key, skill)
    missing = [key for key in keys if key not in chosen]
    if missing:
        raise ValueError(f"{possessive(warrior_type.name)} starting skill is no skill: {missing}")
    return [chosen[key] for key in keys]


def give_starting_skills(
    warrior: Warrior, warrior_type: WarriorType, *, create: Callable | None = None
) -> list[Skill]:
    """Write the new ``warrior``'s starting skills. ``create`` writes each row (the post-battle
    journal's ``create``, so a reopened step takes them back); by default a plain insert."""
    skills = starting_skills(warrior_type)
    for skill in skills:
        if create is None:
            WarriorSkill.objects.create(warrior=warrior, skill=skill)
        else:
            create(WarriorSkill, warrior=warrior, skill=skill)
    return skills
