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

from django.db import models

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
    loader, called from an old migration, keeps working after later fields are added.

    The model's rows are read once per load and matched in memory: a row that is already as
    the files say costs no query, a changed one one UPDATE of the fields that differ, a new
    one one INSERT. Several migrations load the same files again, and a database migrated
    from empty would otherwise pay a locking read and a write for every row each time."""

    def __init__(self, model) -> None:
        self.model = model
        self.fields = {field.name for field in model._meta.get_fields()}
        self._indexes: dict[tuple[str, ...], dict[tuple, Any]] = {}
        self._links: dict[str, dict[Any, set]] = {}

    def _attname(self, name: str) -> str:
        return self.model._meta.get_field(name).attname

    @staticmethod
    def _plain(value: Any) -> Any:
        """A lookup or field value as the row stores it (a related row by its primary key)."""
        return value.pk if isinstance(value, models.Model) else value

    def _key(self, names: tuple[str, ...], row) -> tuple:
        return tuple(getattr(row, self._attname(name)) for name in names)

    def _index(self, names: tuple[str, ...]) -> dict[tuple, Any]:
        if names not in self._indexes:
            self._indexes[names] = {self._key(names, r): r for r in self.model.objects.all()}
        return self._indexes[names]

    def update_or_create(self, *, defaults: dict[str, Any], **lookup: Any):
        known = {name: value for name, value in defaults.items() if name in self.fields}
        names = tuple(sorted(lookup))
        row = self._index(names).get(tuple(self._plain(lookup[name]) for name in names))
        if row is None:
            row = self.model.objects.create(**lookup, **known)
            for other, index in self._indexes.items():
                index[self._key(other, row)] = row
            return row, True
        changed = [
            name
            for name, value in known.items()
            if getattr(row, self._attname(name)) != self._plain(value)
        ]
        for name in changed:
            setattr(row, name, known[name])
        if changed:
            row.save(update_fields=changed)
        return row, False

    def all(self):
        return self.model.objects.all()

    def by_key(self) -> dict[Any, Any]:
        """Every row by its ``key``: the rows read once for this load, with those it has
        written since (not the table read again for each warband file)."""
        return {key: row for (key,), row in self._index(("key",)).items()}

    def set_links(self, row, name: str, targets: list) -> None:
        """``row.<name>.set(targets)`` for a many-to-many field, skipped when the links (read
        once per load for every row) are already those."""
        if name not in self._links:
            field = self.model._meta.get_field(name)
            through = field.remote_field.through._meta
            source = through.get_field(field.m2m_field_name()).attname
            target = through.get_field(field.m2m_reverse_field_name()).attname
            links: dict[Any, set] = {}
            for one, other in through.model.objects.values_list(source, target):
                links.setdefault(one, set()).add(other)
            self._links[name] = links
        wanted = {target.pk for target in targets}
        if self._links[name].get(row.pk, set()) != wanted:
            getattr(row, name).set(targets)
            self._links[name][row.pk] = wanted


def _models(apps):
    managers: dict[str, _Manager] = {}

    def model(name: str) -> SimpleNamespace:
        if name not in managers:
            managers[name] = _Manager(apps.get_model("warbands", name))
        return SimpleNamespace(objects=managers[name])

    return model


def load_reference_data(apps, data_dir: Path = DATA_DIR) -> None:
    model = _models(apps)
    for row in read(data_dir / "racial_maximums.json")["profiles"]:
        model("RacialMaximum").objects.update_or_create(
            key=row["key"],
            defaults={"name": row["name"], **{c: row[c] for c in CHARACTERISTICS}},
        )
    _load_skills_and_spells(model, data_dir)
    for item in read(data_dir / "equipment.json")["items"]:
        _load_item(model, item)
    warbands = [(read(path), path.name) for path in warband_files(data_dir)]
    for data, _ in warbands:  # a list may sell another's item (the Dwarf axe): items first
        for item in data.get("items", []):
            _load_item(model, item, owner=data)
    for data, filename in warbands:
        _load_warband(model, data, filename)
    try:
        apps.get_model("warbands", "HiredSwordType")
    except LookupError:  # a migration older than the hired-sword catalogue
        return
    if (data_dir / "hired_swords.json").exists():
        load_hired_swords(apps, data_dir)


def load_hired_sword_skills(apps, data_dir: Path = DATA_DIR) -> None:
    """Only ``skills.json`` and ``spells.json`` (the hired swords' own skill lists, Lesser
    Magic), then the hired-sword catalogue that links them: for a migration that must not
    load the other reference files again."""
    _load_skills_and_spells(_models(apps), data_dir)
    load_hired_swords(apps, data_dir)


def _load_skills_and_spells(model, data_dir: Path) -> None:
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
                    "summary": spell.get("summary", ""),
                },
            )


def _load_item(model, item: dict[str, Any], owner: dict[str, Any] | None = None) -> None:
    """An item of the chart, or of a warband list (``owner``): a list's own item is that
    list's only, unless the file names who may have it (data/README.md)."""
    defaults = {field: item.get(field) for field in ITEM_FIELDS}
    defaults["price_dice"] = defaults["price_dice"] or ""
    defaults["notes"] = defaults["notes"] or ""
    defaults["summary"] = item.get("summary") or ""
    defaults["allowed_warbands"] = item.get("allowed_warbands", [owner["key"]] if owner else [])
    defaults["refused_warbands"] = item.get("refused_warbands", [])
    defaults["restriction"] = item.get("restriction", f"{owner['name']} only" if owner else "")
    defaults.update(_trading_terms(item))
    model("Item").objects.update_or_create(key=item["key"], defaults=defaults)


