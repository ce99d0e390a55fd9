"""Where the database lives.

PostgreSQL only, never SQLite. ``DATABASE_URL`` wins when it is set. Without it an embedded
PostgreSQL 16 (the ``pgserver`` wheel) runs on a Unix socket inside a project-local data
folder, so ``manage.py``, the dev server, gunicorn and pytest all work on a machine with no
database installed. pytest-django creates its ``test_…`` databases on that same server (one per
xdist worker). Importing the settings starts nothing: the entry points call
``core.embedded.start_embedded``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url

#: Name of the database created on the embedded server (tests get ``test_mordheim``).
EMBEDDED_DATABASE_NAME = "mordheim"
#: Environment variable that moves the embedded server's data folder.
DATA_DIR_VARIABLE = "MORDHEIM_PGDATA"
#: Executions of one statement on a connection before psycopg prepares it on the server.
PREPARE_THRESHOLD = 5  # psycopg's own default
#: Seconds to wait for a remote server's connection (libpq's connect_timeout).
CONNECT_TIMEOUT = 5


def database_settings(
    environ: Mapping[str, str], *, default_data_dir: Path, prepared_statements: bool = True
) -> dict[str, Any]:
    """Return Django's ``DATABASES["default"]`` for this environment, starting nothing.

    ``DATABASE_URL`` set and non-empty: parse it. Otherwise the embedded server's settings,
    without its socket: ``core.embedded.start_embedded`` fills that in when an entry point
    starts the server.
    """
    url = environ.get("DATABASE_URL", "").strip()
    if url:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
        if config["ENGINE"] != "django.db.backends.postgresql":
            raise ValueError(f"DATABASE_URL must point to PostgreSQL, not {config['ENGINE']}")
        # A server that silently drops packets would hang a worker (and /readyz) for as long
        # as the network stack waits; ?connect_timeout= in the URL wins.
        config.setdefault("OPTIONS", {}).setdefault("connect_timeout", CONNECT_TIMEOUT)
        return _with_prepared_statements(config) if prepared_statements else config
    config = embedded_settings(host="", port="")
    # gunicorn's sync workers (make serve, make bench) serve one request at a time each: one
    # connection per worker, kept, saves a new server process per request (DB_CONN_MAX_AGE=60).
    config["CONN_MAX_AGE"] = int(environ.get("DB_CONN_MAX_AGE") or 0)
    config["CONN_HEALTH_CHECKS"] = config["CONN_MAX_AGE"] > 0
    return _with_prepared_statements(config) if prepared_statements else config


def embedded_data_dir(environ: Mapping[str, str], *, default_data_dir: Path) -> Path | None:
    """The embedded server's data folder (``$MORDHEIM_PGDATA`` or ``default_data_dir``), or
    None when ``DATABASE_URL`` names another server."""
    if environ.get("DATABASE_URL", "").strip():
        return None
    return Path(environ.get(DATA_DIR_VARIABLE) or default_data_dir)


def embedded_settings(*, host: str, port: str) -> dict[str, Any]:
    """Django settings for the embedded server's database at ``host`` (its socket folder)."""
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": EMBEDDED_DATABASE_NAME,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": host,
        "PORT": port,
        # The dev server's threads would each pin a connection: new ones per request, unless
        # DB_CONN_MAX_AGE says otherwise (see database_settings).
        "CONN_MAX_AGE": 0,
    }


def _with_prepared_statements(config: dict[str, Any]) -> dict[str, Any]:
    """Server-side parameter binding, and a statement run ``PREPARE_THRESHOLD`` times on a
    connection is prepared there: PostgreSQL then plans it once per connection instead of on
    every execution, and planning the joins of a page's reads costs it more than running them.
    psycopg prepares only with server-side binding; Django's default is client-side binding,
    which cannot (``tests/core/test_database.py`` checks that statements do get prepared).

    ``DB_PREPARED_STATEMENTS=0`` (``prepared_statements=False``, read by the settings) keeps
    Django's default, for a pooler that cannot keep prepared statements (PgBouncer in
    transaction mode before 1.21)."""
    options = config.setdefault("OPTIONS", {})
    options.setdefault("server_side_binding", True)
    options.setdefault("prepare_threshold", PREPARE_THRESHOLD)
    return config


def default_data_dir(base_dir: Path) -> Path:
    """The project-local, git-ignored folder of the embedded server."""
    return base_dir / ".pgdata"
