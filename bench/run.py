"""`make bench`: the league, the real stack under load, the targets.

1. Database: ``DATABASE_URL`` if set, else an embedded PostgreSQL in ``.bench-pgdata/`` (kept
   between runs; ``BENCH_FRESH=1`` or ``make bench-clean`` starts over). The league of
   bench/generate.py is built once (about five minutes) and kept as a template; every run
   starts from a fresh copy of it, migrated (bench/snapshot.py), so no run measures the
   writes of the runs before it.
2. gunicorn with 2 sync workers (DEBUG off, whitenoise, ``MORDHEIM_BENCH=1`` for the
   ``X-Queries`` header) on 127.0.0.1:8765.
3. bench/load.py in a separate process, logged in as the league's player, at a fixed
   concurrency: ``/healthz`` first (the ceiling: no session, no query) and then every page,
   twice: as served (repeated views come from the page cache, ``campaign.pagecache``) and
   drawn afresh with ``Cache-Control: no-cache`` (shown for information, not judged), and the
   write floor: a logged-in htmx POST that does nothing (``/bench/write-floor``: session, user,
   CSRF, one-time token), the fastest any write can be in this stack, and the move floor: the
   same plus a move of gold in two hand-written statements (``/bench/move-floor/<warband>/``:
   no form, no rules, no template), the fastest any move can be (both shown, not judged; each
   write's share of the write floor is printed under the table).
4. Peak RSS of each worker (VmHWM), the rules engine and the services sequence.

Prints a table and writes ``bench-results.json``; exits 1 when a target is missed.
Settings: BENCH_CONCURRENCY (4), BENCH_DURATION (10 s per page), BENCH_PORT (8765).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PORT = int(os.environ.get("BENCH_PORT", "8765"))
CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "4"))
DURATION = float(os.environ.get("BENCH_DURATION", "10"))
PGDATA = ROOT / ".bench-pgdata"
LEAGUE_FILE = "bench-league.json"  # inside PGDATA's parent: which ids the league has
RESULTS = ROOT / "bench-results.json"

# Targets of issue 10.
MIN_RATIO = 0.30  # of the ceiling's requests per second
MAX_P95 = 5.0  # times the ceiling's p95
MAX_QUERIES = 12
MAX_RSS_MB = 150
MAX_SEQUENCE_MS = 200
DRAWN = "(drawn)"
FLOOR = "write floor (no-op POST)"
MOVE_FLOOR = "move floor (bare SQL)"
NOT_JUDGED = (FLOOR, MOVE_FLOOR)


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="campaign.settings",
        DEBUG="0",
        SECURE_COOKIES="0",
        SECURE_HSTS_SECONDS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        MORDHEIM_BENCH="1",
        LOG_LEVEL="ERROR",
        AXES_FAILURE_LIMIT="1000",
        # As make serve: each sync worker keeps its database connection.
        DB_CONN_MAX_AGE=env.get("DB_CONN_MAX_AGE", "60"),
        # Its own collected static files: staticfiles/ stays as the developer left it.
        STATIC_ROOT=str(ROOT / ".bench-tmp" / "static"),
    )
    if "DATABASE_URL" not in env:
        env["MORDHEIM_PGDATA"] = str(PGDATA)
    return env


def snapshot(env, what: str) -> bool:
    """``restore`` or ``keep`` the league (bench/snapshot.py), in a process of its own."""
    code = f"import django; django.setup()\nfrom bench import snapshot\nprint(snapshot.{what}())"
    done = subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, check=True,
                          stdout=subprocess.PIPE, text=True)  # fmt: skip
    return done.stdout.strip().splitlines()[-1] == "True"


def prepare(env) -> dict:
    """Start from the kept league (embedded database only), migrate, build the league unless
    it is there, collect static files; the league's ids."""
    embedded = "DATABASE_URL" not in env
    if os.environ.get("BENCH_FRESH") == "1" and embedded:
        shutil.rmtree(PGDATA, ignore_errors=True)
    kept = embedded and snapshot(env, "restore")
    if kept:
        print("The league as it was built (bench/snapshot.py): earlier runs' writes are gone.")
    elif not embedded:
        print("DATABASE_URL: the league keeps every run's writes (bench/snapshot.py).")
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    code = (
        "import django, json; django.setup()\n"
        "from dataclasses import asdict\n"
        "from campaign.models import Campaign\n"
        "from bench.generate import generate, league_of\n"
        "c = Campaign.objects.filter(name='The Benchmark League').first()\n"
        "if c is None:\n"
        "    print('Building the league (40 warbands, 300 battles; 75 s)', flush=True)\n"
        "league = league_of(c) if c else generate(progress=lambda m: print(m, flush=True))\n"
        "print('LEAGUE ' + json.dumps(asdict(league)))\n"
    )
    # Its progress is shown as it comes; the last line describes the league.
    with subprocess.Popen(
        [PYTHON, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    ) as generator:
        for line in generator.stdout:
            if line.startswith("LEAGUE "):
                league = json.loads(line[len("LEAGUE ") :])
                break
            print(line, end="", flush=True)
        else:
            raise RuntimeError("the league generator did not report")
    if embedded and not kept:
        # From now on every run starts from this league. One built before the snapshots
        # carries the writes of the runs it served: `make bench-clean` builds it afresh.
        snapshot(env, "keep")
    return league


def start_gunicorn(env) -> subprocess.Popen:
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "campaign.wsgi", "--bind", f"127.0.0.1:{PORT}",
         "--workers", "2", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    for _ in range(100):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("gunicorn did not answer /healthz")


def workers(server: subprocess.Popen) -> list[int]:
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    return [int(pid) for pid in children]


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def targets(league: dict) -> list[dict]:
    w, c, b, s = (
        league["warband_id"],
        league["campaign_id"],
        league["battle_id"],
        league["sequence_id"],
    )
    a, z = league["move"]

    def move(source, target) -> dict:
        # 1 gc one way, then back: the balances stay put however long the run.
        return {"source": str(source), "target": str(target), "gold": "1", "wyrdstone": "0",
                "form_token": "{token}"}  # fmt: skip

    moves = [move(a, z), move(z, a)]
    pages = [
        {"name": "dashboard", "method": "GET", "path": "/"},
        {"name": "roster", "method": "GET", "path": f"/warbands/{w}/"},
        {"name": "treasury", "method": "GET", "path": f"/warbands/{w}/treasury/"},
        {"name": "league table", "method": "GET", "path": f"/campaigns/{c}/"},
        {"name": "campaign feed", "method": "GET", "path": f"/campaigns/{c}/feed/"},
        {"name": "battle", "method": "GET", "path": f"/battles/{b}/"},
    ]
    # The same pages drawn afresh every time (a browser's hard reload skips the page cache):
    # what a page costs the first time it is seen after a change. Shown, not judged.
    drawn = [
        dict(page, name=f"{page['name']} {DRAWN}", headers={"Cache-Control": "no-cache"})
        for page in pages
    ]
    writes = [
        {
            "name": FLOOR,
            "method": "POST",
            "path": "/bench/write-floor",
            "bodies": [{"form_token": "{token}"}],
            "htmx": True,
        },
        {
            # The least a move can cost: the floor plus two hand-written statements.
            "name": MOVE_FLOOR,
            "method": "POST",
            "path": f"/bench/move-floor/{w}/",
            "bodies": moves,
            "htmx": True,
        },
        {
            "name": "treasury move (htmx)",
            "method": "POST",
            "path": f"/warbands/{w}/treasury/move/",
            "bodies": moves,
            "htmx": True,
        },
        {
            "name": "step 9 POST (htmx)",
            "method": "POST",
            "path": f"/sequences/{s}/act/",
            "bodies": [dict(m, step="9", action="move") for m in moves],
            "htmx": True,
        },
    ]
    return pages + drawn + writes  # fmt: skip


def load(league: dict, pages: list[dict], out: Path) -> list[dict]:
    spec = out.with_suffix(".targets.json")
    spec.write_text(json.dumps(pages))
    command = [PYTHON, str(ROOT / "bench" / "load.py"), "--host", "127.0.0.1", "--port", str(PORT),
               "--targets", str(spec), "--concurrency", str(CONCURRENCY), "--duration",
               str(DURATION), "--out", str(out)]  # fmt: skip
    if league:
        command += ["--username", league["player"], "--password", league["password"]]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    methods = {page["name"]: page["method"] for page in pages}
    return [
        dict(result, method=methods.get(result["name"])) for result in json.loads(out.read_text())
    ]


def engine(env, league: dict) -> dict:
    code = (
        "import django, json; django.setup()\n"
        "from bench.engine import rules_rate, services_sequence\n"
        "from bench.generate import League\n"
        f"league = League(**json.loads({json.dumps(json.dumps(league))}))\n"
        "print('ENGINE ' + json.dumps({'rules': rules_rate(), "
        "'services': services_sequence(league)}))\n"
    )
    done = subprocess.run(
        [PYTHON, "-c", code], cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("ENGINE "))
    return json.loads(line[len("ENGINE ") :])


def verdicts(ceiling: dict, page: dict) -> list[str]:
    missed = []
    if page["rps"] < MIN_RATIO * ceiling["rps"]:
        missed.append(f"rps {page['rps']:.0f} < {MIN_RATIO:.0%} of {ceiling['rps']:.0f}")
    if page["p95_ms"] > MAX_P95 * ceiling["p95_ms"]:
        missed.append(f"p95 {page['p95_ms']:.1f} ms > {MAX_P95:g} x {ceiling['p95_ms']:.1f} ms")
    if page["queries"] is None or page["queries_max"] > MAX_QUERIES:
        missed.append(f"queries {page['queries_max']} > {MAX_QUERIES}")
    if page["errors"]:
        missed.append(f"{page['errors']} errors {page['statuses']}")
    return missed


def against_floor(pages: list[dict]) -> dict[str, float]:
    """Each write's requests per second as a share of the write floor's (a logged-in POST
    that does nothing): how close a write comes to the fastest any write can be here. The
    ceiling's 30% target is measured against ``/healthz``, which reads no session and writes
    nothing; this says how much of a write's cost is its own work."""
    floor = next((page for page in pages if page["name"] == FLOOR), None)
    if floor is None or not floor["rps"]:
        return {}
    return {
        page["name"]: page["rps"] / floor["rps"]
        for page in pages
        if page["name"] != FLOOR and page.get("method") == "POST"
    }


def main() -> int:
    env = environment()
    league = prepare(env)
    league["password"] = "bench-password-1"
    server = start_gunicorn(env)
    tmp = ROOT / ".bench-tmp"
    tmp.mkdir(exist_ok=True)
    try:
        ceiling = load({}, [{"name": "/healthz (ceiling)", "method": "GET", "path": "/healthz"}],
                       tmp / "ceiling.json")[0]  # fmt: skip
        pages = load(league, targets(league), tmp / "pages.json")
        rss = {pid: peak_rss_mb(pid) for pid in workers(server)}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    sequence = engine(env, {k: v for k, v in league.items() if k != "password"})

    failures = []
    print(f"\nConcurrency {CONCURRENCY}, {DURATION:g} s per page, gunicorn 2 workers, DEBUG off\n")
    print(f"{'page':<24}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'ratio':>7}{'p95 x':>7}"
          f"{'queries':>9}  verdict")  # fmt: skip
    rows = [ceiling, *pages]
    for page in rows:
        ratio = page["rps"] / ceiling["rps"]
        slower = page["p95_ms"] / ceiling["p95_ms"]
        judged = (
            page is not ceiling
            and not page["name"].endswith(DRAWN)
            and page["name"] not in NOT_JUDGED
        )
        missed = verdicts(ceiling, page) if judged else []
        failures += [f"{page['name']}: {m}" for m in missed]
        page.update(ratio=round(ratio, 3), p95_vs_ceiling=round(slower, 2), missed=missed)
        print(f"{page['name']:<24}{page['rps']:>8.0f}{page['p50_ms']:>9.1f}{page['p95_ms']:>9.1f}"
              f"{ratio:>7.2f}{slower:>7.2f}{page['queries']!s:>9}  "
              f"{'ok' if judged and not missed else '; '.join(missed) or '-'}")  # fmt: skip
    shares = against_floor(pages)
    if shares:
        floor = next(page for page in pages if page["name"] == FLOOR)
        print(f"\nWrites against the write floor ({floor['rps']:.0f} req/s, "
              f"{floor['rps'] / ceiling['rps']:.2f} of the ceiling): "
              + ", ".join(f"{name} {share:.2f}" for name, share in shares.items()))  # fmt: skip
        for page in pages:
            share = shares.get(page["name"])
            page["ratio_to_floor"] = None if share is None else round(share, 3)
    peak = max(rss.values())
    print(f"\nPeak RSS per worker: {', '.join(f'{v} MB' for v in rss.values())}")
    if peak >= MAX_RSS_MB:
        failures.append(f"peak RSS {peak} MB >= {MAX_RSS_MB} MB")
    rules, services = sequence["rules"], sequence["services"]
    print(f"Rules engine: {rules['per_second']} full post-battle sequences/s "
          f"({rules['ms_each']} ms each, 15 models, scripted dice)")  # fmt: skip
    print(f"Services: steps 1-10 for a {services['models']}-model warband in {services['ms']} ms "
          f"of service calls (runs {services['ms_runs']}, {services['queries']} queries; "
          f"{services['ms_with_player']} ms with the scripted player's own reads)")  # fmt: skip
    if services["ms"] >= MAX_SEQUENCE_MS:
        failures.append(f"services sequence {services['ms']} ms >= {MAX_SEQUENCE_MS} ms")
    RESULTS.write_text(json.dumps({
        "concurrency": CONCURRENCY, "duration_s": DURATION, "pages": rows,
        "worker_peak_rss_mb": list(rss.values()), "rules_engine": rules,
        "services_sequence": services, "missed": failures,
    }, indent=2))  # fmt: skip
    print(f"\nWritten to {RESULTS.name}.")
    for failure in failures:
        print(f"MISSED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
