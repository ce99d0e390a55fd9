"""One-time form tokens: a form posted twice applies once.

Every form of ours carries ``{% form_token %}``, a fresh UUID each time the form is drawn.
``OnceMiddleware`` runs a logged-in user's POST that carries one inside a transaction that
first inserts the token (``FormToken``, unique): the first request with it goes ahead and its
answer is stored with the token in the same transaction; a second one (a double click, a
re-sent request) finds the token taken (its insert does nothing), or waits on it until the first
commits, and gets the stored answer instead, without running the view. Two tabs hold two
tokens: the second is refused by the view itself (a finished step, an item already bought),
which each post-battle and treasury service checks under a row lock.

Log-in, log-out and sign-up are left alone (their answers set cookies that a replay would not
carry), as are posts without a token (nothing is lost: the services still lock and check).
Tokens older than a week are pruned now and then.
"""

from __future__ import annotations

import datetime
import uuid

from django.db import connection, transaction
from django.http import HttpResponse
from django.utils import timezone

from campaign.models import FormToken

FIELD = "form_token"
KEPT_HEADERS = (
    "Content-Type",
    "Location",
    "HX-Redirect",
    "HX-Refresh",
    "HX-Trigger",
    "HX-Reswap",
    "HX-Retarget",
)
NOT_FOR = ("/accounts/",)
KEEP = datetime.timedelta(days=7)


def new_token() -> str:
    return str(uuid.uuid4())


def _token(request) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get(FIELD, ""))
    except (ValueError, AttributeError):
        return None


def _replay(earlier: FormToken) -> HttpResponse:
    response = HttpResponse(earlier.content, status=earlier.status or 200)
    for name, value in earlier.headers.items():
        response[name] = value
    response["X-Replayed"] = "1"
    return response


def _claim(token: uuid.UUID, user, path: str) -> FormToken | None:
    """Insert the token, or None if it is there already (``ON CONFLICT DO NOTHING``: no
    savepoint needed; a concurrent insert of the same token waits for the first to commit).
    About one claim in 200 (chosen by the random token itself) also deletes the tokens older
    than ``KEEP``, in the same statement."""
    created = timezone.now()
    table = FormToken._meta.db_table
    purge, params = "", [token, user.pk, path, created]
    if token.int % 200 == 0:
        purge = f"WITH purge AS (DELETE FROM {table} WHERE created_at < %s) "
        params = [created - KEEP, *params]
    with connection.cursor() as cursor:
        cursor.execute(
            f"{purge}INSERT INTO {table} "
            "(token, user_id, path, status, content, headers, created_at) "
            "VALUES (%s, %s, %s, NULL, '', '{}', %s) ON CONFLICT (token) DO NOTHING RETURNING id",
            params,
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return FormToken(pk=row[0], token=token, user=user, path=path, created_at=created)


class OnceMiddleware:
    """``__call__`` opens the transaction; ``process_view`` claims the token inside it. Django
    calls ``process_view`` only once the middleware before it let the request through: a POST
    that ``CsrfViewMiddleware`` refuses never reaches it and takes no token, so the same form
    sent again with a valid CSRF token (after the cookie was renewed) still goes ahead."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method != "POST"
            or request.path.startswith(NOT_FOR)
            or not request.user.is_authenticated
        ):
            return self.get_response(request)
        token = _token(request)
        if token is None:
            return self.get_response(request)
        with transaction.atomic():
            request._once_token = token
            response = self.get_response(request)
            record = getattr(request, "_once_claimed", None)
            if record is None or getattr(response, "streaming", False):
                return response
            record.status = response.status_code
            record.content = response.content.decode(response.charset or "utf-8", "replace")
            record.headers = {name: response[name] for name in KEPT_HEADERS if name in response}
            record.save(update_fields=["status", "content", "headers"])
            return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        token = getattr(request, "_once_token", None)
        if token is None:
            return None
        record = _claim(token, request.user, request.path[:300])
        if record is not None:
            request._once_claimed = record
            return None
        earlier = FormToken.objects.filter(token=token).first()
        if (
            earlier is None
            or earlier.user_id != request.user.pk
            or earlier.path != request.path[:300]
        ):
            return HttpResponse("That form was already used.", status=409)
        return _replay(earlier)
