"""The suite's settings: the app's own (``core.settings``), on the suite's database backend
(``tests.postgresql``: Django's PostgreSQL backend with a flush that deletes rows instead of
truncating tables). Models read the backend while Django sets itself up, before any conftest
runs, so it is chosen here."""

from core.settings import *  # noqa: F403

DATABASES["default"]["ENGINE"] = "tests.postgresql"  # noqa: F405
