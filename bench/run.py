"""`make bench`: the league, the real stack under load, the targets.

1. Database: ``DATABASE_URL`` if set, else an embedded PostgreSQL in ``.bench-pgdata/`` (kept
   between runs; ``BENCH_FRESH=1`` or ``make bench-clean`` starts over). The league of
   bench/generate.py is built once (a few minutes) and kept as a template; every run starts
   from a fresh copy of it, migrated (bench/snapshot.py), so no run measures the writes of the
   runs before it. A kept league that leaves nothing open to play is built afresh.
2. gunicorn with 2 sync workers (DEBUG off, whitenoise, ``MORDHEIM_BENCH=1`` for the
   ``X-Queries`` header) on 127.0.0.1:8765.
3. bench/load.py in a separate process runs bench/plan.py's rows at a fixed concurrency: the
   ceiling (``/healthz``), every main page, every main write, then the league night.
4. Peak RSS of each worker (VmHWM), the rules engine and the services sequence.

Each of these at every scale of ``BENCH_SCALE`` (``1,10``: the league, then one ten times
its size, built in bulk from it by bench/scale.py and kept as a template of its own). Prints a
table per scale and the scales side by side (bench/report.py), and writes
``bench-results.json``; lists every missed target, and every row more than 20% worse at 10x
than at 1x, and exits 1 when there is one. Settings: BENCH_SCALE (1,10), BENCH_CONCURRENCY
(4), BENCH_DURATION (10 s per row), BENCH_NIGHT (20 s of league night), BENCH_PORT (8765).
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import plan, report  # run as a script: the project is put on the path above

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PORT = int(os.environ.get("BENCH_PORT", "8765"))
CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "4"))
DURATION = float(os.environ.get("BENCH_DURATION", "10"))
NIGHT = float(os.environ.get("BENCH_NIGHT", "20"))
SCALES = [int(x) for x in os.environ.get("BENCH_SCALE", "1,10").split(",") if x.strip()]
PGDATA = ROOT / ".bench-pgdata"
RESULTS = ROOT / "bench-results.json"
TMP = ROOT / ".bench-tmp"
# What the league leaves open for the load test (bench/generate.py): 8 players for each
# write, 80 battles of pending injury rolls (16 each), 4 sequences per player for the night.
BUILD = {"writers": 8, "rolls": 80, "night": 4, "helper": True}


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="core.settings",
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
        STATIC_ROOT=str(TMP / "static"),
    )
    if "DATABASE_URL" not in env:
        env["MORDHEIM_PGDATA"] = str(PGDATA)
    return env


def snapshot(env, what: str, scale: int = 1) -> bool:
    """``restore`` or ``keep`` the league of ``scale`` (bench/snapshot.py), in a process of
    its own."""
    code = f"import bench.boot\nfrom bench import snapshot\nprint(snapshot.{what}({scale}))"
    done = subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, check=True,
                          stdout=subprocess.PIPE, text=True)  # fmt: skip
    return done.stdout.strip().splitlines()[-1] == "True"


def describe(env) -> dict:
    """The kept league's description, or the league built now (its progress shown as it
    comes; the last line describes it)."""
    code = (
        "import json\nimport bench.boot\n"
        "from dataclasses import asdict\n"
        "from campaign.models import Campaign\n"
        "from bench.generate import generate, league_of\n"
        "c = Campaign.objects.filter(name='The Benchmark League').first()\n"
        "from bench.game import helper_of, start_helper_game\n"
        "if c is None:\n"
        "    print('Building the league (40 warbands, 300 battles)', flush=True)\n"
        "elif helper_of(c, '') is None:  # kept by a bench older than the helper's rows\n"
        "    start_helper_game(c)\n"
        f"league = league_of(c) if c else generate(progress=lambda m: print(m, flush=True), "
        f"**{BUILD!r})\n"
        "print('LEAGUE ' + json.dumps(asdict(league)))\n"
    )
    with subprocess.Popen(
        [PYTHON, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    ) as generator:
        for line in generator.stdout:
            if line.startswith("LEAGUE "):
                return json.loads(line[len("LEAGUE ") :])
            print(line, end="", flush=True)
    raise RuntimeError("the league generator did not report")


def prepare(env, *, again: bool = True) -> dict:
    """Start from the kept league (embedded database only), migrate, build the league unless
    it is there, collect static files; the league's description."""
    embedded = "DATABASE_URL" not in env
    if os.environ.get("BENCH_FRESH") == "1" and embedded and again:
        shutil.rmtree(PGDATA, ignore_errors=True)
    kept = embedded and snapshot(env, "restore")
    if kept:
        print("The league as it was built (bench/snapshot.py): earlier runs' writes are gone.")
    elif not embedded:
        print("DATABASE_URL: the league keeps every run's writes (bench/snapshot.py).")
    migrate(env)
    started = time.perf_counter()
    league = describe(env)
    if not kept:
        print(f"The league was ready in {time.perf_counter() - started:.0f} s.")
    if not (league["rolls"] and league["step8"] and league["buyers"]):
        if not (embedded and again):
            raise RuntimeError("The league has nothing left open to play: build it afresh.")
        # Kept by an older bench that left none of it open: the server has stopped with the
        # last process using it, so its folder can go.
        print("The kept league leaves nothing open to play: building it afresh.")
        shutil.rmtree(PGDATA, ignore_errors=True)
        return prepare(env, again=False)
    if embedded and not kept:
        snapshot(env, "keep")  # from now on every run starts from this league
    return league


