"""The Town Cryer scenarios' data (``battles/data/scenarios/town_cryer.json``) against the
chapter they come from (``reference/06-scenarios.md``) and against the readings written apart
in ``scenario_texts_town_cryer``. The file is read as JSON, not through the loader, so these
tests stand on their own and need no database."""

import json
import re
from pathlib import Path

import pytest

from tests.battles.scenario_texts_town_cryer import ONCE_PER_BATTLE, READINGS, UNNUMBERED
from tests.warbands.test_rule_summaries import RULES, rule_texts, runs

DATA = Path(__file__).resolve().parents[2] / "battles" / "data" / "scenarios" / "town_cryer.json"
CHAPTER = RULES / "reference" / "06-scenarios.md"
SOURCE_LINE = "**Source:** https://mordheimer.net/docs/campaigns/scenarios/"

KEYS = [
    "key", "number", "name", "source", "setting", "warbands", "roles", "standard", "awards",
    "income", "most_shards", "aftermath", "summary", "table",
]  # fmt: skip
STANDARD_KEYS = ["survives", "winning_leader", "per_enemy_out_of_action"]
AWARD_KEYS = ["key", "label", "experience", "heroes_only", "most", "once_per_battle", "role"]
AFTERMATH_KEYS = ["rout_tests", "exploration", "extra_exploration_dice"]
RULEBOOK_KEYS = {
    "defend_the_find", "skirmish", "wyrdstone_hunt", "breakthrough", "street_fight",
    "chance_encounter", "hidden_treasure", "occupy", "surprise_attack",
}  # fmt: skip
SNAKE = re.compile(r"[a-z][a-z0-9_]*")
HEADING = re.compile(r"^## (?:Scenario )?(\d+)(?:\\\.|:) *(.*)$")
TYPOS = {58: "Stagecoash Ambush"}  # the chapter's spelling where our name corrects it


def _scenarios() -> list[dict]:
    with DATA.open(encoding="utf-8") as file:
        return json.load(file)


def _sections() -> list[tuple[str, list[str]]]:
    """Every scenario of the chapter as (its source URL, its lines): from one mordheimer
    Source line to the next, since some scenarios have ``## set-up`` headings of their own
    inside them and a ``## `` heading cannot end them."""
    sections: list[tuple[str, list[str]]] = []
    for line in CHAPTER.read_text(encoding="utf-8").splitlines():
        if line.startswith(SOURCE_LINE):
            sections.append((line.split()[1], []))
        elif sections:
            sections[-1][1].append(line)
    return sections


def _name(line: str) -> str:
    return line.removeprefix("## ").replace("’", "'").strip()


def _chapter() -> dict[int, dict]:
    """The Town Cryer scenarios of the chapter by number: name, setting and experience text."""
    found = {}
    for url, lines in _sections():
        if "/town-cryer/" not in url:
            continue
        heading = next(line for line in lines if line.startswith("## "))
        match = HEADING.match(heading)
        if match:
            number, name = int(match.group(1)), _name(match.group(2))
        else:
            number, name = UNNUMBERED[heading.removeprefix("## ")], _name(heading)
        setting = next((line for line in lines if line.startswith("**Setting:**")), "")
        found[number] = {
            "name": name,
            "setting": setting.removeprefix("**Setting:**").strip(),
            "experience": _experience(lines),
        }
    return found


def _experience(lines: list[str]) -> str:
    """Every experience section of a scenario (The Script of Sigmar has one per mission), each
    up to the next heading of its level or above."""
    taken, level = [], 0
    for line in lines:
        heading = re.match(r"^(#+)\s*(.*)$", line)
        if heading and level and len(heading.group(1)) <= level:
            level = 0
        if heading and re.fullmatch(r"(?i)(additional )?experience", heading.group(2).strip()):
            level = level or len(heading.group(1))
        if level:
            taken.append(line)
    return "\n".join(taken)


CHAPTER_SCENARIOS = _chapter()
SCENARIOS = _scenarios()
BY_NUMBER = {s["number"]: s for s in SCENARIOS}


def test_every_town_cryer_scenario_of_the_chapter_is_in_the_file_once():
    assert len(CHAPTER_SCENARIOS) == 57
    assert sorted(s["number"] for s in SCENARIOS) == sorted(CHAPTER_SCENARIOS)
    assert sorted(READINGS) == sorted(CHAPTER_SCENARIOS)


def test_keys_are_unique_snake_case_and_not_the_rulebook_nine():
    keys = [s["key"] for s in SCENARIOS]
    assert len(set(keys)) == len(keys)
    assert all(SNAKE.fullmatch(key) for key in keys)
    assert not RULEBOOK_KEYS & set(keys)


def _plain(name: str) -> str:
    words = re.sub(r"[^a-z0-9 ]", "", name.lower().replace("&", "and")).split()
    return " ".join(words[1:] if words[:1] == ["the"] else words)


