"""The suite's database backend: Django's PostgreSQL backend, with a cheaper way to empty it.

pytest-django empties the database after every transactional test (the race harness, the
browser tests) with Django's ``flush``, which PostgreSQL's backend does with one ``TRUNCATE``
of every table. TRUNCATE gives each table, index and TOAST table a new file, so on a database
of about sixty tables it costs close to a second even when they are empty; the suite has
about two hundred such tests. Deleting the rows costs a few milliseconds on the small tables a
test leaves behind, and the warband lists are not deleted at all (``KEPT_TABLES``), so they
need not be put back before the next test.

The ledger's append-only trigger (``warbands`` migration 0007) refuses DELETE, as it should
for the app; the flush runs with ``session_replication_role = replica``, which skips user
triggers and the foreign keys' own checks (every row goes, so nothing dangles). Setting it
takes a superuser, which the embedded server's user is; on a server where the suite's user is
not one, the flush is Django's TRUNCATE as before. The test databases are copies of one migrated
template (``tests.postgresql.creation``). Everything else is Django's backend,
subclassed as its documentation describes ("Subclassing the built-in database backends").
"""

from django.db.backends.postgresql import base, operations

from tests.postgresql.creation import DatabaseCreation

#: Tables the flush leaves as they are: the warband lists, the content types and the
#: permissions (``tests/conftest.py`` names them), which the migrations load and no test may
#: change. The ``reference_data`` fixture checks that every transactional test leaves them as
#: it found them.
KEPT_TABLES: set[str] = set()


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not tables or not self.connection.is_superuser():
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        tables = [table for table in tables if table not in KEPT_TABLES]
        sql = ["SET LOCAL session_replication_role = replica;"]
        sql += [f"DELETE FROM {self.quote_name(table)};" for table in tables]
        if reset_sequences:
            with self.connection.cursor() as cursor:
                introspection = self.connection.introspection
                sequences = [s for t in tables for s in introspection.get_sequences(cursor, t)]
            sql += self.sequence_reset_by_name_sql(style, sequences)
        sql.append("SET LOCAL session_replication_role = DEFAULT;")
        return sql


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
    creation_class = DatabaseCreation

    _superuser: bool | None = None

    def is_superuser(self) -> bool:
        """Whether the suite's user may set ``session_replication_role`` (asked once)."""
        if self._superuser is None:
            with self.cursor() as cursor:
                cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                row = cursor.fetchone()
            DatabaseWrapper._superuser = bool(row and row[0])
        return self._superuser