def migrate(env) -> None:
    manage = [PYTHON, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)


def prepare_scaled(env, scale: int) -> dict:
    """The league ``scale`` times the size, from its kept template, or built now in bulk from
    the league (bench/scale.py) and kept; its description."""
    if "DATABASE_URL" in env:
        raise RuntimeError(f"BENCH_SCALE {scale}: only on the benchmark's embedded database.")
    if snapshot(env, "restore", scale):
        print(f"The {scale}x league as it was built (bench/snapshot.py).")
        migrate(env)
        return describe(env)
    prepare(env)  # the working database is now a fresh copy of the 1x league
    print(f"Building the {scale}x league in bulk from it (bench/scale.py)", flush=True)
    code = (
        "import bench.boot\nfrom campaign.models import Campaign\n"
        "from bench.scale import multiply\n"
        "c = Campaign.objects.get(name='The Benchmark League')\n"
        f"print('BUILT', multiply(c, {scale}, progress=lambda m: print(m, flush=True)))\n"
    )
    started = time.perf_counter()
    subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, check=True)
    snapshot(env, "keep", scale)
    print(f"The {scale}x league was built and kept in {time.perf_counter() - started:.0f} s.")
    return describe(env)


def start_gunicorn(env) -> subprocess.Popen:
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "core.wsgi", "--bind", f"127.0.0.1:{PORT}",
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


def load(rows: list[dict], password: str, concurrency: int) -> list[dict]:
    TMP.mkdir(exist_ok=True)
    spec, out = TMP / "plan.json", TMP / "results.json"
    spec.write_text(json.dumps(rows))
    command = [PYTHON, "-m", "bench.load", "--host", "127.0.0.1", "--port", str(PORT),
               "--plan", str(spec), "--concurrency", str(concurrency), "--duration",
               str(DURATION), "--out", str(out), "--password", password]  # fmt: skip
    subprocess.run(command, cwd=ROOT, check=True)
    results = json.loads(out.read_text())
    kinds = plan.row_kinds(rows)
    for result in results:
        result.update(kinds[result["name"]])
    return results


