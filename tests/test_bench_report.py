"""The benchmark's pure parts: percentiles, the targets (bench/report.py) and the plan of what
is measured (bench/plan.py)."""

import pytest

from bench import plan, report
from bench.load import Response, Tally, capture, fill, percentile, request_bytes
from bench.night import completion, tasks

CEILING = {"name": "/healthz (ceiling)", "rps": 1000.0, "p95_ms": 5.0}


def row(kind="page", **values):
    base = {"name": "roster", "kind": kind, "requests": 500, "rps": 150.0, "p50_ms": 20.0,
            "p95_ms": 30.0, "queries": 8, "queries_max": 8, "bytes": 20_000,
            "bytes_max": 20_000, "max_bytes": 80_000, "errors": 0, "statuses": {"200": 500},
            "exceptions": {}, "notes": {}, "legs": {}}  # fmt: skip
    return {**base, **values}


def test_percentiles_are_nearest_rank_and_always_an_observed_value():
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 50) == 3.0
    assert percentile(values, 95) == 5.0
    assert percentile(values, 20) == 1.0
    assert percentile(values, 21) == 2.0
    assert percentile(list(range(1, 101)), 95) == 95
    assert percentile([], 50) is None


def test_a_row_that_meets_every_target_has_no_verdict():
    assert report.verdicts(CEILING, row()) == []


def test_each_target_is_a_ratio_to_the_ceiling():
    assert report.verdicts(CEILING, row(rps=100.0)) == []  # exactly a tenth
    assert report.verdicts(CEILING, row(rps=99.9)) == ["rps 100 < 0.1 x 1000"]
    assert report.verdicts(CEILING, row(p95_ms=50.0)) == []  # exactly ten times
    assert report.verdicts(CEILING, row(p95_ms=50.1)) == ["p95 50.1 ms > 10 x 5.0 ms"]


def test_queries_sizes_and_errors_are_judged():
    assert report.verdicts(CEILING, row(queries_max=15)) == []
    assert report.verdicts(CEILING, row(queries_max=16)) == ["queries 16 > 15"]
    assert report.verdicts(CEILING, row(queries_max=None)) == ["queries None > 15"]
    treasury = row(max_bytes=plan.TREASURY_BYTES, bytes_max=40_001)
    assert report.verdicts(CEILING, treasury) == ["40,001 bytes > 40,000"]
    failed = row(errors=2, statuses={"200": 498, "422": 2})
    assert report.verdicts(CEILING, failed) == ["2 errors {'200': 498, '422': 2} "]


def test_a_write_is_not_judged_on_its_size_or_queries_and_the_night_only_on_its_p95_and_errors():
    assert report.verdicts(CEILING, row("write", bytes_max=500_000, queries_max=30)) == []
    night = row("night", rps=1.0, queries_max=40, bytes_max=500_000)
    assert report.verdicts(CEILING, night) == []
    assert report.verdicts(CEILING, dict(night, p95_ms=51.0)) == ["p95 51.0 ms > 10 x 5.0 ms"]


def test_a_row_without_a_measured_request_misses():
    assert report.verdicts(CEILING, row(requests=0)) == ["no request was measured"]


def test_the_table_lists_legs_and_every_miss_and_keeps_the_ratios():
    ceiling = row("ceiling", name="/healthz (ceiling)", rps=1000.0, p95_ms=5.0, queries=0,
                  queries_max=0)  # fmt: skip
    slow = row("write", name="buy (+ sell)", rps=50.0, p95_ms=60.0, legs={
        "buy": row(rps=25.0), "sell": row(rps=25.0, p95_ms=31.0)})  # fmt: skip
    lines, failures = report.table([ceiling, row(), slow])
    assert failures == [
        "buy (+ sell): rps 50 < 0.1 x 1000",
        "buy (+ sell): p95 60.0 ms > 10 x 5.0 ms",
    ]
    assert [line.split()[0] for line in lines] == ["row", "/healthz", "roster", "buy", "buy",
                                                   "sell"]  # fmt: skip
    assert lines[2].endswith("ok") and lines[1].endswith("-")
    assert slow["ratio"] == 0.05 and slow["p95_vs_ceiling"] == 12.0
    assert slow["missed"] == ["rps 50 < 0.1 x 1000", "p95 60.0 ms > 10 x 5.0 ms"]


