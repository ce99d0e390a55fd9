"""Reading a warband file (docs/warband-json.md): its bytes to plain data, or a refusal that
says what is wrong with it. Pure: no database, no dice; what the reference data allows is
checked by ``importing`` against what this module hands it.

Anything not understood is refused with the field it was found in, never guessed: a file can
be written by hand, or forged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from core.words import possessive
from warbands.export import FORMAT, VERSION
from warbands.rules import CHARACTERISTICS

MOST_BYTES = 256 * 1024
MOST_WARRIORS = 60  # far above any list's maximum: a file with more is not a warband
MOST_PER_WARRIOR = 40  # items, skills, spells or injuries on one warrior


class FileRefused(ValueError):
    """The file is not a warband file this app reads; the message says why."""


@dataclass(frozen=True)
class Ref:
    """A reference by natural key: a skill's or spell's list and its own key."""

    list: str | None
    key: str


@dataclass
class WarriorEntry:
    name: str
    type: Ref
    leader: bool
    models: int
    status: str
    experience: int
    games_to_miss: int
    profile: dict[str, int]
    maximum_bonuses: dict[str, int]
    hired_sword: str | None
    items: list[str] = field(default_factory=list)
    skills: list[Ref] = field(default_factory=list)
    spells: list[Ref] = field(default_factory=list)
    injuries: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class SwordEntry:
    name: str
    kind: str
    hire_fee: int
    upkeep: int
    notes: str


@dataclass
class WarbandFile:
    name: str
    list_key: str
    warriors: list[WarriorEntry]
    hired_swords: list[SwordEntry]


def parse(raw: bytes) -> dict:
    """The file's JSON object, or ``FileRefused``."""
    if len(raw) > MOST_BYTES:
        raise FileRefused(f"The file is larger than {MOST_BYTES // 1024} KB: it is not a warband.")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise FileRefused(
            "The file is not JSON: upload the file the roster's “Export JSON” link saves."
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FileRefused(
            f"This is not a warband file (its “format” is not “{FORMAT}”): export the warband "
            "from its roster page and upload that file."
        )
    if data.get("version") != VERSION:
        raise FileRefused(
            f"This warband file is version {data.get('version')!r}; this app reads version "
            f"{VERSION}: export the warband again from an up-to-date app."
        )
    return data


def _text(value, where: str, *, most: int = 100, blank: bool = False) -> str:
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise FileRefused(f"{where} must be a text.")
    return value.strip()[:most]


def _number(value, where: str, *, most: int = 10000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise FileRefused(f"{where} must be a whole number from 0 to {most}.")
    return value


def _list(value, where: str, *, most: int = MOST_PER_WARRIOR) -> list:
    if not isinstance(value, list) or len(value) > most:
        raise FileRefused(f"{where} must be a list of at most {most} entries.")
    return value


def _object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise FileRefused(f"{where} must be an object.")
    return value


def _ref(value, where: str) -> Ref:
    value = _object(value, where)
    listed = value.get("list")
    if listed is not None:
        listed = _text(listed, f"{possessive(where)} list", most=60)
    return Ref(listed, _text(value.get("key"), f"{possessive(where)} key", most=60))


def _profile(value, where: str, *, most: int) -> dict[str, int]:
    value = _object(value, where)
    return {name: _number(value.get(name, 0), f"{possessive(where)} {name}", most=most) for name in
            CHARACTERISTICS}  # fmt: skip


def _injury(data, where: str) -> tuple[str, str]:
    data = _object(data, f"{possessive(where)} injury")
    effect = _text(data.get("effect", ""), f"{possessive(where)} injury", most=200, blank=True)
    return _text(data.get("name"), f"{possessive(where)} injury"), effect


def _warrior(data, n: int) -> WarriorEntry:
    data = _object(data, f"Warrior {n}")
    name = _text(data.get("name"), f"Warrior {n}'s name")
    where, whose = name, possessive(name)
    sword = data.get("hired_sword")
    return WarriorEntry(
        name=name,
        type=_ref(data.get("type"), f"{whose} type"),
        leader=data.get("leader") is True,
        models=_number(data.get("models", 1), f"{whose} models", most=20) or 1,
        status=_text(data.get("status", "active"), f"{whose} status", most=10),
        experience=_number(data.get("experience", 0), f"{whose} experience", most=200),
        games_to_miss=_number(data.get("games_to_miss", 0), f"{whose} games to miss", most=9),
        profile=_profile(data.get("profile"), f"{whose} profile", most=10),
        maximum_bonuses={
            key: value
            for key, value in _profile(
                data.get("maximum_bonuses", {}), f"{whose} raised maximums", most=3
            ).items()
            if value
        },
        hired_sword=None if sword is None else _text(sword, f"{whose} hired sword", most=60),
        items=[
            _text(_object(i, f"{whose} items").get("key"), f"{whose} item key", most=60)
            for i in _list(data.get("items", []), f"{whose} items")
        ],
        skills=[_ref(s, f"{whose} skill") for s in _list(data.get("skills", []), where)],
        spells=[_ref(s, f"{whose} spell") for s in _list(data.get("spells", []), where)],
        injuries=[_injury(i, where) for i in _list(data.get("injuries", []), f"{whose} injuries")],
    )


def _sword(data, n: int) -> SwordEntry:
    data = _object(data, f"Hired sword {n}")
    name = _text(data.get("name"), f"Hired sword {n}'s name")
    kind = data.get("kind", "hired_sword")
    if kind not in ("hired_sword", "dramatis_persona"):
        raise FileRefused(f"{possessive(name)} kind must be “hired_sword” or “dramatis_persona”.")
    return SwordEntry(
        name=name,
        kind=kind,
        hire_fee=_number(data.get("hire_fee", 0), f"{possessive(name)} hire fee", most=1000),
        upkeep=_number(data.get("upkeep", 0), f"{possessive(name)} upkeep", most=1000),
        notes=_text(data.get("notes", ""), f"{possessive(name)} notes", most=200, blank=True),
    )


def read(raw: bytes) -> WarbandFile:
    """The warband the file describes, or ``FileRefused`` naming the first field it cannot
    read."""
    data = parse(raw)
    listed = _object(data.get("warband_list"), "The warband list")
    return WarbandFile(
        name=_text(data.get("name"), "The warband's name"),
        list_key=_text(listed.get("key"), "The warband list's key", most=60),
        warriors=[
            _warrior(w, n)
            for n, w in enumerate(_list(data.get("warriors"), "Warriors", most=MOST_WARRIORS), 1)
        ],
        hired_swords=[
            _sword(s, n)
            for n, s in enumerate(_list(data.get("hired_swords", []), "Hired swords"), 1)
        ],
    )


def over_maximum(profile: dict[str, int], maximum: dict[str, int]) -> list[str]:
    """The characteristics of ``profile`` above ``maximum`` ("WS 7 (most 6)")."""
    return [
        f"{name} {profile[name]} (most {maximum[name]})"
        for name in CHARACTERISTICS
        if profile[name] > maximum[name]
    ]
