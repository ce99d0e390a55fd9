"""What a task's question shows beside each option: a skill's summary, so that a hero's
player chooses his new skill knowing what it does. The rules module's
question and answers are unchanged: this only reads them."""

from __future__ import annotations

from warbands.models import Skill

SKILL_QUESTION = "skill"  # battles.rules.experience asks "which skill" under this key


def explain_options(tasks) -> None:
    """Each open "which skill" question of ``tasks`` gets ``task.option_rows``: (key, label,
    summary) per option, the label being the rules module's "Name (List)". One query for all
    of them; none when no task asks."""
    asked = [
        task
        for task in tasks
        if not task.done and task.question and task.question.get("key") == SKILL_QUESTION
    ]
    if not asked:
        return
    keys = {key for task in asked for key, _ in task.question["options"]}
    summaries = {
        f"{skill.name} ({skill.skill_list.name})": skill.summary or skill.text
        for skill in Skill.objects.filter(key__in=keys).select_related("skill_list")
    }
    for task in asked:
        task.option_rows = [
            (key, label, summaries.get(label, "")) for key, label in task.question["options"]
        ]
