"""The suite's settings: the app's own (``core.settings``), on the suite's database backend
(``tests.postgresql``: Django's PostgreSQL backend with a flush that deletes rows instead of
truncating tables). Models read the backend while Django sets itself up, before any conftest
runs, so it is chosen here.

The suite's connections commit without waiting for the disk (``synchronous_commit=off``): a
commit then costs about half a millisecond instead of four on this kind of machine, and the
transactional tests (the race harness, the browser tests, the backups) commit every row their
factories write. A crash of the server could lose the last commits of a test database that is
thrown away anyway; the app's own settings keep PostgreSQL's default.

They bind parameters on the server as the app's do (what PostgreSQL accepts of a parameter's
type is what the suite checks), but prepare nothing: a worker's one connection runs thousands of
different statements over the suite, psycopg keeps the last 100 prepared, and preparing and
evicting them made the database tests about 7% slower (33.5 s against 31.5 s for five modules
of tests/battles and tests/warbands, one process). ``tests/core/test_database.py`` prepares with
the app's threshold on purpose."""

from core.settings import *  # noqa: F403

DATABASES["default"]["ENGINE"] = "tests.postgresql"  # noqa: F405
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405
DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None  # noqa: F405
