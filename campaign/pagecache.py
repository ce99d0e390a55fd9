"""Whole pages served again, without running the view, while nothing in the database changed.

A page marked ``@page_cached`` is stored after it is drawn, under a key made of the database's
snapshot (``pg_current_snapshot()``), the session and CSRF cookies, the path with its query
string and the request's htmx headers. A later request is answered from the store only when
all of these are the same.

Why this is correct (no invalidation to forget): a PostgreSQL snapshot lists which transactions
are finished. Any write anywhere (a ledger entry, a step, a log-out deleting the session row,
a password change, an organiser's edit in the admin) assigns a transaction id and changes
every snapshot taken after it. The same snapshot therefore means the same data, so the same
user, with the same rights, sees the same page. The key is taken before the view reads
anything: a page that a concurrent write made newer is stored under the older key, which no
request asks for once that write is visible. The cost of a hit is one query: the snapshot and,
in the same statement, the session row, which must still be there and unexpired (log-out deletes
it); no user lookup, since the unchanged snapshot proves the user row unchanged. On a miss the
session data read there is handed to the session, so drawing the page costs no extra query.

What else a page depends on, and how it is handled:
- the clock: entries live ``PAGE_CACHE_SECONDS`` (60 s), and a session past its expiry date
  is never served (checked on every hit);
- one-time form tokens (``campaign.once``): each hit gets fresh ones, so two tabs served the
  same page still hold different tokens;
- the CSRF token: masked anew for each page drawn, it stays valid for the same CSRF cookie,
  which is part of the key; a response that sets a cookie is never stored;
- messages: kept in the session, so showing one writes the session (a new snapshot);
- ``Cache-Control: no-cache`` (a browser's hard reload) draws the page afresh.

Only GET requests of a logged-in session that are not inside a transaction (a test's) and
answer 200 are stored. The store is the process's local memory (Django's ``locmem`` cache, in
``CACHES["pages"]``): nothing needs to be shared between workers, since a stale entry cannot
be served anywhere. A busy league writes often, and then pages are simply drawn again.
"""

from __future__ import annotations

import hashlib
import re
import uuid

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse
from django.utils import timezone

from campaign.once import FIELD

DATABASE_SESSIONS = ("campaign.sessions", "django.contrib.sessions.backends.db")
SECONDS = getattr(settings, "PAGE_CACHE_SECONDS", 60)
MAX_BYTES = 300_000  # with MAX_ENTRIES (150, settings.CACHES) at most 45 MB per worker
KEPT_HEADERS = (
    "Content-Type",
    "Content-Language",
    "Vary",
    "Cache-Control",
    "Content-Security-Policy",
    "X-Frame-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "HX-Trigger",
)
_TOKEN = re.compile(rf'(name="{FIELD}" value=")[0-9a-f-]{{36}}(")'.encode())


def page_cached(view):
    """Mark a GET view whose page may be served again while the database is unchanged."""
    view.page_cached = True
    return view


def snapshot_and_session(session_key: str) -> tuple[str, str | None]:
    """The database's snapshot, and in the same statement the session's data if the session
    is live (None: no such session, or expired). A miss hands that data to the session, so the
    page drawn next reads no session row of its own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_current_snapshot()::text, (SELECT session_data"
            f" FROM {Session._meta.db_table} WHERE session_key = %s AND expire_date > %s)",
            [session_key, timezone.now()],
        )
        return cursor.fetchone()


def _key(request, taken: str) -> str:
    parts = [
        taken,
        request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""),
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
        request.get_full_path(),
        *sorted(f"{k}={v}" for k, v in request.headers.items() if k.lower().startswith("hx-")),
    ]
    return "page:" + hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _fresh_tokens(content: bytes) -> bytes:
    return _TOKEN.sub(lambda m: m[1] + str(uuid.uuid4()).encode() + m[2], content)


def _eligible(request) -> bool:
    return (
        getattr(settings, "PAGE_CACHE", True)
        and settings.SESSION_ENGINE in DATABASE_SESSIONS
        and request.method == "GET"
        and settings.SESSION_COOKIE_NAME in request.COOKIES
        and "no-cache" not in request.headers.get("Cache-Control", "")
        and not connection.in_atomic_block
    )


class PageCacheMiddleware:
    """Between ``AuthenticationMiddleware`` and ``LoginRequiredMiddleware``: its
    ``process_view`` answers a hit before anything reads the session or the user."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.store = caches["pages"]

    def __call__(self, request):
        response = self.get_response(request)
        key = getattr(request, "_page_cache_key", None)
        if key is not None and self._storable(request, response):
            expiry = (request.session.get_expiry_date() - timezone.now()).total_seconds()
            if expiry > 1:
                headers = {h: response[h] for h in KEPT_HEADERS if h in response}
                entry = (response.status_code, headers, response.content)
                self.store.set(key, entry, min(SECONDS, int(expiry)))
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(view_func, "page_cached", False) or not _eligible(request):
            return None
        taken, data = snapshot_and_session(request.COOKIES[settings.SESSION_COOKIE_NAME])
        if data is None:
            return None  # no live session: the usual way (to the log-in page)
        key = _key(request, taken)
        entry = self.store.get(key)
        if entry is None:
            request._page_cache_key = key
            session = request.session
            if not hasattr(session, "_session_cache"):
                session._session_cache = session.decode(data)  # as SessionStore.load() would
            return None
        status, headers, content = entry
        response = HttpResponse(_fresh_tokens(content), status=status)
        for name, value in headers.items():
            response[name] = value
        response["X-Page-Cache"] = "hit"
        return response

    @staticmethod
    def _storable(request, response) -> bool:
        return (
            response.status_code == 200
            and not getattr(response, "streaming", False)
            and not response.cookies
            and len(response.content) <= MAX_BYTES
            and request.user.is_authenticated
        )
