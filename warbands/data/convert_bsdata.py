"""Write the app's warband files from the community's BattleScribe data.

    python -m warbands.data.convert_bsdata            # write the generated files
    python -m warbands.data.convert_bsdata --check    # change nothing; fail if they are stale
    python -m warbands.data.convert_bsdata --report   # the data set against the rule texts

Reads ``../shared/data/bsdata-mordheim/`` (``bsdata.py``) and ``bsdata_lists.json`` (keys,
summaries in our own words, races, spell lists, roster rules and every override of the data
set by the rule texts, each with its reason) and writes ``warbands/<key>.json`` for the lists
marked ``generate``, the gromril weapons of ``equipment.json`` and the new lists of
``spells.json``. The eight lists written by hand from FACTS.md are not rewritten: ``--report``
compares them with the data set instead. Standard library only, and deterministic: the same
inputs give the same bytes, so the committed output can be checked by a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from warbands.data import bsdata
from warbands.data.equipment_lists import ConversionError, Disagreement, EquipmentLists, shown

DATA_DIR = Path(__file__).resolve().parent
BSDATA_DIR = DATA_DIR.parents[2] / "shared" / "data" / "bsdata-mordheim"
# The Grade 1b and 1c lists: the data set's older layout (its shared entries in
# ``common-data.cat``), read by the same reader (``bsdata.py``).
OLD_BSDATA_DIR = DATA_DIR.parents[2] / "shared" / "data" / "bsdata-mordheim-2d4ab2c"
OLD_DATA_CATALOGUE = "common-data.cat"
MAPPING = DATA_DIR / "bsdata_lists.json"
# One file per list of Grade 1b and 1c, the same shape as an entry of the mapping's ``lists``,
# with optional ``item_names`` added to the mapping's and ``skill_groups`` of its own.
LIST_SPECS = DATA_DIR / "lists"
RULE_TEXT = "../shared/rules/reference/warbands-core-and-grade-1a.md"
SKILL_ORDER = ("combat", "shooting", "academic", "strength", "speed")
WARRIOR_FIELDS = ("cost", "min", "max", "group_max", "starting_experience", "profile", "large")


def _dump(data: Any, indent: int) -> str:
    return json.dumps(data, indent=indent, ensure_ascii=False) + "\n"


class Converter(EquipmentLists):
    def __init__(self, bsdata_dir: Path = BSDATA_DIR, data_dir: Path = DATA_DIR) -> None:
        self.bsdata_dir = bsdata_dir
        self.data_dir = data_dir
        self.mapping = json.loads(MAPPING.read_text(encoding="utf-8"))
        for path in sorted(LIST_SPECS.glob("*.json")):
            spec = json.loads(path.read_text(encoding="utf-8"))
            self.mapping["items"] = {**self.mapping["items"], **spec.pop("item_names", {})}
            self.mapping["lists"].append(spec)
        self.data_root = ET.parse(bsdata_dir / "data.cat").getroot()
        self._old_root: ET.Element | None = None
        self.equipment = json.loads((data_dir / "equipment.json").read_text(encoding="utf-8"))
        self.disagreements: list[Disagreement] = []

    # --- the whole run ---------------------------------------------------------------------

    def outputs(self) -> dict[Path, str]:
        """Every file the converter owns, by path, with the text it should hold."""
        files = {}
        for spec in self.mapping["lists"]:
            if spec.get("generate"):
                path = self.data_dir / "warbands" / f"{spec['key']}.json"
                files[path] = _dump(self.warband(spec), 2)
        files[self.data_dir / "equipment.json"] = _dump(self.equipment_file(), 1)
        files[self.data_dir / "spells.json"] = _dump(self.spells_file(), 1)
        return files

    def _dataset(self, spec: dict) -> tuple[Path, ET.Element]:
        """The folder of the list's catalogue and the shared entries it links: the current
        layout's ``data.cat``, or, for a list marked ``"dataset": "2d4ab2c"``, the older
        ``common-data.cat`` (a self-contained catalogue finds its own entries first)."""
        if spec.get("dataset") != "2d4ab2c":
            return self.bsdata_dir, self.data_root
        if self._old_root is None:
            self._old_root = ET.parse(OLD_BSDATA_DIR / OLD_DATA_CATALOGUE).getroot()
        return OLD_BSDATA_DIR, self._old_root

    def catalogue(self, spec: dict) -> bsdata.BsCatalogue:
        """The list's catalogue, or for a list the data set lacks (``"catalogue": null``) one
        built from the spec's own warriors (``bsdata.spec_catalogue``)."""
        if spec["catalogue"] is None:
            return bsdata.spec_catalogue(spec)
        folder, data_root = self._dataset(spec)
        return bsdata.read_catalogue(folder / spec["catalogue"], data_root)

    # --- one warband list ------------------------------------------------------------------

    def warband(self, spec: dict) -> dict:
        catalogue = self.catalogue(spec)
        items = [*spec.get("items", []), *self._gromril_items(spec, chart=False)]
        equipment_lists = [
            self._equipment_list(spec, catalogue, row) for row in spec["equipment_lists"]
        ]
        known = {item["key"] for item in self.equipment["items"]} | {i["key"] for i in items}
        known |= {item["key"] for item in self._gromril_items(None, chart=True)}
        known |= self._items_of_other_lists(spec)
        for equipment_list in equipment_lists:
            for entry in equipment_list["entries"]:
                if entry["item"] not in known:
                    raise ConversionError(f"{spec['key']}: unknown item {entry['item']!r}")
        dataset = (
            "BSData Mordheim catalogues at commit 2d4ab2c (../shared/data/bsdata-mordheim-2d4ab2c/)"
            if spec.get("dataset") == "2d4ab2c"
            else self.mapping["bsdata"]
        )
        source = (
            f"Rule text: {spec.get('rule_text', RULE_TEXT)}, section '{spec['section']}' "
            f"({spec['url']}); data: {dataset}, '{spec['catalogue']}', converted by "
            "warbands/data/convert_bsdata.py, the rule text overriding the data set where they "
            "disagree (warbands/data/README.md). Summaries are our own words."
        )
        if spec["catalogue"] is None:
            source = (
                f"Rule text: {spec.get('rule_text', RULE_TEXT)}, section '{spec['section']}' "
                f"({spec['url']}); no catalogue in the data set ({spec['source']}): every "
                f"value typed from the rule text into warbands/data/lists/{spec['key']}.json, "
                "written by warbands/data/convert_bsdata.py (warbands/data/README.md). "
                "Summaries are our own words."
            )
        data = {
            "key": spec["key"],
            "name": spec["name"],
            "family": spec["family"],
            "grade": spec.get("grade", "1a"),
            "source": source,
            "starting_gold": spec["starting_gold"],
            "min_warriors": spec.get("min_warriors", 3),
            "max_warriors": spec["max_warriors"],
            "max_heroes": spec.get("max_heroes", 6),
            "rare_item_modifier": spec.get("rare_item_modifier", 0),
            "special_rules": spec.get("special_rules", []),
            "roster_rules": spec.get("roster_rules", {}),
            "items": items,
            "skill_lists": spec.get("skill_lists", []),
            "equipment_lists": equipment_lists,
            "warriors": [self._warrior(spec, catalogue, row) for row in spec["warriors"]],
        }
        return data

    def _items_of_other_lists(self, spec: dict) -> set[str]:
        """Another list's own items a list may also sell where their restriction names it
        (the Dwarf axe, Dwarfs only: the Pit Fighters' Troll Slayer)."""
        keys = set()
        for other in self.mapping["lists"]:
            if other is spec:
                continue
            for item in [*other.get("items", []), *self._gromril_items(other, chart=False)]:
                if spec["key"] in item.get("allowed_warbands", ()):
                    keys.add(item["key"])
        return keys

    def _warrior(self, spec: dict, catalogue: bsdata.BsCatalogue, row: dict) -> dict:
        found = catalogue.warrior(row.get("from", row["name"]))
        converted = self._converted(found, spec["key"], spec)
        overrides = row.get("overrides", {})
        if overrides and spec["catalogue"] is None:
            raise ConversionError(f"{spec['key']}.{row['key']}: no data set to override")
        for field, override in overrides.items():
            if converted.get(field) == override["value"]:
                raise ConversionError(f"{spec['key']}.{row['key']}: override of {field} is stale")
            self.disagreements.append(
                Disagreement(
                    spec["key"],
                    row["name"],
                    field,
                    converted.get(field),
                    override["value"],
                    override["reason"],
                )
            )
            converted[field] = override["value"]
        if "kept" in row:
            kept = row["kept"]
            self.disagreements.append(
                Disagreement(
                    spec["key"],
                    row["name"],
                    kept["field"],
                    kept["data_set"],
                    kept["data_set"],
                    f"(rule text: {kept['rule_text']}) {kept['reason']}",
                )
            )
        for field, value in converted["profile"].items():
            if not isinstance(value, int):
                raise ConversionError(f"{spec['key']}.{row['key']}: {field} is {value!r}")
        kind = converted["kind"]
        maximum = converted["max"]
        group_max = 1
        if kind == "henchman":
            group_max = overrides.get("group_max", {}).get("value") or min(
                found.group_max or 5, maximum or 5
            )
        return {
            "key": row["key"],
            "name": row["name"],
            "kind": kind,
            "leader": row.get("leader", False),
            "cost": converted["cost"],
            "min": converted["min"],
            "max": maximum,
            "starting_experience": converted["starting_experience"],
            "profile": converted["profile"],
            "race": row["race"],
            "equipment_lists": row["equipment_lists"],
            "skill_lists": converted["skill_lists"] if kind == "hero" else [],
            "spell_list": row.get("spell_list"),
            "starting_spells": row.get("starting_spells", 0),
            "gains_experience": row.get("gains_experience", True),
            "large": converted["large"],
            "group_max": group_max,
            "required_at_hire": row.get("required_at_hire", []),
            "special_rules": row.get("special_rules", []),
        }

    def _converted(self, found: bsdata.BsWarrior, warband: str, spec: dict | None = None) -> dict:
        """The data set's values in the app's terms, before any override. A list's own
        ``skill_groups`` come first (two catalogues may both say "Special Skills"); only a
        hero's are read (henchmen have no skill lists in the app)."""
        groups = {**self.mapping["skill_groups"], **(spec or {}).get("skill_groups", {})}
        groups |= {key: key for key in found.skill_groups if found.from_spec}  # app keys
        names = found.skill_groups if found.kind == "hero" else []
        unknown = [name for name in names if name not in groups]
        if unknown:
            raise ConversionError(f"{warband}.{found.name}: unknown skill groups {unknown}")
        skill_lists = [groups[name] for name in names]
        order = {key: n for n, key in enumerate(SKILL_ORDER)}
        return {
            "kind": found.kind,
            "cost": found.cost,
            "min": found.min_count,
            "max": None if found.max_is_conditional else found.max_count,
            "group_max": found.group_max,
            "starting_experience": found.experience,
            "profile": {k: int(v) if v.isdigit() else v for k, v in found.profile.items()},
            "skill_lists": sorted(skill_lists, key=lambda key: (order.get(key, 9), key)),
            "large": found.rating == 20,
        }

    # --- spells ----------------------------------------------------------------------------

    def spells_file(self) -> dict:
        path = self.data_dir / "spells.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        lists = list(data["lists"])
        for spec in self.mapping["spell_lists"]:
            root = ET.parse(self.bsdata_dir / spec["catalogue"]).getroot()
            found = bsdata.read_spell_group((root, self.data_root), spec["bsdata"])
            if len(found) != len(spec["spells"]):
                raise ConversionError(f"{spec['key']}: {len(found)} spells in the data set")
            row = {
                "key": spec["key"],
                "name": spec["name"],
                "spells": [
                    {
                        "d6": spell.number,
                        "key": ours["key"],
                        "name": ours["name"],
                        "difficulty": spell.difficulty,
                        "text": ours["text"],
                        "summary": ours["summary"],
                    }
                    for spell, ours in zip(found, spec["spells"], strict=True)
                ],
            }
            keys = [existing["key"] for existing in lists]
            if spec["key"] in keys:
                lists[keys.index(spec["key"])] = row
            else:
                lists.append(row)
        note = (
            " Waaagh! Magic, Nurgle Rituals and Prayers of Taal: names, numbers and difficulties"
            " from the BSData Mordheim data set (the rule texts at hand print no spell lists for"
            " these casters), written by warbands/data/convert_bsdata.py."
        )
        source = data["source"] if note in data["source"] else data["source"] + note
        return {**data, "source": source, "lists": lists}

    # --- the lists written by hand ---------------------------------------------------------

    def compare_existing(self, spec: dict) -> list[str]:
        """Differences between a hand-written list (FACTS.md) and the data set, for the
        report; the hand-written value stands unless the rule text says otherwise."""
        catalogue = self.catalogue(spec)
        path = self.data_dir / "warbands" / f"{spec['key']}.json"
        committed = json.loads(path.read_text(encoding="utf-8"))
        warriors = {row["key"]: row for row in committed["warriors"]}
        lists = {row["key"]: row for row in committed["equipment_lists"]}
        lines = []
        for name, key in spec["warriors"].items():
            ours = warriors[key]
            theirs = self._converted(catalogue.warrior(name), spec["key"])
            if theirs["group_max"] and ours["max"]:  # a group never exceeds the type's maximum
                theirs["group_max"] = min(theirs["group_max"], ours["max"])
                ours = {**ours, "group_max": min(ours["group_max"], ours["max"])}
            for field in WARRIOR_FIELDS:
                data_set, app = theirs.get(field), ours.get(field)
                if data_set is not None and data_set != app:
                    lines.append(f"{key}: {field} data set {shown(data_set)}, app {shown(app)}")
            data_set, app = theirs["skill_lists"], ours["skill_lists"]
            if ours["kind"] == "hero" and sorted(data_set) != sorted(app):
                lines.append(f"{key}: skill lists data set {data_set}, app {app}")
            lines += self._compare_equipment(spec, key, catalogue.warrior(name), ours, lists)
        return lines

    def _compare_equipment(self, spec, key, found, ours, lists) -> list[str]:
        offered: dict[str, int] = {}
        for list_key in ours["equipment_lists"]:
            for entry in lists[list_key]["entries"]:
                if entry.get("recruitment_only"):  # mutations: a group of their own there
                    continue
                if entry.get("heroes_only") and ours["kind"] != "hero":
                    continue
                offered.setdefault(entry["item"], entry["price"])
        theirs = {
            self.mapping["items"].get(item.name, item.name): item.price
            for item in found.equipment
            if not item.hidden
        }
        lines = []
        for item, price in sorted(theirs.items()):
            if item not in offered:
                lines.append(f"{key}: data set offers {item} ({price} gc), the app does not")
            elif offered[item] != price:
                lines.append(f"{key}: {item} data set {price} gc, app {offered[item]} gc")
        braces = set(self.mapping["braces"].values())
        for item in sorted(set(offered) - set(theirs) - braces):
            lines.append(f"{key}: the app offers {item}, the data set does not")
        return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsdata", type=Path, default=BSDATA_DIR)
    parser.add_argument("--check", action="store_true", help="write nothing; 1 if stale")
    parser.add_argument("--report", action="store_true", help="print the disagreements")
    args = parser.parse_args(argv)
    converter = Converter(args.bsdata)
    outputs = converter.outputs()
    if args.report:
        print("warband | subject | field | data set | app | reason")
        for disagreement in converter.disagreements:
            print(disagreement.line())
        for spec in converter.mapping["lists"]:
            if not spec.get("generate"):
                for line in converter.compare_existing(spec):
                    print(f"{spec['key']} (hand-written) | {line}")
        return 0
    stale = [
        path
        for path, text in outputs.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    if args.check:
        for path in stale:
            print(f"stale: {path}", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(outputs[path], encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
