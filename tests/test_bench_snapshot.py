"""bench/snapshot.py: every benchmark run starts from the league as it was built, on a real
embedded PostgreSQL of its own (not the test database, which ``restore`` would drop)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import bench.boot
from django.db import connection
from bench import snapshot

def rows():
    with connection.cursor() as cursor:
        cursor.execute("SELECT note FROM league ORDER BY note")
        return [note for (note,) in cursor.fetchall()]

assert snapshot.restore() is False  # nothing kept yet: the database stays as it is
with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE league (note text)")
    cursor.execute("INSERT INTO league VALUES ('built')")
snapshot.keep()
with connection.cursor() as cursor:
    cursor.execute("INSERT INTO league VALUES ('a run wrote this')")
assert rows() == ["a run wrote this", "built"]
assert snapshot.restore() is True
assert rows() == ["built"]
# The league ten times the size: kept beside it, from a copy of it.
assert snapshot.restore(10) is False
with connection.cursor() as cursor:
    cursor.execute("INSERT INTO league VALUES ('ten times')")
snapshot.keep(10)
assert snapshot.restore(1) is True and rows() == ["built"]
assert snapshot.restore(10) is True
print(rows())
"""


def test_a_run_starts_from_the_league_as_it_was_kept_at_each_scale(tmp_path):
    env = {**os.environ, "MORDHEIM_PGDATA": str(tmp_path / "pg"),
           "DJANGO_SETTINGS_MODULE": "core.settings", "PYTHONPATH": str(ROOT)}  # fmt: skip
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "['built', 'ten times']"
