"""The benchmark's targets and its report: the table, and every target a row missed.

All targets are ratios to the ceiling measured in the same run (``/healthz``: the server's
own cost, no session, no query), so that they hold on a slow machine as on a fast one:

- every page and every write makes at least ``MIN_RATIO`` of the ceiling's requests per
  second, with a p95 latency at most ``MAX_P95`` times the ceiling's;
- the league night's p95 is at most ``MAX_P95`` times the ceiling's;
- a page runs at most ``MAX_QUERIES`` SQL statements (the most any request of the row ran,
  session and user included); a write's are shown, not judged;
- a page weighs at most its row's ``max_bytes`` of HTML (bench/plan.py);
- no request fails;
- each gunicorn worker's peak RSS (VmHWM) stays under ``MAX_RSS_MB``;
- the battle helper (bench/viewers.py): a tap runs at most its row's ``max_queries``; a poll
  that carries one change weighs at most its row's ``max_bytes``; a poll of a game nobody
  changed is an empty 204 of at most ``max_queries`` statements, at the pages' rate. The taps
  and the polls beside them are paced (a second apart, as on a table): their rate is not
  judged.

``compare`` sets two runs side by side (1x and 10x the league) and flags every row that is
more than ``WORSE`` worse at 10x: requests per second, p95, bytes or statements.
"""

from __future__ import annotations

MIN_RATIO = 0.10
MAX_P95 = 10.0
MAX_QUERIES = 15
MAX_RSS_MB = 150
JUDGED = ("page", "write", "night", "tap", "poll", "idle")
PACED = ("night", "tap", "poll")  # their rate is set by the scene, not the server
WORSE = 0.20


def verdicts(ceiling: dict, row: dict) -> list[str]:
    """The targets ``row`` missed, against ``ceiling`` (both as bench/load.py reports them,
    the row with its plan's ``kind`` and, for a page, ``max_bytes``)."""
    kind = row.get("kind")
    if kind not in JUDGED:
        return []
    if not row["requests"]:
        return ["no request was measured"]
    missed = helper_verdicts(row)
    if kind not in PACED and row["rps"] < MIN_RATIO * ceiling["rps"]:
        missed.append(f"rps {row['rps']:.0f} < {MIN_RATIO:g} x {ceiling['rps']:.0f}")
    if row["p95_ms"] > MAX_P95 * ceiling["p95_ms"]:
        missed.append(f"p95 {row['p95_ms']:.1f} ms > {MAX_P95:g} x {ceiling['p95_ms']:.1f} ms")
    if kind == "page" and (row["queries_max"] is None or row["queries_max"] > MAX_QUERIES):
        missed.append(f"queries {row['queries_max']} > {MAX_QUERIES}")
    if kind == "page" and row["bytes_max"] > row["max_bytes"]:
        missed.append(f"{row['bytes_max']:,} bytes > {row['max_bytes']:,}")
    if row["errors"]:
        missed.append(f"{row['errors']} errors {row['statuses']} {row['exceptions'] or ''}")
    return missed


def helper_verdicts(row: dict) -> list[str]:
    """The battle helper's own targets (bench/plan.py)."""
    kind, legs, missed = row.get("kind"), row.get("legs", {}), []
    if kind == "tap":
        tap = legs.get("tap", {})
        if tap.get("queries_max") is None or tap["queries_max"] > row["max_queries"]:
            missed.append(f"a tap ran {tap.get('queries_max')} queries > {row['max_queries']}")
    if kind == "poll":
        one = legs.get("1 change")
        if one is None:
            missed.append("no poll carried exactly one change")
        elif one["bytes_max"] > row["max_bytes"]:
            missed.append(f"a poll of one change {one['bytes_max']:,} bytes > "
                          f"{row['max_bytes']:,}")  # fmt: skip
    if kind == "idle":
        if row["queries_max"] is None or row["queries_max"] > row["max_queries"]:
            missed.append(f"an idle poll ran {row['queries_max']} queries > {row['max_queries']}")
        if set(row["statuses"]) - {"204"} or row["bytes_max"]:
            missed.append(f"an idle poll was answered {row['statuses']}, up to "
                          f"{row['bytes_max']} bytes")  # fmt: skip
    return missed


def ratios(ceiling: dict, row: dict) -> dict:
    """The row's requests per second and p95 as multiples of the ceiling's."""
    rps = row["rps"] / ceiling["rps"] if ceiling["rps"] else None
    p95 = row["p95_ms"] / ceiling["p95_ms"] if row["p95_ms"] and ceiling["p95_ms"] else None
    return {"ratio": None if rps is None else round(rps, 3),
            "p95_vs_ceiling": None if p95 is None else round(p95, 2)}  # fmt: skip


