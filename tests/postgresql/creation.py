"""Test databases copied from one migrated template instead of each migrated from empty.

Migrating an empty database costs about half a minute of both processes (Django's and the
server's): the data migrations load the warband lists several times over. Each xdist worker
used to pay it for its own database. Now the first worker to get there migrates a template
database once, and every worker's database is a copy of it (``CREATE DATABASE ... TEMPLATE``,
a copy of the files, well under a second). Django then runs ``migrate`` on the copy as usual:
nothing is left to apply, so it only checks the plan and sends ``post_migrate``.

The template is named after a hash of what the migrations may build from
(``migration_inputs``): every module of the project's apps (not only those the migrations
import directly: a loader's own imports change what it loads), the other apps' migrations,
the data files the loaders read, and Django's version. It is kept on the server for the
next run while none of them changes; a changed input names another template, and the old
ones are dropped. Workers take turns through an advisory lock, so one migrates while the
other waits for the copy.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
from pathlib import Path

import django
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import DatabaseError
from django.db.backends.postgresql import creation
from django.db.migrations.loader import MigrationLoader

#: What the project's migrations read besides their own and the modules they import
#: (``warbands.reference`` loads the warband lists from these files).
READ_BY_MIGRATIONS = ("warbands/data",)
#: The advisory lock the workers take turns on (any number the suite uses for nothing else).
TEMPLATE_LOCK = 74_310_001


def migration_inputs() -> list[Path]:
    """The files a migrated database may depend on, in a stable order: every module of every
    installed app of the project (a data migration reaches the app's code through its
    imports, and their imports, to any depth: hashing all of it never misses one), the
    migrations of the apps outside it, and the data files the loaders read."""
    root = Path(settings.BASE_DIR)
    files: set[Path] = set()
    for app in apps.get_app_configs():
        folder = Path(app.path)
        if root in folder.parents:
            files |= set(folder.rglob("*.py"))
            continue
        module, _ = MigrationLoader.migrations_module(app.label)
        spec = _find(module) if module else None
        if spec is not None and spec.submodule_search_locations:
            files |= _module_files(spec)
    for folder in READ_BY_MIGRATIONS:
        files |= {path for path in (root / folder).rglob("*") if path.is_file()}
    return sorted(files)


def _find(name: str):
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def _module_files(spec) -> set[Path]:
    """Every module of a package."""
    return {p for folder in spec.submodule_search_locations for p in Path(folder).rglob("*.py")}


def template_name(database_name: str) -> str:
    digest = hashlib.sha256(django.get_version().encode())
    for path in migration_inputs():
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return f"test_{database_name}_template_{digest.hexdigest()[:16]}"


class DatabaseCreation(creation.DatabaseCreation):
    def _create_test_db(self, verbosity, autoclobber, keepdb=False):
        """The worker's test database, copied from the migrated template (built if missing).
        ``--reuse-db`` (keepdb) and a server where the suite may not create databases at will
        go Django's way."""
        if keepdb or not self.connection.is_superuser():
            return super()._create_test_db(verbosity, autoclobber, keepdb)
        name = self._get_test_db_name()
        with self._nodb_cursor() as cursor, self._template_lock(cursor):
            template = self._template(cursor, verbosity)
            cursor.execute(f"DROP DATABASE IF EXISTS {self._quote_name(name)}")
            cursor.execute(
                f"CREATE DATABASE {self._quote_name(name)} "
                f"{self._get_database_create_suffix(template=template)}"
            )
        return name

    def ensure_template(self) -> None:
        """Migrate the template now if it is missing (``tests.postgresql.prebuild``)."""
        if not self.connection.is_superuser():
            return
        with self._nodb_cursor() as cursor, self._template_lock(cursor):
            self._template(cursor, verbosity=0)

    def _template(self, cursor, verbosity: int) -> str:
        """The template's name, migrated first if it is missing (under ``_template_lock``)."""
        template = template_name(self.connection.settings_dict["NAME"])
        if not self._database_exists(cursor, template):
            self._build_template(cursor, template, verbosity)
        return template

    @contextlib.contextmanager
    def _template_lock(self, cursor):
        """The processes take turns on the template (``TEMPLATE_LOCK``)."""
        cursor.execute("SELECT pg_advisory_lock(%s)", [TEMPLATE_LOCK])
        try:
            yield
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [TEMPLATE_LOCK])

    def _build_template(self, cursor, template: str, verbosity: int) -> None:
        """Migrate an empty database under a name of its own, then give it the template's
        name: a run stopped halfway leaves no template that looks finished. Older
        templates of this server go."""
        building = f"{template}_building"
        if verbosity >= 1:
            self.log(f"Migrating the template test database {template}...")
        cursor.execute(f"DROP DATABASE IF EXISTS {self._quote_name(building)}")
        cursor.execute(f"CREATE DATABASE {self._quote_name(building)}")
        settings_dict = self.connection.settings_dict
        original = settings_dict["NAME"]
        self.connection.close()
        settings_dict["NAME"] = building
        try:
            call_command("migrate", verbosity=max(verbosity - 1, 0), interactive=False,
                         database=self.connection.alias, run_syncdb=True)  # fmt: skip
        finally:
            self.connection.close()
            settings_dict["NAME"] = original
        cursor.execute(
            f"ALTER DATABASE {self._quote_name(building)} RENAME TO {self._quote_name(template)}"
        )
        prefix = template.rsplit("_", 1)[0] + "_"
        cursor.execute(
            "SELECT datname FROM pg_database WHERE starts_with(datname, %s) AND datname <> %s",
            [prefix, template],
        )
        for (old,) in cursor.fetchall():
            with contextlib.suppress(DatabaseError):  # a run still copying from it keeps it
                cursor.execute(f"DROP DATABASE {self._quote_name(old)}")
