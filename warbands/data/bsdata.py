"""Read the community's BattleScribe catalogues (``../shared/data/bsdata-mordheim/``).

Standard library only (no Django): ``convert_bsdata`` turns what this module reads into the
app's own warband files. BattleScribe describes a warband as ``selectionEntry`` elements (a
hero is a ``model``; a henchman group a ``unit`` holding its ``model``) with ``costs``,
``constraints`` (min/max per roster or per group), a ``Model`` profile, ``entryLinks`` into
the shared entries of ``data.cat`` (equipment, skill groups, the experience counter) and
``rules``/``infoLinks`` (special rules, by name). Only the parts the app needs are read; the
modifiers BattleScribe uses for its own bookkeeping (group pricing, promotions) are ignored.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

NS = "{http://www.battlescribe.net/schema/catalogueSchema}"
HEROES = "Heroes"
HENCHMEN = "Henchmen"
HENCHMEN_CATEGORY_ID = "f9b08d8e-4922-78d5-78ad-2047bff52dc8"
CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
FREE_DAGGER = "Free Dagger"
# The older layout (commit 2d4ab2c) links each warrior to his list as a shared group named
# "<Hero|Henchman|…> Equipment", beside an "Extra Equipment" link to the whole chart.
OLD_EXTRA_EQUIPMENT = "Extra Equipment"
# A self-contained catalogue of that layout (Dark Elves, Shadow Warriors) gives each warrior an
# "Equipment" entry linking its own copy of the whole chart; the list is the text's part of it.
WHOLE_CHART = "Equipment"


@dataclass(frozen=True)
class BsItem:
    """An item of a warrior's starting equipment, at the price the data set gives."""

    name: str
    price: int
    heroes_only: bool = False
    hidden: bool = False


@dataclass
class BsWarrior:
    name: str
    kind: str  # "hero" or "henchman"
    cost: int
    rating: int | None  # the data set's warband-rating cost (5, or 20 for large creatures)
    min_count: int
    max_count: int | None  # None: no maximum (or one the data set computes from other types)
    max_is_conditional: bool
    group_max: int | None
    profile: dict[str, str]
    experience: int
    skill_groups: list[str]
    equipment_list: str | None  # the name in "Starting Equipment (...)"
    equipment: list[BsItem] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    from_spec: bool = False  # typed from the rule text: its skill groups are the app's keys


@dataclass
class BsCatalogue:
    name: str
    warriors: list[BsWarrior]
    rules: list[str]

    def warrior(self, name: str) -> BsWarrior:
        for warrior in self.warriors:
            if warrior.name == name:
                return warrior
        raise KeyError(f"{self.name}: no warrior {name!r}")


@dataclass(frozen=True)
class BsSpell:
    number: int
    name: str
    difficulty: int | None


def _tag(element: ET.Element) -> str:
    return element.tag[len(NS) :]


def _children(element: ET.Element, section: str) -> list[ET.Element]:
    found = element.find(NS + section)
    return list(found) if found is not None else []


def _cost(element: ET.Element | None, type_id: str = "points") -> int | None:
    if element is None:
        return None
    for cost in _children(element, "costs"):
        if cost.get("typeId") == type_id:
            return int(float(cost.get("value", "0")))
    return None


def _set_points(element: ET.Element | None) -> int | None:
    """An unconditional ``set points`` modifier (a list price that differs from the chart)."""
    if element is None:
        return None
    for modifier in _children(element, "modifiers"):
        conditional = modifier.find(NS + "conditions") is not None or (
            modifier.find(NS + "conditionGroups") is not None
        )
        if modifier.get("type") == "set" and modifier.get("field") == "points" and not conditional:
            return int(float(modifier.get("value", "0")))
    return None


def _hidden_for_henchmen(element: ET.Element | None) -> bool:
    """BattleScribe hides a heroes-only item or group from henchmen with a conditional
    ``set hidden`` modifier that tests for the Henchmen category."""
    if element is None:
        return False
    for modifier in _children(element, "modifiers"):
        if modifier.get("type") == "set" and modifier.get("field") == "hidden":
            for condition in modifier.iter(NS + "condition"):
                if condition.get("childId") == HENCHMEN_CATEGORY_ID:
                    return modifier.get("value") == "true"
    return False


