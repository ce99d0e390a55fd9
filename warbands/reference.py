"""Load the warband lists from ``warbands/data/`` (see its README.md) into the database.

Called by data migrations with the migration's historical ``apps``, so it only uses plain
model managers. Rows are matched by key and updated in place, so loading twice changes
nothing and a later data correction is a new migration that loads again. A reference to a key
that does not exist raises ``ReferenceDataError`` naming the file and the key.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
ITEM_FIELDS = ("name", "category", "price", "price_dice", "rarity", "notes", "sells_for")


class ReferenceDataError(ValueError):
    pass


def read(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def warband_files(data_dir: Path = DATA_DIR) -> list[Path]:
    return sorted((data_dir / "warbands").glob("*.json"))


class _Manager:
    """``update_or_create`` that passes on only the fields the (historical) model has, so this
    loader, called from an old migration, keeps working after later fields are added."""

    def __init__(self, model) -> None:
        self.model = model
        self.fields = {field.name for field in model._meta.get_fields()}

    def update_or_create(self, *, defaults: dict[str, Any], **lookup: Any):
        known = {name: value for name, value in defaults.items() if name in self.fields}
        return self.model.objects.update_or_create(defaults=known, **lookup)

    def all(self):
        return self.model.objects.all()


def load_reference_data(apps, data_dir: Path = DATA_DIR) -> None:
    managers: dict[str, _Manager] = {}

    def model(name: str) -> SimpleNamespace:
        if name not in managers:
            managers[name] = _Manager(apps.get_model("warbands", name))
        return SimpleNamespace(objects=managers[name])

    for row in read(data_dir / "racial_maximums.json")["profiles"]:
        model("RacialMaximum").objects.update_or_create(
            key=row["key"],
            defaults={"name": row["name"], **{c: row[c] for c in CHARACTERISTICS}},
        )
    for order, skill_list in enumerate(read(data_dir / "skills.json")["lists"]):
        _load_skill_list(model, skill_list, order=order, warband_type=None)
    for spell_list in read(data_dir / "spells.json")["lists"]:
        row, _ = model("SpellList").objects.update_or_create(
            key=spell_list["key"], defaults={"name": spell_list["name"]}
        )
        for spell in spell_list["spells"]:
            model("Spell").objects.update_or_create(
                spell_list=row,
                key=spell["key"],
                defaults={
                    "d6": spell["d6"],
                    "name": spell["name"],
                    "difficulty": spell["difficulty"],
                    "text": spell.get("text", ""),
                },
            )
    for item in read(data_dir / "equipment.json")["items"]:
        _load_item(model, item)
    for path in warband_files(data_dir):
        _load_warband(model, read(path), path.name)


def _load_item(model, item: dict[str, Any]) -> None:
    defaults = {field: item.get(field) for field in ITEM_FIELDS}
    defaults["price_dice"] = defaults["price_dice"] or ""
    defaults["notes"] = defaults["notes"] or ""
    model("Item").objects.update_or_create(key=item["key"], defaults=defaults)


def _load_skill_list(model, skill_list: dict[str, Any], *, order: int, warband_type) -> None:
    row, _ = model("SkillList").objects.update_or_create(
        key=skill_list["key"],
        defaults={"name": skill_list["name"], "order": order, "warband_type": warband_type},
    )
    for skill in skill_list["skills"]:
        model("Skill").objects.update_or_create(
            skill_list=row,
            key=skill["key"],
            defaults={
                "name": skill["name"],
                "text": skill.get("text", ""),
                "optional_rule": skill.get("optional_rule", ""),
            },
        )


def _load_warband(model, data: dict[str, Any], filename: str) -> None:
    def missing(kind: str, key: str) -> ReferenceDataError:
        return ReferenceDataError(f"{filename}: unknown {kind} {key!r}")

    warband_type, _ = model("WarbandType").objects.update_or_create(
        key=data["key"],
        defaults={
            "name": data["name"],
            "family": data.get("family", data["name"]),
            "source": data.get("source", ""),
            "starting_gold": data["starting_gold"],
            "min_warriors": data.get("min_warriors", 3),
            "max_warriors": data["max_warriors"],
            "max_heroes": data.get("max_heroes", 6),
            "rare_item_modifier": data.get("rare_item_modifier", 0),
            "special_rules": data.get("special_rules", []),
            "roster_rules": data.get("roster_rules", {}),
        },
    )
    for item in data.get("items", []):
        _load_item(model, item)
    for order, skill_list in enumerate(data.get("skill_lists", []), start=100):
        _load_skill_list(model, skill_list, order=order, warband_type=warband_type)

    items = {item.key: item for item in model("Item").objects.all()}
    equipment_lists = {}
    for equipment_list in data.get("equipment_lists", []):
        row, _ = model("EquipmentList").objects.update_or_create(
            warband_type=warband_type,
            key=equipment_list["key"],
            defaults={"name": equipment_list["name"]},
        )
        equipment_lists[row.key] = row
        for entry in equipment_list["entries"]:
            if entry["item"] not in items:
                raise missing("item", entry["item"])
            model("EquipmentListEntry").objects.update_or_create(
                equipment_list=row,
                item=items[entry["item"]],
                defaults={
                    "price": entry["price"],
                    "first_free": entry.get("first_free", False),
                    "heroes_only": entry.get("heroes_only", False),
                    "recruitment_only": entry.get("recruitment_only", False),
                    "repeat_price_multiplier": entry.get("repeat_price_multiplier", 1),
                },
            )

    races = {race.key: race for race in model("RacialMaximum").objects.all()}
    skill_lists = {row.key: row for row in model("SkillList").objects.all()}
    spell_lists = {row.key: row for row in model("SpellList").objects.all()}
    for order, warrior in enumerate(data["warriors"]):
        race_key, spell_key = warrior.get("race"), warrior.get("spell_list")
        if race_key and race_key not in races:
            raise missing("race", race_key)
        if spell_key and spell_key not in spell_lists:
            raise missing("spell list", spell_key)
        row, _ = model("WarriorType").objects.update_or_create(
            warband_type=warband_type,
            key=warrior["key"],
            defaults={
                "name": warrior["name"],
                "kind": warrior["kind"],
                "is_leader": warrior.get("leader", False),
                "cost": warrior["cost"],
                "min_count": warrior.get("min", 0),
                "max_count": warrior.get("max"),
                "group_max": warrior.get("group_max", 5 if warrior["kind"] == "henchman" else 1),
                "starting_experience": warrior.get("starting_experience", 0),
                "race": races.get(race_key) if race_key else None,
                "spell_list": spell_lists.get(spell_key) if spell_key else None,
                "starting_spells": warrior.get("starting_spells", 0),
                "gains_experience": warrior.get("gains_experience", True),
                "is_large": warrior.get("large", False),
                "required_at_hire": warrior.get("required_at_hire", []),
                "special_rules": warrior.get("special_rules", []),
                "order": order,
                **{c: warrior["profile"][c] for c in CHARACTERISTICS},
            },
        )
        for key in warrior.get("equipment_lists", []):
            if key not in equipment_lists:
                raise missing("equipment list", key)
        for key in warrior.get("skill_lists", []):
            if key not in skill_lists:
                raise missing("skill list", key)
        row.equipment_lists.set([equipment_lists[k] for k in warrior.get("equipment_lists", [])])
        row.skill_lists.set([skill_lists[k] for k in warrior.get("skill_lists", [])])