def engine(env, league: dict) -> dict:
    code = (
        "import json, sys\nimport bench.boot\n"
        "from bench.engine import rules_rate, services_sequence\n"
        "from bench.generate import League\n"
        "league = League(**json.loads(sys.stdin.read()))\n"
        "print('ENGINE ' + json.dumps({'rules': rules_rate(), "
        "'services': services_sequence(league)}))\n"
    )
    done = subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, check=True, text=True,
                          input=json.dumps(league), stdout=subprocess.PIPE)  # fmt: skip
    line = next(x for x in done.stdout.splitlines() if x.startswith("ENGINE "))
    return json.loads(line[len("ENGINE ") :])


def measure(env, scale: int) -> dict:
    """One scale's run: the league, gunicorn under the plan's load, the peak RSS, the
    engine; prints its table and returns what bench-results.json keeps of it."""
    league = prepare(env) if scale == 1 else prepare_scaled(env, scale)
    writers = plan.smallest_pool(league)
    if writers < CONCURRENCY:
        print(f"BENCH_CONCURRENCY {CONCURRENCY} > {writers} players per write: some writing "
              "clients share a player (and wait for its rows' locks).")  # fmt: skip
    rows = plan.plan(league, night_duration=NIGHT)
    server = start_gunicorn(env)
    try:
        print(f"\nThe {scale}x league under load:", flush=True)
        results = load(rows, league["password"], CONCURRENCY)
        rss = [peak_rss_mb(pid) for pid in workers(server)]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    sequence = engine(env, league)

    print(f"\n{scale}x league. Concurrency {CONCURRENCY}, {DURATION:g} s per row and {NIGHT:g} s "
          "of league night, gunicorn 2 workers, DEBUG off\n")  # fmt: skip
    lines, failures = report.table(results)
    print("\n".join(lines))
    for row in results:
        if row["notes"].get("ran out"):
            print(f"{row['name']}: every pending roll was used after {row['requests']} "
                  "measured requests; measured until then.")  # fmt: skip
    night = results[-1]["notes"]
    print(
        f"\nLeague night: {night.get('passes', 0)} passes, "
        f"{night.get('sequences played (steps 1-2)', 0)} sequences played through steps 1-2."
    )
    print(f"Peak RSS per worker: {', '.join(f'{mb} MB' for mb in rss)}")
    failures += report.rss_failures(rss)
    rules, services = sequence["rules"], sequence["services"]
    print(f"Rules engine: {rules['per_second']} full post-battle sequences/s "
          f"({rules['ms_each']} ms each, 15 models, scripted dice)")  # fmt: skip
    print(f"Services: steps 1-10 for a {services['models']}-model warband in {services['ms']} ms "
          f"of service calls (runs {services['ms_runs']}, {services['queries']} queries; "
          f"{services['ms_with_player']} ms with the scripted player's own reads)")  # fmt: skip
    return {"rows": results, "worker_peak_rss_mb": rss, "rules_engine": rules,
            "services_sequence": services,
            "missed": [f"{scale}x: {failure}" for failure in failures]}  # fmt: skip


def main() -> int:
    env = environment()
    runs = {scale: measure(env, scale) for scale in SCALES}
    failures = [failure for run in runs.values() for failure in run["missed"]]
    worse = []
    if 1 in runs and len(runs) > 1:
        big = max(runs)
        lines, worse = report.compare(runs[1]["rows"], runs[big]["rows"], big)
        print(f"\nThe league at 1x and {big}x side by side (! more than "
              f"{report.WORSE:.0%} worse at {big}x)\n")  # fmt: skip
        print("\n".join(lines))
    RESULTS.write_text(json.dumps({
        "concurrency": CONCURRENCY, "duration_s": DURATION, "night_s": NIGHT,
        "scales": {str(scale): run for scale, run in runs.items()},
        "worse_at_scale": worse, "missed": failures,
    }, indent=2))  # fmt: skip
    print(f"\nWritten to {RESULTS.name}.")
    for failure in failures:
        print(f"MISSED: {failure}")
    for flag in worse:
        print(f"WORSE: {flag}")
    return 1 if failures or worse else 0


if __name__ == "__main__":
    sys.exit(main())
