"""The scenarios of ``reference/06-scenarios.md``, read once from the data files of
``battles/data/scenarios/`` (every ``*.json`` there: one per group of sources, schema in its
README), and the experience lines of one warrior after a battle.

Most scenarios give +1 to each hero and henchman group that survives, +1 to the winning
warband's leader and +1 to a hero per enemy he puts out of action; ``Standard`` says which of
those a scenario's text gives (and how much, where it gives more), ``Award`` what it adds.
"Other" (``OTHER``) is any scenario not listed: its awards are typed in as a number per warrior.

Readings where the texts are silent:

- "Survives" means took part and is still with the warband after the injuries of step 1: a
  dead hero earns nothing, nor does a captured one (he is held by the enemy, not with his
  warband, and cannot be rewarded by it); a henchman group survives while a model is left.
- The winning leader is the warrior the side named as its leader in the battle (the
  ``leader`` of the report), so a hero who led while the leader missed the game earns it.
  In Occupy the winner is the side holding more buildings, which is how the result is
  reported, and a draw gives no leader the bonus.
- Awards that one warrior of the whole battle can earn (Street Fight's first hero to escape,
  Hidden Treasure's finder of the chest) are refused for a second warrior.
- An award of a role (the defender's, the attacker's) is earned only by the warriors of a
  side that played that role, as the side says when it enters its warriors.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "DATA_DIR",
    "OTHER",
    "SCENARIOS",
    "SOURCES",
    "Aftermath",
    "Award",
    "ExperienceLine",
    "Scenario",
    "Standard",
    "by_number",
    "experience_lines",
    "exploration_dice",
    "load",
    "matching",
    "scenario",
    "settings",
]

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "scenarios"
SOURCES = ("Mordheim rulebook", "Town Cryer", "Archive Pestilen", "Fanatic", "Other")
EXPLORATION = ("normal", "none", "winner_only")
KEY_LENGTH = 40  # Battle.scenario_key


@dataclass(frozen=True)
class Award:
    """A scenario's own experience award. ``heroes_only``: henchmen groups cannot earn it.
    ``most``: how many times one warrior may earn it (1 for a deed done once; more for
    something counted, such as wyrdstone counters). ``once_per_battle``: only one warrior of
    the whole battle earns it. ``role``: only the warriors of a side of that role earn it."""

    key: str
    label: str
    experience: int
    heroes_only: bool = False
    most: int = 1
    once_per_battle: bool = False
    role: str = ""


@dataclass(frozen=True)
class Standard:
    """The usual awards a scenario's text gives, and their experience (more than +1 where
    the text says so: Mordheim's Burning's +5 for surviving)."""

    survives: bool = True
    winning_leader: bool = True
    per_enemy_out_of_action: bool = True
    survives_experience: int = 1
    winning_leader_experience: int = 1


@dataclass(frozen=True)
class Aftermath:
    """What a scenario changes after the battle: ``rout_tests`` False when no Rout tests are
    taken; ``exploration``: "normal", "none" (nobody explores) or "winner_only";
    ``extra_exploration_dice``: dice the winner rolls on top."""

    rout_tests: bool = True
    exploration: str = "normal"
    extra_exploration_dice: int = 0


@dataclass(frozen=True)
class Scenario:
    key: str
    number: int
    name: str
    awards: tuple[Award, ...] = ()
    income: str = ""  # the scenario's special income, in our words
    most_shards: int = 0  # the most wyrdstone shards one warband can take from the scenario
    source: str = "Other"
    setting: str = "Any"
    warbands: tuple[int, int] = (2, 2)
    roles: tuple[str, ...] = ()
    standard: Standard = field(default_factory=Standard)
    aftermath: Aftermath = field(default_factory=Aftermath)
    summary: str = ""
    table: str = ""  # what the app leaves to the players at the table, in our words

    @property
    def title(self) -> str:
        return f"{self.number}. {self.name}" if self.number else self.name

    @property
    def rout_tests(self) -> bool:
        return self.aftermath.rout_tests

    def takes(self, warbands: int) -> bool:
        return self.warbands[0] <= warbands <= self.warbands[1]

    def award(self, key: str) -> Award | None:
        return next((a for a in self.awards if a.key == key), None)


def _award(row: Mapping) -> Award:
    return Award(
        key=row["key"], label=row["label"], experience=int(row["experience"]),
        heroes_only=bool(row.get("heroes_only", False)), most=int(row.get("most", 1)),
        once_per_battle=bool(row.get("once_per_battle", False)), role=row.get("role", ""),
    )  # fmt: skip


def _scenario(row: Mapping) -> Scenario:
    standard = row.get("standard", {})
    given = row.get("standard_experience", {})
    after = row.get("aftermath", {})
    low, high = row.get("warbands", (2, 2))
    return Scenario(
        key=row["key"],
        number=int(row["number"]),
        name=row["name"],
        awards=tuple(_award(a) for a in row.get("awards", ())),
        income=row.get("income", ""),
        most_shards=int(row.get("most_shards", 0)),
        source=row.get("source", "Other"),
        setting=row.get("setting", "Any") or "Any",
        warbands=(int(low), int(high)),
        roles=tuple(row.get("roles", ())),
        standard=Standard(
            survives=bool(standard.get("survives", True)),
            winning_leader=bool(standard.get("winning_leader", True)),
            per_enemy_out_of_action=bool(standard.get("per_enemy_out_of_action", True)),
            survives_experience=int(given.get("survives", 1)),
            winning_leader_experience=int(given.get("winning_leader", 1)),
        ),
        aftermath=Aftermath(
            rout_tests=bool(after.get("rout_tests", True)),
            exploration=after.get("exploration", "normal"),
            extra_exploration_dice=int(after.get("extra_exploration_dice", 0)),
        ),
        summary=row.get("summary", ""),
        table=row.get("table", ""),
    )


def load(paths: Iterable[Path]) -> tuple[Scenario, ...]:
    """Every scenario of the files, in the chapter's order of numbers. A key or number
    given twice, an award of a role the scenario has not, an unknown source or exploration
    is refused here, at import, rather than misread in a battle."""
    rows = []
    for path in sorted(paths):
        rows += json.loads(path.read_text(encoding="utf-8"))
    found = sorted((_scenario(row) for row in rows), key=lambda s: s.number)
    for what in ("key", "number"):
        values = [getattr(s, what) for s in found]
        twice = {v for v in values if values.count(v) > 1}
        if twice:
            raise ValueError(f"scenario {what} given twice: {sorted(twice)}")
    for s in found:
        roles = {a.role for a in s.awards} - {""}
        if roles - set(s.roles) or s.source not in SOURCES:
            raise ValueError(f"{s.key}: a role or the source is not one of the scenario's")
        if len(s.key) > KEY_LENGTH or not s.key.isidentifier():
            raise ValueError(f"{s.key}: a key is snake_case, {KEY_LENGTH} characters at most")
        if s.aftermath.exploration not in EXPLORATION or not 1 <= s.warbands[0] <= s.warbands[1]:
            raise ValueError(f"{s.key}: exploration or warbands misread")
    return tuple(found)


SCENARIOS: tuple[Scenario, ...] = load(DATA_DIR.glob("*.json"))

OTHER = Scenario("", 0, "Other", most_shards=10, warbands=(2, 99))  # shards typed in: ten at most

_BY_KEY = {s.key: s for s in SCENARIOS}
_BY_NUMBER = {s.number: s for s in SCENARIOS}


def scenario(key: str) -> Scenario:
    """The scenario of ``key``; ``OTHER`` for a blank or unknown key."""
    return _BY_KEY.get(key, OTHER)


def by_number(number: int) -> Scenario | None:
    """The scenario of the chapter's ``number``, when its data is loaded."""
    return _BY_NUMBER.get(number)


