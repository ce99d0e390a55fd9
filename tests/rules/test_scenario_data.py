"""The scenarios' data (battles/data/scenarios/) against the chapter (reference/06-scenarios.md):
the readings made apart from it (tests/battles/scenario_readings.py), each award's experience as
the scenario's experience section prints it, every numbered scenario either loaded or left out
with a reason, and our own words in every text the data shows."""

import json
import re
from pathlib import Path

import pytest

from battles.rules import scenarios
from tests.battles.scenario_readings import LEFT_OUT, READINGS, STANDARD
from tests.warbands.test_rule_summaries import RULES, rule_texts, runs

CHAPTER = RULES / "reference" / "06-scenarios.md"
OURS = scenarios.DATA_DIR / "other_sources.json"
# The Town Cryer's scenarios come in their own file (town_cryer.json), written on another
# branch: until it is here, they are the only ones the data may lack.
TOWN_CRYER = scenarios.DATA_DIR / "town_cryer.json"

needs_texts = pytest.mark.skipif(not CHAPTER.is_file(), reason="the rule texts are not here")


def ours() -> list[scenarios.Scenario]:
    keys = {row["key"] for row in json.loads(OURS.read_text(encoding="utf-8"))}
    return [s for s in scenarios.SCENARIOS if s.key in keys]


def sections() -> dict[int, tuple[str, str]]:
    """Each numbered scenario of the chapter: number → (the source's address, its text)."""
    found = {}
    for part in CHAPTER.read_text(encoding="utf-8").split("\n---\n"):
        heading = re.search(r"^## (\d+)\\\. (.+)$", part, re.M)
        if heading:
            address = re.search(r"\*\*Source:\*\* (https://\S+)", part)
            found[int(heading[1])] = (address[1] if address else "", part)
    return found


def experience_section(text: str) -> str:
    """From each heading that names experience to the next heading as high or higher; the
    whole text when none does (the Square of the Snake's five points are in its ending)."""
    lines, taken, level = text.splitlines(), [], None
    for line in lines:
        heading = re.match(r"^(#+) ", line)
        if heading and level is not None and len(heading[1]) <= level:
            level = None
        if heading and "experience" in line.lower():
            level = len(heading[1])
        if level is not None:
            taken.append(line)
    return "\n".join(taken) or text


def test_our_file_holds_exactly_the_readings():
    assert {
        s.key: (
            s.number,
            s.warbands,
            {a.key: (a.experience, a.heroes_only, a.most) for a in s.awards},
        )
        for s in ours()
    } == READINGS


def test_the_standard_awards_are_as_read():
    for s in ours():
        st = s.standard
        given = (
            st.survives_experience if st.survives else 0,
            st.winning_leader_experience if st.winning_leader else 0,
            1 if st.per_enemy_out_of_action else 0,
        )
        assert given == STANDARD.get(s.key, (1, 1, 1)), s.key


@needs_texts
def test_each_awards_experience_is_printed_in_its_experience_section():
    texts = sections()
    for s in ours():
        section = experience_section(texts[s.number][1])
        figures = {int(n) for n in re.findall(r"\+\s?(\d+)", section)}
        figures |= {int(n) for n in re.findall(r"(\d+) (?:free |extra )?experience", section, re.I)}
        given = [a.experience for a in s.awards]
        st = s.standard
        given += [st.survives_experience] if st.survives else []
        given += [st.winning_leader_experience] if st.winning_leader else []
        assert set(given) <= figures, (s.key, set(given) - figures)


@needs_texts
def test_every_numbered_scenario_is_loaded_or_left_out_with_a_reason():
    texts = sections()
    loaded = {s.number for s in scenarios.SCENARIOS}
    assert not loaded & set(LEFT_OUT)
    assert all(len(why) > 30 for why in LEFT_OUT.values())
    missing = set(texts) - loaded - set(LEFT_OUT)
    if not TOWN_CRYER.exists():
        missing = {n for n in missing if "/town-cryer/" not in texts[n][0]}
    assert missing == set()
    # no number the chapter has not; the Town Cryer's own test reads their unusual headings
    # ("Scenario 10:", an unnumbered one given 66)
    assert {s.number for s in scenarios.SCENARIOS if s.source != "Town Cryer"} <= set(texts)


@needs_texts
def test_each_name_and_source_is_the_chapters():
    texts = sections()
    kinds = {"mordheim-rulebook": "Mordheim rulebook", "archive-pestilen": "Archive Pestilen",
             "fanatic-magazine": "Fanatic", "fanatic-online": "Fanatic", "other": "Other",
             "town-cryer": "Town Cryer"}  # fmt: skip
    for s in ours():
        address, text = texts[s.number]
        assert re.search(r"^## \d+\\\. (.+)$", text, re.M)[1].replace("\\", "") == s.name
        assert kinds[address.split("/scenarios/")[1].split("/")[0]] == s.source, s.key


def test_every_role_of_an_award_is_one_of_the_scenarios_roles():
    for s in scenarios.SCENARIOS:
        assert {a.role for a in s.awards} - {""} <= set(s.roles), s.key
        assert s.summary and len(s.summary) <= 200, s.key


def test_a_key_given_twice_is_refused(tmp_path: Path):
    row = {"key": "twice", "number": 500, "name": "Twice", "source": "Other"}
    (tmp_path / "a.json").write_text(json.dumps([row]))
    (tmp_path / "b.json").write_text(json.dumps([{**row, "number": 501}]))
    with pytest.raises(ValueError, match="key given twice"):
        scenarios.load(tmp_path.glob("*.json"))


@needs_texts
def test_no_text_of_the_data_copies_ten_words_of_the_rule_texts():
    rule_runs = runs(rule_texts())
    for s in ours():
        for text in (s.summary, s.table, s.income, *(a.label for a in s.awards)):
            assert not runs(text) & rule_runs, (s.key, text)


def test_a_key_longer_than_the_battles_field_or_a_role_not_of_the_scenario_is_refused(
    tmp_path: Path,
):
    row = {"key": "k" * 41, "number": 500, "name": "Long", "source": "Other"}
    (tmp_path / "a.json").write_text(json.dumps([row]))
    with pytest.raises(ValueError, match="40 characters at most"):
        scenarios.load(tmp_path.glob("*.json"))
    award = {"key": "a", "label": "a", "experience": 1, "role": "pirates"}
    (tmp_path / "a.json").write_text(json.dumps([{**row, "key": "short", "awards": [award]}]))
    with pytest.raises(ValueError, match="role"):
        scenarios.load(tmp_path.glob("*.json"))