def _cell(value, spec: str, width: int) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}{spec}}"


def line(name: str, row: dict, ceiling: dict, verdict: str, *, leg: bool = False) -> str:
    """One row of the table; a leg (one request of a pair, a kind of request of the night)
    shows its latencies, queries and size, not a rate of its own."""
    rates = ratios(ceiling, row)
    kb = None if row["bytes"] is None else row["bytes"] / 1000
    queries = None if row["queries"] is None else f"{row['queries']}/{row['queries_max']}"
    return (
        f"{name:<30}"
        + _cell(None if leg else row["rps"], ".0f", 7)
        + _cell(row["p50_ms"], ".1f", 8)
        + _cell(row["p95_ms"], ".1f", 8)
        + _cell(None if leg else rates["ratio"], ".3f", 7)
        + _cell(rates["p95_vs_ceiling"], ".1f", 7)
        + _cell(queries, "", 8)
        + _cell(kb, ".1f", 7)
        + f"  {verdict}"
    ).rstrip()


HEADER = (f"{'row':<30}{'req/s':>7}{'p50 ms':>8}{'p95 ms':>8}{'ratio':>7}{'p95 x':>7}"
          f"{'queries':>8}{'KB':>7}  verdict")  # fmt: skip


def table(rows: list[dict]) -> tuple[list[str], list[str]]:
    """The table's lines and the missed targets, ``rows[0]`` being the ceiling. Each row gets
    ``ratio``, ``p95_vs_ceiling`` and ``missed`` (the JSON carries them)."""
    ceiling = rows[0]
    lines, failures = [HEADER], []
    for row in rows:
        missed = verdicts(ceiling, row) if row is not ceiling else []
        row.update(ratios(ceiling, row), missed=missed)
        failures += [f"{row['name']}: {m}" for m in missed]
        judged = row is not ceiling and row.get("kind") in JUDGED
        lines.append(line(row["name"], row, ceiling,
                          ("; ".join(missed) or "ok") if judged else "-"))  # fmt: skip
        legs = row.get("legs", {})
        if len(legs) > 1:
            lines += [line(f"  {n}", leg, ceiling, "", leg=True) for n, leg in legs.items()]
    return lines, failures


def rss_failures(rss: list[float]) -> list[str]:
    return [f"peak RSS {mb} MB >= {MAX_RSS_MB} MB" for mb in rss if mb >= MAX_RSS_MB]


# What ``compare`` sets side by side: (key, heading, format, higher is better).
COMPARED = (("rps", "req/s", ".0f", True), ("p95_ms", "p95 ms", ".1f", False),
            ("bytes", "KB", ".1f", False), ("queries_max", "queries", "", False))  # fmt: skip
NOISE_MS = 1.0  # a p95 this much apart or less is the same, whatever the ratio


def worse(key: str, small, big, higher: bool) -> bool:
    """Whether ``big`` (the larger league's figure) is more than ``WORSE`` worse than
    ``small``."""
    if small is None or big is None:
        return False
    if key == "p95_ms" and big - small <= NOISE_MS:
        return False
    return small > big * (1 + WORSE) if higher else big > small * (1 + WORSE)


def compare(small: list[dict], big: list[dict], scale: int) -> tuple[list[str], list[str]]:
    """The rows of two runs side by side (1x, then ``scale``x), each figure that is more than
    ``WORSE`` worse at ``scale``x marked with "!"; the lines and the flags. Paced rows' rates
    are the scene's, not compared; nor is the ceiling's, which the league does not touch."""
    by_name = {row["name"]: row for row in big}
    head = f"{'row':<30}" + "".join(f"{f'{h} 1x':>11}{f'{scale}x':>8} " for _, h, _, _ in COMPARED)
    lines, flags = [head.rstrip()], []
    for row in small:
        other = by_name.get(row["name"])
        if other is None:
            continue
        cells = []
        for key, heading, spec, higher in COMPARED:
            a, b = row.get(key), other.get(key)
            if key == "bytes":
                a, b = (None if x is None else x / 1000 for x in (a, b))
            judged = row.get("kind") in JUDGED and not (key == "rps" and row["kind"] in PACED)
            bad = judged and worse(key, a, b, higher)
            if bad:
                flags.append(f"{row['name']}: {heading} {a:{spec}} at 1x, {b:{spec}} at "
                             f"{scale}x")  # fmt: skip
            cells.append(_cell(a, spec, 11) + _cell(b, spec, 8) + ("!" if bad else " "))
        lines.append(f"{row['name']:<30}" + "".join(cells).rstrip())
    return lines, flags