def _trading_terms(item: dict[str, Any]) -> dict[str, Any]:
    """Whether a trader sells the item and its availability for some lists (data/README.md)."""
    return {"for_sale": item.get("for_sale", True), "rarity_for": item.get("rarity_for", {})}


def load_trading_terms(apps, data_dir: Path = DATA_DIR) -> None:
    """Only each item's trading terms (``for_sale``, ``rarity_for``), from the chart and the
    warband files: for a migration that must not load the other reference data again."""
    chart = read(data_dir / "equipment.json")["items"]
    chart += [item for path in warband_files(data_dir) for item in read(path).get("items", [])]
    for item in chart:
        apps.get_model("warbands", "Item").objects.filter(key=item["key"]).update(
            **_trading_terms(item)
        )


GRADES = ("1a", "1b", "1c")


def _grade(data: dict[str, Any], filename: str) -> str:
    """The list's grade: every warband file names its own (data/README.md)."""
    if data.get("grade") not in GRADES:
        raise ReferenceDataError(f"{filename}: grade {data.get('grade')!r} is not one of {GRADES}")
    return data["grade"]


def load_grades(apps, data_dir: Path = DATA_DIR) -> None:
    """Only each warband list's ``grade``: for a migration that must not load the other
    reference data again."""
    for path in warband_files(data_dir):
        data = read(path)
        apps.get_model("warbands", "WarbandType").objects.filter(key=data["key"]).update(
            grade=_grade(data, path.name)
        )


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
                "summary": skill.get("summary", ""),
                "optional_rule": skill.get("optional_rule", ""),
                "effect": skill.get("effect", ""),
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
            "grade": _grade(data, filename),
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
        _load_item(model, item, owner=data)
    for order, skill_list in enumerate(data.get("skill_lists", []), start=100):
        _load_skill_list(model, skill_list, order=order, warband_type=warband_type)

    items = model("Item").objects.by_key()
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

    races = model("RacialMaximum").objects.by_key()
    skill_lists = model("SkillList").objects.by_key()
    spell_lists = model("SpellList").objects.by_key()
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
        links = model("WarriorType").objects.set_links
        links(
            row, "equipment_lists", [equipment_lists[k] for k in warrior.get("equipment_lists", [])]
        )
        links(row, "skill_lists", [skill_lists[k] for k in warrior.get("skill_lists", [])])


# --- Hired swords ----------------------------------------------------------------------------


HIRED_SWORD_RULE = (
    "Paid, not sworn: upkeep after every battle or he leaves; never leads the warband; one of "
    "each type; his equipment is his own."
)


PERSONAE_FILE = "dramatis_personae.json"
PERSONA_RULE = (
    "A named character: found by searching, never bought or given equipment, no experience; "
    "upkeep after every battle or he leaves."
)


def load_hired_swords(apps, data_dir: Path = DATA_DIR) -> None:
    """The hired-sword catalogue (``hired_swords.json``): a ``HiredSwordType`` for each, with
    a ``WarriorType`` of no warband list holding his profile, race, skill lists (his own
    special skills are lists of ``skills.json``), spell list and rating value. Matched by
    key, so loading twice changes nothing. Then the dramatis personae, once the historical
    model has their ``kind`` (``load_dramatis_personae``)."""
    catalogue = read(data_dir / "hired_swords.json")
    groups = catalogue.get("family_groups", {})
    _load_catalogue(apps, catalogue["hired_swords"], groups, "hired_swords.json")
    model = apps.get_model("warbands", "HiredSwordType")
    if "kind" in {field.name for field in model._meta.get_fields()}:
        load_dramatis_personae(apps, data_dir)