def test_peak_rss_must_stay_under_the_limit():
    assert report.rss_failures([70.0, 149.9]) == []
    assert report.rss_failures([70.0, 150.0]) == ["peak RSS 150.0 MB >= 150 MB"]


def test_a_tally_counts_unexpected_statuses_sizes_and_queries():
    tally = Tally()
    ok = Response(200, [("x-queries", "7")], b"x" * 10)
    refused = Response(422, [("x-queries", "9")], b"x" * 30)
    for seconds, reply in ((0.010, ok), (0.020, ok), (0.030, refused)):
        tally.add(seconds, reply, (200,))
    summary = tally.summary(elapsed=1.5)
    assert summary["requests"] == 3 and summary["rps"] == 2.0 and summary["errors"] == 1
    assert (summary["p50_ms"], summary["p95_ms"]) == (20.0, 30.0)
    assert (summary["queries"], summary["queries_max"]) == (7, 9)
    assert (summary["bytes"], summary["bytes_max"]) == (10, 30)


def test_the_sell_form_is_found_on_the_board_the_purchase_answers_with():
    (buy, _sell, *_) = plan.writes(LEAGUE)[1]["scripts"][0]
    board = (
        '<article id="container-7"><form hx-post="/containers/7/sell/"></form></article>'
        '<article id="container-12"><form hx-post="/containers/12/sell/"></form></article>'
    )
    kept = {}
    assert capture(buy, Response(200, [], board.encode()), kept)
    assert kept == {"bought": "12", "sell": "/containers/12/sell/"}
    one_form = '<article id="container-12"></article><form hx-post="/warbands/3/treasury/sell/">'
    assert capture(buy, Response(200, [], one_form.encode()), kept)
    assert kept == {"bought": "12", "sell": "/warbands/3/treasury/sell/"}
    assert not capture(buy, Response(422, [], board.encode()), {})  # refused: nothing bought


def test_every_form_gets_a_fresh_one_time_token_and_captured_values():
    first, second = fill("{token}", {}), fill("{token}", {})
    assert first != second and len(first) == 36
    assert fill("/containers/{bought}/sell/", {"bought": "42"}) == "/containers/42/sell/"
    step = {"method": "POST", "path": "/x/", "htmx": True, "form": {"gold": "1"}}
    sent = request_bytes("127.0.0.1", 8765, step, None, {}).decode()
    assert "HX-Request: true" in sent and sent.endswith("gold=1")


LEAGUE = {
    "campaign_id": 1, "player": "p0", "warband_id": 10, "battle_id": 5, "sequence_id": 7,
    "move": [100, 101],
    "players": [{"username": f"p{n}", "warband_id": 10 + n, "move": [100 + 2 * n, 101 + 2 * n],
                 "night": [50 + n]} for n in range(4)],
    "step9": [{"username": "p1", "sequence_id": 21, "move": [102, 103]},
              {"username": "p2", "sequence_id": 22, "move": [104, 105]}],
    "step8": [{"username": "p3", "sequence_id": 31}],
    "buyers": [{"username": "p1", "warband_id": 11, "chests": [90, 91]}],
    "rolls": [{"username": "p2", "sequence_id": 40, "task_id": 400, "dice": 2}],
}  # fmt: skip


