"""Migrate the suite's template database in a process of its own, while the workers start.

With two or more xdist workers, the controlling process only hands out tests. It starts this
module (``tests/conftest.py``) as soon as it is configured; the workers spend their first
seconds starting Python and collecting the tests, and by the time the first of them asks for
its database the template is being migrated, or is there (``tests.postgresql.creation``: the
workers wait on the same advisory lock, then copy it). Without it, one worker migrated the
template only after its collection, and the other waited, idle, for the whole migration:
about six seconds of both on a fresh clone, or after any change of the code the template
is named after. Nothing depends on it: a worker that finds the template missing (this
process failed, or lost the race to the lock) migrates it itself, and reports any error.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import warnings
from typing import IO

import django
from django.conf import settings
from django.db import connection

from core.embedded import database_exists, maintenance_connection, start_embedded
from tests.postgresql.creation import template_name


def start(config) -> tuple[subprocess.Popen, IO[bytes]] | None:
    """In the controlling process of a run on xdist workers, start this module (and where its
    errors go) if the template is missing; else None. ``--reuse-db`` keeps the workers'
    databases and needs no template."""
    workers = config.getoption("numprocesses", None) and not hasattr(config, "workerinput")
    if not workers or config.getoption("reuse_db", False) or config.option.collectonly:
        return None
    database = settings.DATABASES["default"]
    with maintenance_connection(database) as server:
        if database_exists(server, template_name(database["NAME"])):
            return None
    errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by ``finish``)
    command = [sys.executable, "-m", __name__]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors), errors


def finish(started: tuple[subprocess.Popen, IO[bytes]] | None) -> None:
    """Wait for what ``start`` started; a failure is a warning (the workers migrated the
    template themselves, and failed on their own if they could not)."""
    if started is None:
        return
    process, errors = started
    with errors:
        process.wait()
        errors.seek(0)
        said = errors.read().decode(errors="replace").strip()
    if process.returncode:
        warnings.warn(f"migrating the template ahead failed: {said[-2000:]}", stacklevel=1)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    django.setup()
    start_embedded(settings)
    connection.creation.ensure_template()
    connection.close()


if __name__ == "__main__":
    main()
