"""The equipment lists of the converted warband lists (``convert_bsdata``): each list copied
from one warrior of the data set (or a group, or the catalogue's whole chart cut down to the
text's list with ``only``), with the rule text's ``changes`` (an item removed, added, priced
or made heroes-only, each a ``Disagreement`` with its reason), a pistol's brace at twice its
price, and gromril weapons (four times the weapon on the chart, three on the Dwarf list while
founding). Standard library only, like the converter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warbands.data import bsdata

RESTRICTION_FIELDS = ("allowed_warbands", "refused_warbands", "restriction")


class ConversionError(ValueError):
    pass


@dataclass(frozen=True)
class Disagreement:
    """A value where the data set and the rule texts differ, and the value the app takes."""

    warband: str
    subject: str
    field: str
    data_set: Any
    chosen: Any
    reason: str

    def line(self) -> str:
        return (
            f"{self.warband} | {self.subject} | {self.field} | {shown(self.data_set)} | "
            f"{shown(self.chosen)} | {self.reason}"
        )


def shown(value: Any) -> str:
    """A value as the report prints it."""
    if isinstance(value, dict):
        return " ".join(str(v) for v in value.values())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "none" if value is None else str(value)


class EquipmentLists:
    """The equipment-list half of ``convert_bsdata.Converter`` (which holds ``mapping``,
    ``equipment``, ``disagreements`` and ``_dataset``)."""

    mapping: dict
    equipment: dict
    disagreements: list[Disagreement]

    # --- equipment -------------------------------------------------------------------------

    def _equipment_list(self, spec: dict, catalogue: bsdata.BsCatalogue, row: dict) -> dict:
        # a list the data set lacks: the text's rows, by the app's keys; a dagger the text
        # prices with no free first one says "first_free": false
        not_free = {i["item"] for i in row.get("items", []) if i.get("first_free") is False}
        if "items" in row:
            found = [
                bsdata.BsItem(i["item"], i["price"], heroes_only=i.get("heroes_only", False))
                for i in row["items"]
            ]
        elif "from_group" in row:
            folder, data_root = self._dataset(spec)
            found = bsdata.read_group_items(
                folder / spec["catalogue"], data_root, row["from_group"]
            )
        else:
            found = catalogue.warrior(row["from"]).equipment
        if "only" in row:
            found = self._only(spec, row, found)
        entries: list[dict] = []
        for item in found:
            if item.hidden:
                continue
            key = item.name if "items" in row else self._item_key(spec, item.name)
            entry = {"item": key, "price": item.price}
            if key == "dagger" and key not in not_free:
                entry["first_free"] = True
            if item.heroes_only:
                entry["heroes_only"] = True
            if row.get("recruitment_only"):
                entry["recruitment_only"] = True
            if row.get("repeat_price_multiplier"):
                entry["repeat_price_multiplier"] = row["repeat_price_multiplier"]
            entries.append(entry)
        for change in row.get("changes", []):
            self._change(spec, row, entries, change)
        entries = self._with_braces(entries)
        if row.get("gromril_weapons"):
            entries += self._gromril_entries(entries)
        return {"key": row["key"], "name": row["name"], "entries": entries}

    def _only(self, spec: dict, row: dict, found: list[bsdata.BsItem]) -> list[bsdata.BsItem]:
        """A self-contained catalogue links every warrior to its whole chart: the list keeps
        the data set's items the text prints (``only``, by the data set's names), in that
        order."""
        by_name = {item.name: item for item in found if not item.hidden}
        missing = [name for name in row["only"] if name not in by_name]
        if missing:
            raise ConversionError(f"{spec['key']}.{row['key']}: not in the data set: {missing}")
        self.disagreements.append(
            Disagreement(
                spec["key"],
                row["name"],
                "items",
                f"the whole chart ({len(by_name)} items)",
                f"{len(row['only'])} of them",
                "The data set links every warrior to its whole chart; the text prints the list.",
            )
        )
        return [by_name[name] for name in row["only"]]

    def _item_key(self, spec: dict, name: str) -> str:
        try:
            return self.mapping["items"][name]
        except KeyError:
            raise ConversionError(f"{spec['key']}: no item key for {name!r}") from None

    def _change(self, spec: dict, row: dict, entries: list[dict], change: dict) -> None:
        subject = f"{row['name']}"
        by_key = {entry["item"]: entry for entry in entries}
        if "remove" in change:
            key = change["remove"]
            if key not in by_key:
                raise ConversionError(f"{spec['key']}.{row['key']}: nothing to remove: {key}")
            entries.remove(by_key[key])
            self.disagreements.append(
                Disagreement(spec["key"], subject, key, "offered", "not offered", change["reason"])
            )
        elif "add" in change:
            key = change["add"]
            if key in by_key:
                raise ConversionError(f"{spec['key']}.{row['key']}: already there: {key}")
            entry = {"item": key, "price": change["price"]}
            if change.get("heroes_only"):  # a heroes-only entry the data set hides
                entry["heroes_only"] = True
            entries.append(entry)
            self.disagreements.append(
                Disagreement(
                    spec["key"],
                    subject,
                    key,
                    "not offered",
                    f"{change['price']} gc",
                    change["reason"],
                )
            )
        elif "price" in change:
            key = change["price"]
            if by_key[key]["price"] == change["value"]:
                raise ConversionError(f"{spec['key']}.{row['key']}: stale price of {key}")
            self.disagreements.append(
                Disagreement(
                    spec["key"],
                    subject,
                    f"{key} price",
                    f"{by_key[key]['price']} gc",
                    f"{change['value']} gc",
                    change["reason"],
                )
            )
            by_key[key]["price"] = change["value"]
        elif "heroes_only" in change:
            key = change["heroes_only"]
            if by_key[key].get("heroes_only"):
                raise ConversionError(f"{spec['key']}.{row['key']}: stale heroes_only of {key}")
            self.disagreements.append(
                Disagreement(spec["key"], subject, key, "anyone", "heroes only", change["reason"])
            )
            by_key[key]["heroes_only"] = True
        else:
            raise ConversionError(f"{spec['key']}.{row['key']}: unknown change {change}")

    def _with_braces(self, entries: list[dict]) -> list[dict]:
        """Core rules: a pistol's list price covers one; a brace costs twice as much and is
        an item of its own in the app (data/README.md). Added after the pistol it pairs."""
        braces = self.mapping["braces"]
        present = {entry["item"] for entry in entries}
        result = []
        for entry in entries:
            result.append(entry)
            brace = braces.get(entry["item"])
            if brace and brace not in present:
                result.append({"item": brace, "price": entry["price"] * 2})
        return result

    def _gromril_entries(self, entries: list[dict]) -> list[dict]:
        rule = self.mapping["gromril_weapons"]
        prices = {entry["item"]: entry["price"] for entry in entries}
        return [
            {"item": f"gromril_{key}", "price": prices[key] * rule["multiplier"]}
            for key in rule["weapons"]
            if key in prices
        ]

    def _gromril_items(self, spec: dict | None, *, chart: bool) -> list[dict]:
        """Gromril weapons at the chart's four times the weapon's price, Rare 11: those of
        chart weapons belong to ``equipment.json``, the Dwarf axe's to the Dwarf list."""
        rule = self.mapping["gromril_weapons"]
        if chart:
            bases = {item["key"]: item for item in self.equipment["items"]}
        else:
            bases = {item["key"]: item for item in (spec or {}).get("items", [])}
        items = []
        for key in rule["weapons"]:
            base = bases.get(key)
            if base is None:
                continue
            items.append(
                {
                    "key": f"gromril_{key}",
                    "name": f"Gromril {base['name']}",
                    "category": "hand_to_hand",
                    "price": base["price"] * rule["chart_multiplier"],
                    "price_dice": None,
                    "rarity": rule["chart_rarity"],
                    "notes": "Gromril weapon: a further -1 armour save modifier.",
                    "summary": rule["summary"],
                    **{k: base[k] for k in RESTRICTION_FIELDS if k in base},
                }
            )
        return items

    def equipment_file(self) -> dict:
        """``equipment.json`` with the chart's gromril weapons added or brought up to date."""
        data = {**self.equipment, "items": list(self.equipment["items"])}
        for item in self._gromril_items(None, chart=True):
            if item["key"] in {row["key"] for row in data["items"]}:
                data["items"] = [
                    item if row["key"] == item["key"] else row for row in data["items"]
                ]
            else:
                data["items"].append(item)
        note = (
            " Gromril weapons: 02-weapons-armour-equipment.md (four times the weapon's price,"
            " Rare 11), written by warbands/data/convert_bsdata.py."
        )
        if note not in data["source"]:
            data["source"] += note
        return data
