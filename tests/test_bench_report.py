"""The benchmark's report (bench/run.py): how each write compares with the write floor."""

from bench.run import FLOOR, against_floor


def page(name, rps, method="POST"):
    return {"name": name, "rps": rps, "method": method}


def test_each_write_is_shown_as_a_share_of_the_write_floor():
    pages = [page("roster", 900, "GET"), page(FLOOR, 500), page("move", 125), page("step", 40)]
    assert against_floor(pages) == {"move": 0.25, "step": 0.08}


def test_without_a_floor_there_is_nothing_to_compare():
    assert against_floor([page("move", 125)]) == {}
    assert against_floor([page(FLOOR, 0), page("move", 125)]) == {}