def test_the_plan_measures_the_ceiling_every_page_every_write_and_the_night():
    rows = plan.plan(LEAGUE, night_duration=20)
    assert [(r["name"], r["kind"]) for r in rows] == [
        ("/healthz (ceiling)", "ceiling"),
        *((name, "page") for name in ("dashboard", "roster", "treasury", "campaign page",
                                      "league table",
                                      "campaign feed", "battle", "sequence (step 9)")),
        *((name, "write") for name in ("treasury move", "buy a container (+ sell)",
                                       "injury roll (step 1, dice)", "step 9 move",
                                       "finish a step (+ undo)")),
        ("league night (4 players)", "night"),
    ]  # fmt: skip
    sizes = {r["name"]: r.get("max_bytes") for r in rows if r["kind"] == "page"}
    assert sizes["treasury"] == 40_000 and set(sizes.values()) == {40_000, 80_000}
    assert plan.smallest_pool(LEAGUE) == 1


def test_each_write_comes_back_to_where_it_started():
    by_name = {r["name"]: r for r in plan.writes(LEAGUE)}
    moves = by_name["treasury move"]["scripts"]
    assert [[(s["user"], s["form"]["source"], s["form"]["target"]) for s in m] for m in moves] == [
        [("p1", 102, 103), ("p1", 103, 102)], [("p2", 104, 105), ("p2", 105, 104)]
    ]  # fmt: skip
    (buys,) = by_name["buy a container (+ sell)"]["scripts"]
    assert [s["label"] for s in buys] == ["buy", "sell", "buy", "sell"]
    assert buys[1]["path"] == "{sell}" and buys[1]["form"]["container"] == "{bought}"
    assert buys[2]["form"]["pay_from"] == buys[3]["form"]["proceeds_to"] == 91
    ((complete, undo),) = by_name["finish a step (+ undo)"]["scripts"]
    assert (complete["path"], undo["path"]) == ("/sequences/31/complete/", "/sequences/31/undo/")
    assert complete["form"]["step"] == undo["form"]["step"] == "8"
    (roll,) = by_name["injury roll (step 1, dice)"]["steps"]
    assert roll["path"] == "/sequences/40/tasks/400/" and roll["form"]["dice"] == "4 4"
    for name, write in by_name.items():
        steps = write.get("steps") or [s for script in write["scripts"] for s in script]
        assert all(s["form"]["form_token"] == "{token}" and s["htmx"] for s in steps), name


PANEL = """
<form method="post" action="/sequences/3/tasks/8/" hx-post="/sequences/3/tasks/8/">
  <input type="hidden" name="step" value="2"><fieldset><legend>Which skill?</legend>
  <label><input type="radio" name="answer" value="mighty_blow" required> Mighty Blow</label>
  <label><input type="radio" name="answer" value="resilient" required> Resilient</label>
  </fieldset></form>
<form method="post" action="/sequences/3/tasks/9/" hx-post="/sequences/3/tasks/9/" class="x">
  <input type="hidden" name="step" value="2"><input type="text" name="dice"></form>
<form method="post" action="/sequences/3/complete/" hx-post="/sequences/3/complete/">
  <input type="hidden" name="step" value="2">
  <button type="submit" disabled>Continue to step 3</button></form>
"""


def test_the_night_fills_in_forms_from_the_page_it_was_sent():
    assert tasks(PANEL) == [
        ("/sequences/3/tasks/8/", "2", "mighty_blow"),
        ("/sequences/3/tasks/9/", "2", None),
    ]
    assert completion(PANEL) is None  # its button is disabled: rolls are still to be made
    ready = PANEL.replace(" disabled", "").replace(
        "<button", '<input type="checkbox" name="notes_confirmed" value="1"><button'
    )
    assert completion(ready) == ("/sequences/3/complete/", "2", True)


@pytest.mark.parametrize("html", ["", "<p>The sequence is complete</p>"])
def test_a_panel_without_forms_has_nothing_to_do(html):
    assert tasks(html) == [] and completion(html) is None


HELPER = {"battle_id": 9, "viewers": ["p5", "p6", "org", "p0"],
          "tappers": [{"username": "p5", "fighters": [1, 2]},
                      {"username": "p6", "fighters": [3, 4]}]}  # fmt: skip