class Library:
    """The shared entries of ``data.cat`` and one catalogue, found by id."""

    def __init__(self, *roots: ET.Element) -> None:
        self.by_id: dict[str, ET.Element] = {}
        for root in roots:
            for element in root.iter():
                if element.get("id"):
                    self.by_id.setdefault(element.get("id"), element)

    def resolve(self, element: ET.Element) -> ET.Element | None:
        if _tag(element) == "entryLink":
            return self.by_id.get(element.get("targetId", ""))
        return element

    def entries(self, element: ET.Element):
        """(entry, link) for each child entry or group; link is the entryLink or None."""
        for section in ("selectionEntries", "selectionEntryGroups", "entryLinks"):
            for child in _children(element, section):
                target = self.resolve(child)
                if target is not None:
                    yield target, child if _tag(child) == "entryLink" else None


def read_catalogue(path: Path, data_root: ET.Element) -> BsCatalogue:
    root = ET.parse(path).getroot()
    library = Library(root, data_root)
    warriors = []
    # Older catalogues link some warriors from their shared entries (Clan Pestilens' Giant
    # Rats and Plague Novices): the root's links count as its own entries.
    linked = [library.resolve(link) for link in _children(root, "entryLinks")]
    for entry in [*_children(root, "selectionEntries"), *filter(None, linked)]:
        categories = {link.get("name") for link in entry.iter(NS + "categoryLink")}
        if HEROES not in categories and HENCHMEN not in categories:
            continue
        warriors.append(_read_warrior(entry, library, hero=HEROES in categories))
    rules = [rule.get("name", "") for rule in _children(root, "rules")]
    return BsCatalogue(name=root.get("name", path.stem), warriors=warriors, rules=rules)


def spec_catalogue(spec: dict) -> BsCatalogue:
    """A catalogue for a list the data set lacks (``"catalogue": null``): each warrior of the
    spec gives, as the rule text prints them, what a catalogue's entry would (``kind``,
    ``cost``, ``min``, ``max``, ``group_max``, ``profile``, ``starting_experience``,
    ``skill_lists`` by the app's keys, ``large``)."""
    warriors = [
        BsWarrior(
            name=row["name"],
            kind=row["kind"],
            cost=row["cost"],
            rating=20 if row.get("large") else 5,
            min_count=row["min"],
            max_count=row["max"],
            max_is_conditional=False,
            group_max=row.get("group_max"),
            profile={name: str(value) for name, value in row["profile"].items()},
            experience=row["starting_experience"],
            skill_groups=row.get("skill_lists", []),
            equipment_list=None,
            from_spec=True,
        )
        for row in spec["warriors"]
    ]
    return BsCatalogue(name=spec["name"], warriors=warriors, rules=[])


def _model_of(entry: ET.Element) -> ET.Element:
    """A henchman ``unit`` holds its ``model`` (with the price and the group's limits)."""
    children = _children(entry, "selectionEntries")
    for child in children:
        if child.get("type") == "model":
            return child
    # Some units hold their priced model as an upgrade of its name, or of its singular.
    names = (entry.get("name"), entry.get("name", "").removesuffix("s"))
    for child in children:
        if child.get("name") in names and _cost(child):
            return child
    return entry


def _constraint(elements, kind: str, scope: str) -> ET.Element | None:
    for element in elements:
        for constraint in _children(element, "constraints"):
            if constraint.get("type") == kind and constraint.get("scope") == scope:
                return constraint
    return None


def _modified(elements, constraint: ET.Element) -> bool:
    """Whether a modifier changes the constraint (a maximum that depends on other types)."""
    for element in elements:
        for modifier in element.iter(NS + "modifier"):
            if modifier.get("field") == constraint.get("id"):
                return True
    return False


def _read_warrior(entry: ET.Element, library: Library, *, hero: bool) -> BsWarrior:
    model = _model_of(entry)
    both = (entry, model) if model is not entry else (entry,)
    roster_max = _constraint(both, "max", "roster")
    roster_min = _constraint(both, "min", "roster")
    group_max = _constraint((model,), "max", "parent") if model is not entry else None
    cost = _cost(model) or _cost(entry)  # a unit may price the group instead of its model
    rating = _cost(model, "wb-rating") or _cost(entry, "wb-rating")
    equipment_list, equipment = _starting_equipment(both, library)
    return BsWarrior(
        name=entry.get("name", ""),
        kind="hero" if hero else "henchman",
        cost=cost or 0,
        rating=rating,
        min_count=int(roster_min.get("value")) if roster_min is not None else 0,
        max_count=int(roster_max.get("value")) if roster_max is not None else None,
        max_is_conditional=roster_max is not None and _modified(both, roster_max),
        group_max=int(group_max.get("value")) if group_max is not None else None,
        profile=_profile(both),
        experience=_experience(both, library),
        skill_groups=_skill_groups(entry, library),
        equipment_list=equipment_list,
        equipment=equipment,
        rules=_rules(both),
    )


