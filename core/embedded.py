"""The embedded PostgreSQL (the ``pgserver`` wheel): started or joined by the entry points.

The server is shared by every process that uses the same data folder and stops when the last
of them exits (pgserver keeps a reference list of process ids in the folder).
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

import psutil
import psycopg

from core.database import EMBEDDED_DATABASE_NAME, embedded_settings

with warnings.catch_warnings():
    # platformdirs warns that XDG_RUNTIME_DIR is unset (normal on servers and in CI); pgserver
    # then keeps its lock file under /tmp, which is what we want.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
    import pgserver
    from pgserver.postgres_server import PostgresServer

#: How long a process stopped by SIGTERM waits for its children to exit first.
CHILDREN_EXIT_SECONDS = 10

_STOPPING = False  # a SIGTERM is being handled (_raise_system_exit)
_SWEPT_AT_EXIT: set[Path] = set()  # data folders whose list is swept when this process exits


def start_embedded(settings) -> None:
    """Start or join the embedded server that ``settings.EMBEDDED_DATABASE_DIR`` names (nothing
    when it is None) and point ``DATABASES["default"]`` at its socket.

    Called by the entry points, before their first connection: ``manage.py``, ``core.wsgi``
    and the test setup (``tests/conftest.py``). Django reads a connection's settings from that
    same dictionary when it opens the connection."""
    data_dir = getattr(settings, "EMBEDDED_DATABASE_DIR", None)
    if data_dir is None:
        return
    started = start_embedded_postgres(Path(data_dir))
    settings.DATABASES["default"].update(HOST=started["HOST"], PORT=started["PORT"])


def start_embedded_postgres(data_dir: Path) -> dict[str, Any]:
    """Start or join the embedded PostgreSQL in ``data_dir``; return Django settings for it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")  # see the imports
        data_dir = data_dir.expanduser().resolve()
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        forget_dead_processes(data_dir)
        server = pgserver.get_server(data_dir, cleanup_mode="stop")
        if data_dir not in _SWEPT_AT_EXIT:  # runs before pgserver's stop (atexit is LIFO)
            _SWEPT_AT_EXIT.add(data_dir)
            atexit.register(forget_dead_processes, data_dir, repair=False)
    _exit_cleanly_on_sigterm()
    info = server.get_postmaster_info()
    host = str(info.socket_dir) if info.socket_dir else (info.hostname or "127.0.0.1")
    config = embedded_settings(host=host, port=str(info.port or ""))
    with maintenance_connection(config) as connection:
        if not database_exists(connection, EMBEDDED_DATABASE_NAME):
            # Two processes starting together (gunicorn workers) may race to create it.
            # PostgreSQL tells the loser DuplicateDatabase, or UniqueViolation when both
            # inserted into pg_database at the same moment.
            with contextlib.suppress(
                psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation
            ):
                connection.execute(f'CREATE DATABASE "{EMBEDDED_DATABASE_NAME}"')
    return config


def maintenance_connection(config: Mapping[str, Any]):
    """A connection to the server's ``postgres`` database, outside any transaction (to create,
    copy or drop databases), with the credentials of Django settings ``config``."""
    return psycopg.connect(
        dbname="postgres", user=config["USER"], password=config["PASSWORD"] or None,
        host=config["HOST"] or None, port=config["PORT"] or None, autocommit=True,
    )  # fmt: skip


def database_exists(connection, name: str) -> bool:
    """The server of ``connection`` (a psycopg connection) has a database called ``name``."""
    found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    return found.fetchone() is not None


def forget_dead_processes(data_dir: Path, *, repair: bool = True) -> None:
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