def test_a_league_with_a_game_under_way_adds_the_helpers_rows_before_the_night():
    rows = plan.plan({**LEAGUE, "helper": HELPER}, night_duration=20)
    assert [(r["name"], r["kind"]) for r in rows[-3:]] == [
        ("helper tap", "tap"),
        ("idle poll", "idle"),
        ("league night (4 players)", "night"),
    ]
    tap, idle = rows[-3], rows[-2]
    assert tap["tappers"] == HELPER["tappers"] and tap["viewers"] == idle["viewers"]
    assert tap["concurrency"] == 6 and "tappers" not in idle
    kinds = plan.row_kinds(rows)
    assert kinds["helper poll (with changes)"] == {"kind": "poll", "max_bytes": 8000}
    assert kinds["helper tap"] == {"kind": "tap", "max_queries": 10}
    assert kinds["idle poll"] == {"kind": "idle", "max_queries": 3}
    assert kinds["treasury"] == {"kind": "page", "max_bytes": 40_000}


def test_the_helpers_rows_are_judged_on_a_taps_queries_a_changes_bytes_and_idle_polls():
    tap = row("tap", rps=2.0, max_queries=10, legs={"tap": row(queries_max=9),
                                                    "undo": row(queries_max=14)})  # fmt: skip
    assert report.verdicts(CEILING, tap) == []  # paced: its rate is not judged
    tap["legs"]["tap"]["queries_max"] = 11
    assert report.verdicts(CEILING, tap) == ["a tap ran 11 queries > 10"]
    legs = {"1 change": row(bytes_max=1200), "whole board": row(bytes_max=30_000)}
    poll = row("poll", rps=4.0, max_bytes=8000, legs=legs)
    assert report.verdicts(CEILING, poll) == []
    poll["legs"]["1 change"]["bytes_max"] = 8001
    assert report.verdicts(CEILING, poll) == ["a poll of one change 8,001 bytes > 8,000"]
    assert report.verdicts(CEILING, row("poll", legs={})) == ["no poll carried exactly one change"]
    idle = row("idle", max_queries=3, queries_max=3, bytes_max=0, statuses={"204": 500})
    assert report.verdicts(CEILING, idle) == []
    assert report.verdicts(CEILING, dict(idle, queries_max=4, rps=50.0)) == [
        "an idle poll ran 4 queries > 3",
        "rps 50 < 0.1 x 1000",
    ]
    assert report.verdicts(CEILING, dict(idle, statuses={"200": 1, "204": 499},
                                         bytes_max=900)) == [
        "an idle poll was answered {'200': 1, '204': 499}, up to 900 bytes"]  # fmt: skip


def test_the_scales_side_by_side_flag_what_is_more_than_a_fifth_worse():
    small = [CEILING, row(name="league table", bytes=20_000), row("tap", name="helper tap",
             rps=2.0, p95_ms=10.0)]  # fmt: skip
    big = [dict(CEILING, rps=500.0),
           row(name="league table", bytes=24_001, rps=124.0, p95_ms=30.9, queries_max=9),
           row("tap", name="helper tap", rps=1.0, p95_ms=10.9)]  # fmt: skip
    lines, flags = report.compare(small, big, 10)
    assert flags == [
        "league table: req/s 150 at 1x, 124 at 10x",
        "league table: KB 20.0 at 1x, 24.0 at 10x",
    ]
    assert [line.split()[0] for line in lines] == ["row", "/healthz", "league", "helper"]
    assert lines[2].count("!") == 2 and "!" not in lines[1] + lines[3]
    # A p95 within a millisecond is noise, a rate the scene paces is not the server's.
    assert not report.worse("p95_ms", 1.0, 1.9, False) and report.worse("p95_ms", 5.0, 6.1, False)
    assert not report.worse("queries_max", 3, 3, False) and report.worse("rps", 100, 83, True)