def settings() -> list[str]:
    return sorted({s.setting for s in SCENARIOS})


def matching(
    *, warbands: int | None = None, setting: str = "", source: str = "", words: str = ""
) -> list[Scenario]:
    """The scenarios a picker shows: for so many warbands, of a setting and source, whose
    name holds every word searched for."""
    wanted = words.lower().split()
    return [
        s
        for s in SCENARIOS
        if (not warbands or s.takes(warbands))
        and (not setting or s.setting == setting)
        and (not source or s.source == source)
        and all(word in s.name.lower() for word in wanted)
    ]


def exploration_dice(played: Scenario, *, won: bool) -> int | None:
    """The extra exploration dice the scenario gives this warband, or None when it may not
    explore at all (nobody does, or only the winner)."""
    after = played.aftermath
    if after.exploration == "none" or (after.exploration == "winner_only" and not won):
        return None
    return after.extra_exploration_dice if won else 0


@dataclass(frozen=True)
class ExperienceLine:
    reason: str
    experience: int

    def __str__(self) -> str:
        return f"+{self.experience} {self.reason}"


def experience_lines(
    *,
    is_hero: bool,
    survived: bool,
    enemies_out_of_action: int,
    led_the_winners: bool,
    underdog: int,
    awards: Mapping[str, int],
    typed: int,
    played: Scenario,
    extra: Mapping[str, int] | None = None,
    role: str = "",
) -> list[ExperienceLine]:
    """Each experience award a warrior who took part earns, one line each (campaigns text,
    Experience; the scenario's experience list). ``awards``: how often he earned each of the
    scenario's own awards; ``typed``: the experience typed in for an "other" scenario;
    ``extra``: experience from elsewhere (an injury), by reason; ``role``: his side's role in
    the scenario. A warrior who did not survive earns nothing."""
    if not survived:
        return []
    standard = played.standard
    lines = []
    if standard.survives:
        lines.append(ExperienceLine("survived", standard.survives_experience))
    if standard.per_enemy_out_of_action and is_hero and enemies_out_of_action:
        lines.append(
            ExperienceLine(
                f"for putting {enemies_out_of_action} "
                f"{'enemy' if enemies_out_of_action == 1 else 'enemies'} out of action",
                enemies_out_of_action,
            )
        )
    if standard.winning_leader and led_the_winners:
        lines.append(ExperienceLine("winning leader", standard.winning_leader_experience))
    for award in played.awards:
        times = min(awards.get(award.key, 0), award.most)
        if award.role and award.role != role:
            continue
        if times and (is_hero or not award.heroes_only):
            label = award.label if times == 1 else f"{award.label} ×{times}"
            lines.append(ExperienceLine(label, award.experience * times))
    if typed:
        lines.append(ExperienceLine("scenario", typed))
    if underdog:
        lines.append(ExperienceLine("underdog", underdog))
    for reason, experience in (extra or {}).items():
        if experience:
            lines.append(ExperienceLine(reason, experience))
    return lines
