"""The charts at hand (``battles.rules.at_hand``), drawn on the step pages and the printout,
against the tables the engine rolls on, entry by entry; in our own words."""

import html
import re
from pathlib import Path

from django.template import Context, Template

from battles.rules import at_hand, experience, exploration, injuries
from battles.rules.exploration_locations import LOCATIONS
from tests.warbands.test_rule_summaries import RULES, rule_texts, runs
from warbands.rules.roster import CHARACTERISTIC_NAMES

TAGS = ("serious_injuries_chart", "hero_advances_chart", "henchman_advances_chart",
        "exploration_chart")  # fmt: skip


def drawn(tag: str) -> str:
    return Template("{% load charts_at_hand %}{% " + tag + " %}").render(Context())


def rows(page: str) -> dict[str, str]:
    """Each row's roll (a number, a span "11-15" or "36+") → its text."""
    found = re.findall(r'<tr data-roll="([^"]+)">(.*?)</tr>', page, re.S)
    return {roll: html.unescape(re.sub(r"<[^>]+>", " ", text)) for roll, text in found}


def covering(chart: dict[str, str], roll: int) -> str:
    """The text of the one row whose span holds ``roll``."""
    hits = []
    for span, text in chart.items():
        low, _, high = span.partition("-")
        low = int(low.rstrip("+"))
        high = int(high) if high else (99 if span.endswith("+") else low)
        if low <= roll <= high:
            hits.append(text)
    assert len(hits) == 1, (roll, hits)
    return hits[0]


D66 = [first * 10 + second for first in range(1, 7) for second in range(1, 7)]


def test_every_d66_roll_reads_on_the_chart_what_the_engine_applies():
    chart = rows(drawn("serious_injuries_chart"))
    for code in D66:
        name = injuries.chart_result(code)
        assert name in covering(chart, code), code
        assert at_hand.INJURY_SUMMARIES[name] in covering(chart, code), code
    names = {name for _, _, name in injuries.SERIOUS_INJURIES}
    assert set(at_hand.INJURY_SUMMARIES) == names


def test_every_advance_roll_reads_on_the_tables_what_the_engine_applies():
    heroes = rows(drawn("hero_advances_chart"))
    henchmen = rows(drawn("henchman_advances_chart"))
    for roll in range(2, 13):
        hero, group = covering(heroes, roll), covering(henchmen, roll)
        pair = experience.HERO_PAIRS.get(roll) or experience.HERO_CHOICES.get(roll)
        if pair:
            assert all(f"+1 {CHARACTERISTIC_NAMES[c]}" in hero for c in pair), roll
        else:
            assert "new skill" in hero, roll
        if roll >= experience.LADS_TALENT:
            assert "talent" in group, roll
        elif roll in experience.HENCHMAN_CHOICES:
            assert all(f"+1 {CHARACTERISTIC_NAMES[c]}" in group
                       for c in experience.HENCHMAN_CHOICES[roll]), roll  # fmt: skip
        else:
            assert group.strip().endswith(
                f"+1 {CHARACTERISTIC_NAMES[experience.HENCHMAN_RAISES[roll]]}"
            ), roll


def test_every_exploration_total_and_set_reads_on_the_chart_what_the_engine_finds():
    page = drawn("exploration_chart")
    cells = dict(re.findall(r'<td data-roll="([^"]+)">(\d+)</td>', page))
    for total in range(1, 37):
        assert covering(cells, total) == str(exploration.shards_for(total)), total
    for face in range(1, 7):
        row = re.search(rf'<tr data-face="{face}">(.*?)</tr>', page, re.S).group(1)
        places = [html.unescape(p) for p in re.findall(r"<td>(.*?)</td>", row)]
        assert places == [exploration.location(face, n) for n in range(2, 7)], face


def test_the_charts_are_in_our_own_words():
    """Each row, caption and note on its own, its words (a run of the table's numbers, with
    a word or two, reads alike anywhere)."""
    if not RULES.is_dir():
        return
    rule_runs = runs(rule_texts())
    for tag in TAGS:
        page = drawn(tag)
        pieces = re.findall(r"<(tr|p|caption|summary|dt|dd)[^>]*>(.*?)</\1>", page, re.S)
        pieces = [piece for _, piece in pieces]
        assert len(pieces) > 3, tag
        for piece in pieces:
            text = html.unescape(re.sub(r"<[^>]+>", " ", piece))
            words = {run for run in runs(text) if sum(not w.isdigit() for w in run) >= 3}
            assert not words & rule_runs, (tag, text)


def test_every_place_says_on_the_chart_what_it_gives_in_a_short_line():
    assert set(at_hand.LOCATION_SUMMARIES) == set(LOCATIONS.values())
    page = drawn("exploration_chart")
    said = {name: html.unescape(text) for name, text in
            re.findall(r'<div data-place="([^"]+)">.*?<dd>(.*?)</dd>', page, re.S)}  # fmt: skip
    assert {html.unescape(name) for name in said} == set(LOCATIONS.values())
    for name, summary in at_hand.LOCATION_SUMMARIES.items():
        assert said[html.escape(name)] == summary, name
        assert len(summary.split()) <= 25, name
    sizes = [size for size, _ in at_hand.places()]
    assert sizes == list(at_hand.MULTIPLES.values())
    dice = {row.result: row.roll for _, rows in at_hand.places() for row in rows}
    for (face, count), name in LOCATIONS.items():
        assert dice[name] == " ".join([str(face)] * count), name


def paragraph(name: str) -> str:
    """The rulebook's own paragraph on a special location: from its heading ("#### (5 5)
    Overturned Cart") to the next heading."""
    for path in sorted((RULES / "reference").glob("*.md")):
        found = re.search(rf"^#### \([\d ]+\) {re.escape(name)}\n(.*?)(?=^#)",
                          path.read_text(encoding="utf-8"), re.M | re.S)  # fmt: skip
        if found:
            return found.group(1)
    raise AssertionError(f"no paragraph on {name}")


def figures(text: str) -> set[str]:
    """The dice and numbers of a text: "D6", "2D6", "D6x10" (× read as x), "4" of "4+"."""
    found = re.findall(r"\d*D\d+(?:\s*[x×]\s*\d+)?|\d+", text)
    return {re.sub(r"\s", "", figure).replace("×", "x") for figure in found}


def test_every_figure_of_a_place_is_in_its_own_paragraph_of_the_rulebook():
    if not RULES.is_dir():
        return
    for name, summary in at_hand.LOCATION_SUMMARIES.items():
        assert figures(summary) <= figures(paragraph(name)), name


def test_the_places_are_in_our_own_words():
    """Every run of ten words, figures and all, not only those the chart test looks at."""
    if not RULES.is_dir():
        return
    rule_runs = runs(rule_texts())
    for name, summary in at_hand.LOCATION_SUMMARIES.items():
        assert not runs(summary) & rule_runs, name


STEPS = Path(__file__).resolve().parents[2] / "templates" / "battles" / "aftermath" / "steps"


def test_every_step_says_what_its_buttons_do_in_our_own_words():
    rule_runs = runs(rule_texts()) if RULES.is_dir() else set()
    for step in range(11):
        source = (STEPS / f"_step_{step}.html").read_text(encoding="utf-8")
        said = re.findall(r'<p class="step-does" data-testid="step-does">(.*?)</p>', source)
        assert said, step
        for line in said:
            assert not runs(re.sub(r"{[{%].*?[%}]}", " ", line)) & rule_runs, (step, line)
