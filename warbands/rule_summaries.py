"""Load only the rules text of the warband lists (``warbands/data/``): for the migrations that
must not depend on the other reference tables' later fields (see ``warbands.reference``)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from warbands.reference import DATA_DIR, read, warband_files


def load_rule_summaries(apps, data_dir: Path = DATA_DIR) -> None:
    """Only the rules text: each skill's and spell's ``text`` and ``summary``, the lists' and
    warriors' special rules, and the ``summary`` of items that have one. For a migration
    that must not depend on the other reference tables' later fields."""
    warbands = [read(path) for path in warband_files(data_dir)]
    skill_lists = [*read(data_dir / "skills.json")["lists"]]
    skill_lists += [row for data in warbands for row in data.get("skill_lists", [])]
    skills, spells, lists, warriors, items = {}, {}, {}, {}, {}
    for skill_list in skill_lists:
        for skill in skill_list["skills"]:
            skills[skill_list["key"], skill["key"]] = _texts(skill)
    for spell_list in read(data_dir / "spells.json")["lists"]:
        for spell in spell_list["spells"]:
            spells[spell_list["key"], spell["key"]] = _texts(spell)
    for data in warbands:
        lists[data["key"],] = {"special_rules": data.get("special_rules", [])}
        for warrior in data["warriors"]:
            rules = {"special_rules": warrior.get("special_rules", [])}
            warriors[data["key"], warrior["key"]] = rules
    chart = read(data_dir / "equipment.json")["items"]
    for item in chart + [item for data in warbands for item in data.get("items", [])]:
        if item.get("summary"):
            items[item["key"],] = {"summary": item["summary"]}
    update = partial(_set_where_different, apps)
    update("Skill", ("skill_list__key", "key"), skills)
    update("Spell", ("spell_list__key", "key"), spells)
    update("WarbandType", ("key",), lists)
    update("WarriorType", ("warband_type__key", "key"), warriors)
    update("Item", ("key",), items)


def _texts(row: dict[str, Any]) -> dict[str, str]:
    return {"text": row.get("text", ""), "summary": row.get("summary", "")}


def _set_where_different(apps, name: str, lookup: tuple[str, ...], wanted: dict) -> None:
    """Each row whose ``lookup`` fields match a key of ``wanted`` gets its values (the same
    fields for every key), written only where they differ: several migrations load the files
    again, and one UPDATE per row each time was most of their cost."""
    if not wanted:
        return
    model = apps.get_model("warbands", name)
    fields = list(next(iter(wanted.values())))
    for pk, *row in model.objects.values_list("pk", *lookup, *fields):
        values = wanted.get(tuple(row[: len(lookup)]))
        if values is not None and row[len(lookup) :] != [values[f] for f in fields]:
            model.objects.filter(pk=pk).update(**values)
