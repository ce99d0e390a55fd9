"""Django's database sessions, read with one hand-written statement.

Every logged-in request reads its session row. Django's ``SessionStore`` reads it through the
ORM (``Session.objects.get(...)``), and building and compiling that query costs Django more
than PostgreSQL takes to answer it; the statement here is the same SELECT, written once
(issue 10: the write floor). Writing, creating and deleting sessions are Django's own.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class _Row:
    __slots__ = ("session_data",)

    def __init__(self, session_data: str) -> None:
        self.session_data = session_data


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        """As Django's: the live (unexpired) row of the session's key, or None (and the key
        forgotten). The key was checked when it was set (``SessionBase._validate_session_key``)."""
        model = self.model
        with connections[router.db_for_read(model)].cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {model._meta.db_table}"
                " WHERE session_key = %s AND expire_date > %s",
                [self.session_key, timezone.now()],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return _Row(row[0])
