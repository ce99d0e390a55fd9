"""The function that decides where the database lives (core/database.py)."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pgserver
import psycopg
import pytest
from django.db import connection
from pgserver.utils import PostmasterInfo

from campaign.models import Campaign
from core.database import (
    CONNECT_TIMEOUT,
    EMBEDDED_DATABASE_NAME,
    PREPARE_THRESHOLD,
    database_settings,
    embedded_data_dir,
)
from core.embedded import forget_dead_processes, start_embedded, start_embedded_postgres

ROOT = Path(__file__).resolve().parents[2]


def test_database_url_is_used_when_set(tmp_path):
    default_dir = tmp_path / "embedded"

    config = database_settings(
        {"DATABASE_URL": "postgres://league:s%40cret@db.example.org:6543/mordheim_league"},
        default_data_dir=default_dir,
    )

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == (
        "mordheim_league",
        "league",
        "s@cret",
    )
    assert (config["HOST"], config["PORT"]) == ("db.example.org", 6543)
    assert config["OPTIONS"]["connect_timeout"] == CONNECT_TIMEOUT  # a dead server: no hang
    assert not default_dir.exists(), "the embedded server must not start when DATABASE_URL is set"


@pytest.mark.parametrize("prepared", [True, False])
def test_statements_are_prepared_unless_switched_off(tmp_path, prepared):
    environ = {"DATABASE_URL": "postgres://league@db.example.org/mordheim_league"}

    config = database_settings(environ, default_data_dir=tmp_path, prepared_statements=prepared)
    options = config.get("OPTIONS", {})

    if prepared:
        assert options == {
            "server_side_binding": True,
            "prepare_threshold": PREPARE_THRESHOLD,
            "connect_timeout": CONNECT_TIMEOUT,
        }
    else:  # Django's defaults: client-side binding, nothing prepared
        assert "server_side_binding" not in options and "prepare_threshold" not in options


@pytest.mark.parametrize(
    ("switch", "options"),
    [
        (None, f"True {PREPARE_THRESHOLD}"),
        ("1", f"True {PREPARE_THRESHOLD}"),
        ("0", "None None"),
        ("off", "None None"),
        ("of", "error"),
    ],
)
def test_the_settings_read_db_prepared_statements(switch, options):
    """``DB_PREPARED_STATEMENTS`` is a boolean as the other switches are (``env_bool``): a typo
    stops the start instead of being taken for either."""
    environ = {**os.environ, "DATABASE_URL": "postgres://league@db.example.org/mordheim_league"}
    environ.pop("DB_PREPARED_STATEMENTS", None)
    if switch is not None:
        environ["DB_PREPARED_STATEMENTS"] = switch
    code = (
        "import django; from django.conf import settings; o = settings.DATABASES['default']"
        ".get('OPTIONS', {}); print(o.get('server_side_binding'), o.get('prepare_threshold'))"
    )
    environ["DJANGO_SETTINGS_MODULE"] = "core.settings"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    if options == "error":
        assert done.returncode != 0 and "DB_PREPARED_STATEMENTS must be a boolean" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert done.stdout.split("\n")[-2] == options


@pytest.fixture
def app_threshold():
    """The live connection prepares as the app's settings say (the suite's own settings switch
    preparing off, ``tests/settings.py``); psycopg reads its threshold on every execution."""
    connection.ensure_connection()
    live = connection.connection
    suite_threshold = live.prepare_threshold
    live.prepare_threshold = PREPARE_THRESHOLD
    yield
    live.prepare_threshold = suite_threshold


@pytest.mark.django_db
def test_a_statement_run_again_is_prepared_on_the_server(app_threshold):
    """With the app's server-side binding (which the suite keeps) and threshold: after
    ``PREPARE_THRESHOLD`` runs PostgreSQL holds the statement prepared (and plans it no more)."""
    assert connection.settings_dict["OPTIONS"]["server_side_binding"] is True

    # a shape of statement no other test runs on this connection: seven ids
    ids = range(-424249, -424242)
    shape = '%"campaign_campaign"."id" IN (' + ", ".join(["$_"] * 7) + ")%"  # _: any one digit

    def prepared() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", [shape]
            )
            return cursor.fetchone()[0]

    def run() -> None:
        assert not Campaign.objects.filter(pk__in=ids).exists()

    for _ in range(PREPARE_THRESHOLD):
        run()
    assert prepared() == 0, "prepared too early"
    run()
    assert prepared() == 1


def test_database_url_must_be_postgresql(tmp_path):
    with pytest.raises(ValueError, match="PostgreSQL"):
        database_settings({"DATABASE_URL": "sqlite:///db.sqlite3"}, default_data_dir=tmp_path)


def test_embedded_server_starts_when_database_url_is_unset_or_empty(tmp_path):
    """Without DATABASE_URL the settings name the embedded server's folder (MORDHEIM_PGDATA)
    and start nothing; ``start_embedded`` starts a real PostgreSQL there, which answers."""
    default_dir = tmp_path / "default"
    chosen_dir = tmp_path / "chosen"
    environ = {"DATABASE_URL": "  ", "MORDHEIM_PGDATA": str(chosen_dir)}

    config = database_settings(environ, default_data_dir=default_dir)
    data_dir = embedded_data_dir(environ, default_data_dir=default_dir)
    assert data_dir == chosen_dir and not chosen_dir.exists(), "settings must start nothing"
    start_embedded(SimpleNamespace(EMBEDDED_DATABASE_DIR=data_dir, DATABASES={"default": config}))
    try:
        assert config["ENGINE"] == "django.db.backends.postgresql"
        assert config["NAME"] == EMBEDDED_DATABASE_NAME
        assert (chosen_dir / "PG_VERSION").exists()
        assert not default_dir.exists()
        with psycopg.connect(
            dbname=config["NAME"], user=config["USER"], host=config["HOST"], port=config["PORT"]
        ) as connection:
            database, version = connection.execute(
                "SELECT current_database(), current_setting('server_version_num')::int"
            ).fetchone()
        assert database == EMBEDDED_DATABASE_NAME
        assert version >= 160000
        # A new connection per request unless the worker keeps one (make serve, make bench).
        assert config["CONN_MAX_AGE"] == 0 and not config["CONN_HEALTH_CHECKS"]
        kept = database_settings(
            {"MORDHEIM_PGDATA": str(chosen_dir), "DB_CONN_MAX_AGE": "60"},
            default_data_dir=default_dir,
        )
        assert kept["CONN_MAX_AGE"] == 60 and kept["CONN_HEALTH_CHECKS"]
    finally:
        pgserver.get_server(chosen_dir).cleanup()


def test_importing_the_settings_starts_nothing(tmp_path):
    """No server, no folder, no signal handler: only the entry points start the database."""
    code = (
        "import signal, sys; from django.conf import settings; settings.DATABASES;"
        "print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, 'pgserver' in sys.modules,"
        " settings.EMBEDDED_DATABASE_DIR)"
    )
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "core.settings",
               "MORDHEIM_PGDATA": str(tmp_path / "pg")}  # fmt: skip
    environ.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", str(tmp_path / "pg")]
    assert not (tmp_path / "pg").exists()


def test_a_killed_process_does_not_keep_the_embedded_server_alive_forever(tmp_path):
    """pgserver stops the server with the last process that uses it; a process killed by
    SIGKILL never leaves that list, so the next process must forget it."""

    data_dir = tmp_path / "pg"
    starter = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time, pathlib;"
            "from core.embedded import start_embedded_postgres;"
            "start_embedded_postgres(pathlib.Path(sys.argv[1]));"
            "print('up', flush=True); time.sleep(60)",
            str(data_dir),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert starter.stdout.readline().strip() == "up"
    starter.send_signal(signal.SIGKILL)
    starter.wait()
    orphan = PostmasterInfo.read_from_pgdata(data_dir)
    assert orphan is not None and orphan.is_running()

    start_embedded_postgres(data_dir)
    pgserver.get_server(data_dir).cleanup()  # this process is the last user: the server stops

    orphan.process.wait(timeout=10)
    assert not orphan.is_running()


@pytest.mark.parametrize("signalled", ["group", "parent"])
def test_sigterm_stops_the_embedded_server_with_a_parent_and_its_child(tmp_path, signalled):
    """`make run`'s dev server is two processes on the server, the reloader and its child
    (``subprocess.run``). SIGTERM to both (``kill -- -PGID``) or to the parent alone: the
    parent lets the child leave pgserver's list before it leaves itself, and the last one out
    stops the server. Python's ``subprocess.run`` SIGKILLs the child on any other exception
    than Ctrl-C, which kept it on the list (or cut the list's file short) and the server ran on."""

    data_dir = tmp_path / "pg"
    start = (
        "import pathlib, sys, time; from core.embedded import start_embedded_postgres;"
        "start_embedded_postgres(pathlib.Path(sys.argv[1]));"
    )
    child = start + "print('up', flush=True); time.sleep(60)"
    parent = (
        start + f"import subprocess; subprocess.run([sys.executable, '-c', {child!r}, sys.argv[1]])"
    )
    reloader = subprocess.Popen(
        [sys.executable, "-c", parent, str(data_dir)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert reloader.stdout.readline().strip() == "up"
    server = PostmasterInfo.read_from_pgdata(data_dir)
    assert server is not None and server.is_running()
    assert len(json.loads((data_dir / ".handle_pids.json").read_text())) == 2

    try:
        if signalled == "group":
            os.killpg(reloader.pid, signal.SIGTERM)
        else:
            reloader.send_signal(signal.SIGTERM)
        assert reloader.wait(timeout=30) == 128 + signal.SIGTERM
        server.process.wait(timeout=10)
        assert json.loads((data_dir / ".handle_pids.json").read_text()) == []
    finally:
        if server.is_running():  # the failure above: no server left behind for the next test
            server.process.kill()


def test_a_child_gone_without_its_exit_does_not_keep_the_server_alive(tmp_path):
    """The dev server's child leaves with ``os._exit`` when its port is taken (no atexit, so it
    stays on pgserver's list): the parent, exiting after it, forgets it and stops the server."""

    data_dir = tmp_path / "pg"
    start = (
        "import os, pathlib, sys; from core.embedded import start_embedded_postgres;"
        "start_embedded_postgres(pathlib.Path(sys.argv[1]));"
    )
    child = start + "os._exit(1)"
    parent = (
        start
        + f"import subprocess; subprocess.run([sys.executable, '-c', {child!r}, sys.argv[1]]);"
        "print(open(sys.argv[1] + '/.handle_pids.json').read(), flush=True)"
    )
    reloader = subprocess.run(
        [sys.executable, "-c", parent, str(data_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert len(json.loads(reloader.stdout)) == 2  # the child never left the list itself
    server = PostmasterInfo.read_from_pgdata(data_dir)
    try:
        assert server is None or not server.is_running()
        assert json.loads((data_dir / ".handle_pids.json").read_text()) == []
    finally:
        if server is not None and server.is_running():
            server.process.kill()


@pytest.mark.parametrize("left", ["", "[12", "{}"])
def test_a_process_list_cut_short_by_a_kill_is_repaired(tmp_path, left):
    """Ctrl-C during `make run` can leave pgserver's list of processes empty or half
    written; pgserver cannot read that, so the next start would fail."""

    (tmp_path / ".handle_pids.json").write_text(left)
    forget_dead_processes(tmp_path)
    assert json.loads((tmp_path / ".handle_pids.json").read_text()) == []
