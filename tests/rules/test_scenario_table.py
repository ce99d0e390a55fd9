"""The scenario tables of the campaigns text (pre-battle sequence), entry by entry against the
text, with scripted dice: the rulebook's for two warbands, Chaos on the Streets' for more."""

import re

import pytest

from battles.rules import scenario_table, scenarios
from core.dice import ScriptedDice
from tests.warbands.test_rule_summaries import RULES

CAMPAIGNS = RULES / "reference" / "03-campaigns-magic-optional-rules.md"
CHAPTER = RULES / "reference" / "06-scenarios.md"
pytestmark = pytest.mark.skipif(not CAMPAIGNS.is_file(), reason="the rule texts are not here")


def printed(heading: str) -> dict[int, str]:
    """The table under ``heading``: each 2D6 total → the scenario's name, "" where a player
    chooses."""
    text = CAMPAIGNS.read_text(encoding="utf-8")
    after = text[text.index(heading) :]
    table = after[after.index("| 2D6") :].split("\n\n")[0]
    rows = {}
    for low, high, result in re.findall(r"^\| (\d+)(?:-(\d+))? \| (.+?) \|$", table, re.M):
        name = re.search(r"Play Scenario \d+: (.+?)\.?$", result)
        for total in range(int(low), int(high or low) + 1):
            rows[total] = name[1] if name else ""
    return rows


def headings() -> dict[int, str]:
    text = CHAPTER.read_text(encoding="utf-8")
    return {
        int(n): name.replace("\\", "") for n, name in re.findall(r"^## (\d+)\\\. (.+)$", text, re.M)
    }


def faces(total: int) -> list[int]:
    return [min(6, total - 1), total - min(6, total - 1)]


@pytest.mark.parametrize(
    ("warbands", "heading"),
    [(2, "#### mordheim rulebook scenario table"), (3, "#### chaos on the streets scenarios"),
     (4, "#### chaos on the streets scenarios")],
)  # fmt: skip
def test_each_entry_of_the_table_as_printed(warbands, heading):
    table = printed(heading)
    names = headings()
    assert sorted(table) == list(range(2, 13))
    for total, name in table.items():
        rolled = scenario_table.roll_scenario(ScriptedDice(faces(total)), warbands=warbands)
        assert rolled.total == total
        assert rolled.name == (name or "the lowest-rated player chooses"), total
        if name:
            assert names[rolled.number] == name  # the chapter's scenario of that name
        else:
            assert rolled.number is None and rolled.key == ""


def test_a_roll_names_its_table_and_the_loaded_scenarios_key():
    rolled = scenario_table.roll_scenario(ScriptedDice([3, 4]), warbands=2)
    assert (rolled.table, rolled.number, rolled.key) == (
        "the rulebook's scenario table", 2, "skirmish",
    )  # fmt: skip
    assert scenario_table.roll_scenario(ScriptedDice([1, 1]), warbands=5).table == (
        "the multiplayer scenario table"
    )


def test_every_scenario_either_table_names_is_loaded_and_preselected():
    """Both tables name chapter numbers; each must be a loaded scenario so the page can
    select it (the multiplayer table's are the Town Cryer's)."""
    for table in (scenario_table.RULEBOOK, scenario_table.MULTIPLAYER):
        for number in filter(None, table.values()):
            assert scenarios.by_number(number) is not None, number
    rolled = scenario_table.roll_scenario(ScriptedDice([1, 2]), warbands=3)
    assert rolled.number == scenario_table.MULTIPLAYER[3]
    assert rolled.key == scenarios.by_number(rolled.number).key != ""