def test_a_name_the_chapter_repeats_has_a_town_cryer_key():
    """Ambush, Haunted Treasure, The Caravan, Scourge and Purge and The Forbidden Square are
    also scenarios of Archive Pestilens."""
    others = {
        _plain(re.sub(r"^## (\d+\\\. )?", "", line))
        for url, lines in _sections()
        if "/town-cryer/" not in url
        for line in lines[:3]
        if line.startswith("## ")
    }
    repeated = [s for s in SCENARIOS if _plain(s["name"]) in others]
    assert len(repeated) == 5
    assert all(s["key"].startswith("tc_") for s in repeated)


def test_every_scenario_has_exactly_the_schema_keys_and_types():
    for s in SCENARIOS:
        where = s["key"]
        assert list(s) == KEYS, where
        assert isinstance(s["number"], int), where
        assert isinstance(s["name"], str) and s["name"], where
        assert s["source"] == "Town Cryer", where
        assert isinstance(s["setting"], str) and s["setting"], where
        low, high = s["warbands"]
        assert len(s["warbands"]) == 2 and 1 <= low <= high, where
        assert all(isinstance(n, int) for n in s["warbands"]), where
        assert all(isinstance(role, str) and role for role in s["roles"]), where
        assert len(set(s["roles"])) == len(s["roles"]) != 1, where
        assert list(s["standard"]) == STANDARD_KEYS, where
        assert all(isinstance(v, bool) for v in s["standard"].values()), where
        award_keys = [a["key"] for a in s["awards"]]
        assert len(set(award_keys)) == len(award_keys), where
        for award in s["awards"]:
            assert list(award) == AWARD_KEYS, where
            assert SNAKE.fullmatch(award["key"]), where
            assert isinstance(award["label"], str) and award["label"], where
            assert isinstance(award["experience"], int) and award["experience"] >= 1, where
            assert isinstance(award["heroes_only"], bool), where
            assert isinstance(award["most"], int) and award["most"] >= 1, where
            assert isinstance(award["once_per_battle"], bool), where
            assert not (award["once_per_battle"] and award["most"] > 1), where
            assert award["role"] == "" or award["role"] in s["roles"], where
        assert isinstance(s["income"], str), where
        assert isinstance(s["most_shards"], int) and s["most_shards"] >= 0, where
        assert list(s["aftermath"]) == AFTERMATH_KEYS, where
        assert isinstance(s["aftermath"]["rout_tests"], bool), where
        assert s["aftermath"]["exploration"] in ("normal", "none", "winner_only"), where
        assert isinstance(s["aftermath"]["extra_exploration_dice"], int), where
        assert s["aftermath"]["extra_exploration_dice"] >= 0, where
        assert isinstance(s["summary"], str) and s["summary"], where
        assert isinstance(s["table"], str), where


@pytest.mark.parametrize("number", sorted(READINGS))
def test_the_data_matches_the_readings(number):
    s, reading = BY_NUMBER[number], READINGS[number]
    assert tuple(s["warbands"]) == reading.warbands
    assert tuple(s["standard"].values()) == reading.standard
    awards = tuple((a["experience"], a["heroes_only"], a["most"], a["role"]) for a in s["awards"])
    assert awards == reading.awards
    once = {(number, i) for i, a in enumerate(s["awards"]) if a["once_per_battle"]}
    assert once == {pair for pair in ONCE_PER_BATTLE if pair[0] == number}
    assert s["aftermath"]["rout_tests"] is reading.rout_tests
    assert s["most_shards"] == reading.most_shards
    assert bool(s["income"]) or not s["most_shards"]  # shards taken are said in the income


@pytest.mark.parametrize("number", sorted(READINGS))
def test_name_and_setting_are_the_chapters(number):
    s, text = BY_NUMBER[number], CHAPTER_SCENARIOS[number]
    assert TYPOS.get(number, s["name"]) == text["name"]
    assert s["setting"] == (text["setting"] or "Any")  # the Setting line's own words


@pytest.mark.parametrize("number", sorted(READINGS))
def test_every_award_figure_is_in_the_scenarios_experience_section(number):
    section = CHAPTER_SCENARIOS[number]["experience"]
    if not section:  # Encampment Raid plays as Defend the Find and lists none of its own
        assert not BY_NUMBER[number]["awards"]
        return
    for award in BY_NUMBER[number]["awards"]:
        figure = award["experience"]
        assert re.search(rf"(?i)\+\s?{figure}\b|\b{figure}\s+(experience|exp)\b", section), award[
            "key"
        ]


def test_no_summary_table_income_or_label_copies_the_rule_texts():
    rule_runs = runs(rule_texts())
    for s in SCENARIOS:
        texts = [s["summary"], s["table"], s["income"], *(a["label"] for a in s["awards"])]
        for text in texts:
            assert not runs(text) & rule_runs, (s["key"], text)