def load_dramatis_personae(apps, data_dir: Path = DATA_DIR) -> None:
    """The dramatis personae (``dramatis_personae.json``): ``HiredSwordType`` rows of the
    persona ``kind``, with the hired swords' ``family_groups`` for who may hire them."""
    groups = read(data_dir / "hired_swords.json").get("family_groups", {})
    entries = read(data_dir / PERSONAE_FILE)["dramatis_personae"]
    _load_catalogue(apps, entries, groups, PERSONAE_FILE, persona=True)


def _load_catalogue(apps, entries, groups, filename: str, *, persona: bool = False) -> None:
    model = _models(apps)
    WarriorType, HiredSwordType = model("WarriorType"), model("HiredSwordType")
    races = {row.key: row for row in apps.get_model("warbands", "RacialMaximum").objects.all()}
    lists = {row.key: row for row in apps.get_model("warbands", "SkillList").objects.all()}
    spells = {row.key: row for row in apps.get_model("warbands", "SpellList").objects.all()}
    rule = (
        {"name": "Dramatis persona", "text": PERSONA_RULE, "effect": "never_leader"}
        if persona
        else {"name": "Hired sword", "text": HIRED_SWORD_RULE, "effect": "never_leader"}
    )
    for order, entry in enumerate(entries, start=1000 if persona else 0):
        key = entry["key"]
        unknown = [k for k in entry["skill_lists"] if k not in lists]
        spell_key, race_key = entry.get("spell_list"), entry["race"]
        # No race only for one who never gains experience (as the lists' Rat Ogre).
        bad_race = race_key not in races if race_key else entry.get("gains_experience", True)
        if bad_race or unknown or (spell_key and spell_key not in spells):
            raise ReferenceDataError(f"{filename}: {key}: unknown race, skill list or spell list")
        warrior_type, _ = WarriorType.objects.update_or_create(
            warband_type=None,
            key=key,
            defaults={
                "name": entry["name"],
                "kind": "hero",
                "cost": entry["hire_fee"],
                "max_count": 1,
                "starting_experience": entry.get("starting_experience", 0),
                "race": races[race_key] if race_key else None,
                "rating_value": entry["rating"],
                # The Clan Skryre Rat Ogre, the Elf Mage: his value alone, never more.
                "gains_experience": entry.get("gains_experience", True),
                # A wizard (the Warlock): his list, and the spells rolled when he is hired.
                "spell_list": spells[spell_key] if spell_key else None,
                "starting_spells": entry.get("starting_spells", 0),
                # He fights for pay: never offered command (the ``never_leader`` effect that
                # the death-of-a-leader rule reads).
                "special_rules": [{"name": text} for text in entry["special_rules"]] + [rule],
                "order": order,
                **{c: entry["profile"][c] for c in CHARACTERISTICS},
            },
        )
        WarriorType.objects.set_links(
            warrior_type, "skill_lists", [lists[k] for k in entry["skill_lists"]]
        )
        HiredSwordType.objects.update_or_create(
            key=key,
            defaults={
                "name": entry["name"],
                "warrior_type": warrior_type,
                "grade": entry.get("grade", ""),
                "hire_fee": entry["hire_fee"],
                "upkeep": entry["upkeep"],
                "hired_by": hired_by_families(entry["hired_by"], groups, filename),
                "upkeep_with_race": entry.get("upkeep_with_race"),
                "never_with": entry.get("never_with", []),
                "equipment": entry["equipment"],
                "special_rules": entry["special_rules"],
                "kind": "dramatis_persona" if persona else "hired_sword",
                "skills": entry.get("skills", []),
                "hire_terms": entry.get("hire_terms", []),
                "one_battle": entry.get("one_battle", False),
                "everywhere": entry.get("everywhere", False),
                "hire_refused": entry.get("hire_refused", ""),
            },
        )


def hired_by_families(
    hired_by: dict[str, list[str]],
    groups: dict[str, list[str]],
    filename: str = "hired_swords.json",
) -> dict:
    """``hired_by`` with each ``@group`` of the file's ``family_groups`` (``@human``, ``@evil``
    …) replaced by its families, in order and once each: the catalogue names a loose phrase
    of the text ("any human warband") once, and the rules compare plain family names."""

    def expand(names: list[str], seen: frozenset[str] = frozenset()) -> list[str]:
        out: list[str] = []
        for name in names:
            if name.startswith("@"):
                group = name[1:]
                if group not in groups or group in seen:
                    raise ReferenceDataError(f"{filename}: unknown group {name!r}")
                out += expand(groups[group], seen | {group})
            else:
                out.append(name)
        return list(dict.fromkeys(out))

    return {field: expand(names) for field, names in hired_by.items()}