def _profile(elements) -> dict[str, str]:
    for element in elements:
        for profile in _children(element, "profiles"):
            if profile.get("typeName") == "Model":
                values = {
                    c.get("name"): (c.text or "").strip()
                    for c in profile.iter(NS + "characteristic")
                }
                values["Ld"] = values.pop("LD", values.get("Ld", ""))
                return {name: values.get(name, "") for name in CHARACTERISTICS}
    return {}


def _experience(elements, library: Library) -> int:
    for element in elements:
        for target, link in library.entries(element):
            if (link if link is not None else target).get("name") == "Experience":
                found = _constraint((link,) if link is not None else (target,), "min", "parent")
                return int(found.get("value")) if found is not None else 0
    return 0


def _skill_groups(entry: ET.Element, library: Library) -> list[str]:
    """The skill lists the data set offers: the visible links of the hero's Skills group."""
    for group in _children(entry, "selectionEntryGroups") + _children(entry, "selectionEntries"):
        if group.get("name") == "Skills":
            return [
                link.get("name", "")
                for link in _children(group, "entryLinks")
                if link.get("hidden") != "true"
            ]
    return []


def _rules(elements) -> list[str]:
    names = []
    for element in elements:
        names += [rule.get("name", "") for rule in _children(element, "rules")]
        names += [
            link.get("name", "")
            for link in _children(element, "infoLinks")
            if link.get("type") == "rule"
        ]
    return [name for name in names if not name.startswith("(")]  # "(2 2 2 …) Laboratory"


def _starting_equipment(elements, library: Library) -> tuple[str | None, list[BsItem]]:
    for element in elements:
        for target, link in library.entries(element):
            name = (link if link is not None else target).get("name", "")
            if (
                name.startswith("Starting Equipment")
                or name == WHOLE_CHART
                or (name.endswith(" Equipment") and name != OLD_EXTRA_EQUIPMENT)
            ):
                list_name = name.partition("(")[2].rstrip(")") or name
                items: list[BsItem] = []
                _collect_items(target, library, items, heroes_only=False)
                return list_name, items
    return None, []


def _collect_items(element: ET.Element, library: Library, items: list[BsItem], *, heroes_only):
    for target, link in library.entries(element):
        shown = link if link is not None else target
        only_heroes = heroes_only or _hidden_for_henchmen(shown) or _hidden_for_henchmen(target)
        if _tag(target) == "selectionEntryGroup":
            _collect_items(target, library, items, heroes_only=only_heroes)
            if link is not None:
                _collect_items(link, library, items, heroes_only=only_heroes)
            continue
        name = shown.get("name", "")
        if name == FREE_DAGGER or any(item.name == name for item in items):
            continue
        price = _set_points(link)
        if price is None:
            price = _cost(link) if _cost(link) is not None else (_cost(target) or 0)
        hidden = shown.get("hidden") == "true"
        items.append(BsItem(name=name, price=price, heroes_only=only_heroes, hidden=hidden))


def read_spell_group(roots, group_name: str) -> list[BsSpell]:
    """The six spells of a spell list, numbered as the data set numbers them."""
    for root in roots:
        for group in root.iter(NS + "selectionEntryGroup"):
            if group.get("name") != group_name:
                continue
            spells = []
            for number, entry in enumerate(group.iter(NS + "selectionEntry"), start=1):
                values = {
                    c.get("name"): (c.text or "").strip() for c in entry.iter(NS + "characteristic")
                }
                name = entry.get("name", "").lstrip("0123456789 -").strip()
                difficulty = values.get("Difficulty", "")
                spells.append(
                    BsSpell(number, name, int(difficulty) if difficulty.isdigit() else None)
                )
            return spells
    raise KeyError(f"no spell list {group_name!r}")


def read_group_items(path: Path, data_root: ET.Element, group_name: str) -> list[BsItem]:
    """The items of a named group of a catalogue (the Carnival's Blessings of Nurgle)."""
    root = ET.parse(path).getroot()
    library = Library(root, data_root)
    for group in root.iter(NS + "selectionEntryGroup"):
        if group.get("name") == group_name:
            items: list[BsItem] = []
            _collect_items(group, library, items, heroes_only=False)
            return items
    raise KeyError(f"{path.name}: no group {group_name!r}")
