"""Where the database lives.

PostgreSQL only, never SQLite. ``DATABASE_URL`` wins when it is set. Without it an embedded
PostgreSQL 16 (the ``pgserver`` wheel) is started on a Unix socket inside a project-local data
folder, so ``manage.py``, the dev server, gunicorn and pytest all work on a machine with no
database installed. pytest-django creates its ``test_…`` database on that same server.

The embedded server is shared by every process that uses the same data folder and stops when
the last of them exits (pgserver keeps a reference list of process ids in the folder).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import signal
import threading
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url

#: Name of the database created on the embedded server (tests get ``test_mordheim``).
EMBEDDED_DATABASE_NAME = "mordheim"
#: Environment variable that moves the embedded server's data folder.
DATA_DIR_VARIABLE = "MORDHEIM_PGDATA"
#: How long a process stopped by SIGTERM waits for its children to exit first.
CHILDREN_EXIT_SECONDS = 10
#: Executions of one statement on a connection before psycopg prepares it on the server.
PREPARE_THRESHOLD = 5  # psycopg's own default

_STOPPING = False  # a SIGTERM is being handled (_raise_system_exit)
_SWEPT_AT_EXIT: set[Path] = set()  # data folders whose list is swept when this process exits


def database_settings(
    environ: Mapping[str, str], *, default_data_dir: Path, prepared_statements: bool = True
) -> dict[str, Any]:
    """Return Django's ``DATABASES["default"]`` for this environment.

    ``DATABASE_URL`` set and non-empty: parse it. Otherwise start (or join) the embedded server
    whose data folder is ``$MORDHEIM_PGDATA`` or ``default_data_dir``.
    """
    url = environ.get("DATABASE_URL", "").strip()
    if url:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
        if config["ENGINE"] != "django.db.backends.postgresql":
            raise ValueError(f"DATABASE_URL must point to PostgreSQL, not {config['ENGINE']}")
        return _with_prepared_statements(config) if prepared_statements else config
    data_dir = Path(environ.get(DATA_DIR_VARIABLE) or default_data_dir)
    config = start_embedded_postgres(data_dir)
    # gunicorn's sync workers (make serve, make bench) serve one request at a time each: one
    # connection per worker, kept, saves a new server process per request (DB_CONN_MAX_AGE=60).
    config["CONN_MAX_AGE"] = int(environ.get("DB_CONN_MAX_AGE") or 0)
    config["CONN_HEALTH_CHECKS"] = config["CONN_MAX_AGE"] > 0
    return _with_prepared_statements(config) if prepared_statements else config


def _with_prepared_statements(config: dict[str, Any]) -> dict[str, Any]:
    """Server-side parameter binding, and a statement run ``PREPARE_THRESHOLD`` times on a
    connection is prepared there: PostgreSQL then plans it once per connection instead of on
    every execution, and planning the joins of a page's reads costs it more than running them.
    psycopg prepares only with server-side binding; Django's default is client-side binding,
    which cannot (``tests/campaign/test_database.py`` checks that statements do get prepared).

    ``DB_PREPARED_STATEMENTS=0`` (``prepared_statements=False``, read by the settings) keeps
    Django's default, for a pooler that cannot keep prepared statements (PgBouncer in
    transaction mode before 1.21)."""
    options = config.setdefault("OPTIONS", {})
    options.setdefault("server_side_binding", True)
    options.setdefault("prepare_threshold", PREPARE_THRESHOLD)
    return config


def start_embedded_postgres(data_dir: Path) -> dict[str, Any]:
    """Start or join the embedded PostgreSQL in ``data_dir``; return Django settings for it."""
    import psycopg

    with warnings.catch_warnings():
        # platformdirs warns that XDG_RUNTIME_DIR is unset (normal on servers and in CI);
        # pgserver then keeps its lock file under /tmp, which is what we want.
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
        import pgserver  # imported here: a DATABASE_URL deployment never needs it

        data_dir = data_dir.expanduser().resolve()
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        _forget_dead_processes(data_dir)
        server = pgserver.get_server(data_dir, cleanup_mode="stop")
        if data_dir not in _SWEPT_AT_EXIT:  # runs before pgserver's stop (atexit is LIFO)
            _SWEPT_AT_EXIT.add(data_dir)
            atexit.register(_forget_dead_processes, data_dir, repair=False)
    _exit_cleanly_on_sigterm()
    info = server.get_postmaster_info()
    host = str(info.socket_dir) if info.socket_dir else (info.hostname or "127.0.0.1")
    config = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": EMBEDDED_DATABASE_NAME,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": host,
        "PORT": str(info.port or ""),
        # The dev server's threads would each pin a connection: new ones per request, unless
        # DB_CONN_MAX_AGE says otherwise (see database_settings).
        "CONN_MAX_AGE": 0,
    }
    with maintenance_connection(config) as connection:
        if not database_exists(connection, EMBEDDED_DATABASE_NAME):
            # Two processes starting together (gunicorn workers) may race to create it.
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                connection.execute(f'CREATE DATABASE "{EMBEDDED_DATABASE_NAME}"')
    return config


def maintenance_connection(config: Mapping[str, Any]):
    """A connection to the server's ``postgres`` database, outside any transaction (to create,
    copy or drop databases), with the credentials of Django settings ``config``."""
    import psycopg

    return psycopg.connect(
        dbname="postgres", user=config["USER"], password=config["PASSWORD"] or None,
        host=config["HOST"] or None, port=config["PORT"] or None, autocommit=True,
    )  # fmt: skip


def database_exists(connection, name: str) -> bool:
    """The server of ``connection`` (a psycopg connection) has a database called ``name``."""
    found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    return found.fetchone() is not None


def _forget_dead_processes(data_dir: Path, *, repair: bool = True) -> None:
    """Drop processes that died without saying goodbye from pgserver's list of users.

    pgserver stops the server when the last process on its list exits, but a process killed by
    SIGKILL, or gone with ``os._exit`` (the dev server's child when its port is taken), never
    takes itself off the list, and then nobody would stop the server. Done when a process
    joins the server and again when it exits, just before pgserver's own exit looks whether it
    is the last. A process killed while writing the list may leave it empty or cut short,
    which pgserver itself cannot read: with ``repair`` (on joining) that is written back as
    the list of the live ones (none known); on exit such a list is left alone, since whoever
    was on it is unknown and stopping the server under them would be worse.
    """
    import psutil
    from pgserver.postgres_server import PostgresServer

    pid_file = data_dir / ".handle_pids.json"
    if not pid_file.exists():
        return
    with PostgresServer._lock:
        text = pid_file.read_text()
        try:
            pids = json.loads(text)
        except json.JSONDecodeError:
            pids = None
        if not isinstance(pids, list):
            if repair:
                pid_file.write_text("[]")
            return
        alive = [pid for pid in pids if psutil.pid_exists(pid)]
        if alive != pids:
            pid_file.write_text(json.dumps(alive))


def _exit_cleanly_on_sigterm() -> None:
    """Turn SIGTERM into SystemExit so that atexit handlers (pgserver's stop) run.

    Only where nobody else handles SIGTERM (manage.py commands); gunicorn installs its own
    handlers, which shut workers down gracefully already, and those are left alone. The dev
    server's reloader would replace it with Django's: ``campaign``'s ``runserver`` puts it back
    (``exit_cleanly_on_sigterm``).
    """
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        exit_cleanly_on_sigterm()


def exit_cleanly_on_sigterm() -> None:
    """From now on SIGTERM lets this process's children exit, then raises SystemExit."""
    signal.signal(signal.SIGTERM, _raise_system_exit)


def _raise_system_exit(signum: int, frame: object) -> None:
    """Exit as after Ctrl-C, but first let this process's children exit on their own.

    ``make run``'s dev server is a reloader process and its child (``subprocess.run``), both on
    pgserver's list. On an exception other than KeyboardInterrupt, ``subprocess.run`` SIGKILLs
    the child at once: killed before its own exit, it stayed on the list (or was cut off while
    writing it), and the server ran on. So the children are sent SIGTERM (harmless if the whole
    process group got it already) and awaited, a few seconds at most; a second SIGTERM to this
    process is ignored from here on, so it cannot cut pgserver's stop short.
    """
    import psutil

    global _STOPPING
    if _STOPPING:  # a second SIGTERM that came before the line below: already on our way out
        return
    _STOPPING = True
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    children = psutil.Process().children()
    for child in children:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.terminate()
    psutil.wait_procs(children, timeout=CHILDREN_EXIT_SECONDS)
    raise SystemExit(128 + signum)


def default_data_dir(base_dir: Path) -> Path:
    """The project-local, git-ignored folder of the embedded server."""
    return base_dir / ".pgdata"
