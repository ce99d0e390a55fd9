"""Every benchmark run starts from the same league.

The load test writes: each run moves gold hundreds of times (ledger entries, step actions,
one-time tokens). Left in place, those writes would pile up run after run, and the league
measured would drift away from the one docs/benchmark.md describes (2,000 ledger entries per
warband) and from the previous run's. So, on the benchmark's own embedded database, the league
is kept as a template database (``mordheim_bench_league``) right after it is built, and each
run first recreates the working database from it (``CREATE DATABASE … TEMPLATE``, a file copy of
a second or two), then migrates it.

The league ten times the size (bench/scale.py) is kept beside it, as a template of its own
(``mordheim_bench_league_10x``): built from a copy of the first, then kept, and every 10x run
starts from a copy of it in the same way.

With ``DATABASE_URL`` nothing is dropped or copied: that database is not the benchmark's to
throw away, and runs accumulate their writes there (``bench/run.py`` says so).

Run inside a process with Django set up (``bench/run.py`` starts one).
"""

from __future__ import annotations

from django.conf import settings
from django.db import connections

from core.embedded import database_exists, maintenance_connection

TEMPLATE = "mordheim_bench_league"


def template(scale: int = 1) -> str:
    """The kept league of ``scale`` times the size."""
    return TEMPLATE if scale == 1 else f"{TEMPLATE}_{scale}x"


def restore(scale: int = 1) -> bool:
    """Recreate the working database from the kept league of ``scale``; False when none is
    kept yet."""
    name, kept = settings.DATABASES["default"]["NAME"], template(scale)
    connections.close_all()
    with maintenance_connection(settings.DATABASES["default"]) as admin:
        if not database_exists(admin, kept):
            return False
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{kept}" STRATEGY FILE_COPY')
    return True


def keep(scale: int = 1) -> None:
    """Keep the working database, the league just built, as the template of later runs:
    vacuumed and analysed first, so that every copy starts with the planner's statistics and
    a visibility map (the league is written in bulk, faster than autovacuum follows)."""
    name, kept = settings.DATABASES["default"]["NAME"], template(scale)
    with connections["default"].cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
    connections.close_all()
    with maintenance_connection(settings.DATABASES["default"]) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{kept}"')
        admin.execute(f'CREATE DATABASE "{kept}" TEMPLATE "{name}" STRATEGY FILE_COPY')
