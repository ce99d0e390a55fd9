"""One-time form tokens: a form posted twice applies once.

Every form of ours carries ``{% form_token %}``, a fresh UUID each time the form is drawn.
``OnceMiddleware`` runs a logged-in user's POST that carries one inside a transaction that
ends by inserting the token (``FormToken``, unique) together with the view's answer. The first
request with the token commits; a second one (a double click, a re-sent request) finds the
token taken when it comes to insert it (if the first has not committed yet, the insert waits
for it), so its transaction is rolled back, with whatever its view changed, and it gets the
stored answer instead. Two tabs hold two tokens: the second is refused by the view itself (a
finished step, an item already bought), which each post-battle and treasury service checks
under a row lock.

The token goes in last rather than first: one write instead of two on every post. A
duplicate runs its view before it is undone; duplicates are rare, and nothing of it
survives: what its view wrote to the database goes with the rollback, and its session, where
the messages it added live (saved after this middleware, outside the transaction), is not
saved at all. The session stays as the first post left it, with one "Warband renamed.",
whether the duplicate came after the first or at the same moment (putting back what the
duplicate had read would overwrite the first's message when both read the session before
either saved it).

Storing the answer cannot fail on what the answer holds: its content is kept as the bytes
that were sent (``bytea``), and the text of the path and the kept headers has any NUL, the one
character PostgreSQL refuses in text, replaced by U+FFFD. A form that echoes what it was sent
(a NUL, invalid UTF-8) is kept and replayed as it was drawn.

Why every post and not only some: the race harness (``tests/race``, each post with a fresh
token, as two tabs send them) passes whole with this middleware taken out, so no raced post
needs it to stay correct: the services lock what they consume and refuse what is done. What
only the token stops is the same form sent twice (a double click, a re-sent request) of an
action that may rightly be made twice: a second 1 gc move, a second hire, a second line in
the helper's log. Nothing tells those apart from a second tab's post but the token, and most
of the site's forms are such actions, so it stays on every post.

A view that fails (an answer of 500 or more) has its transaction rolled back and its token is
not kept, so nothing half-done stays and the same form can be sent again. Log-in, log-out and
sign-up are left alone (their answers set cookies that a replay would not carry), as are posts
without a token (nothing is lost: the services still lock and check), and posts refused before
the view (CSRF, log-in): they take no token. Tokens older than a week are pruned now and then.
"""

from __future__ import annotations

import datetime
import uuid

from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import timezone

from core.models import FormToken

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
SECRET_ANSWER = "once_secret"  # an attribute a view sets on an answer not to be kept
KEEP = datetime.timedelta(days=7)


def new_token() -> str:
    return str(uuid.uuid4())


def _token(request) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get(FIELD, ""))
    except (ValueError, AttributeError):
        return None


def _replay(earlier: FormToken) -> HttpResponse:
    response = HttpResponse(bytes(earlier.content), status=earlier.status or 200)
    for name, value in earlier.headers.items():
        response[name] = value
    response["X-Replayed"] = "1"
    return response


class _Taken(Exception):
    """The token was stored by an earlier post of the same form: this one is undone."""


def store_token(token: uuid.UUID, user, path: str, response) -> None:
    """Insert the token with ``response``'s status, content and kept headers, as the last
    write of the post's transaction. A token stored already makes the insert fail
    (``IntegrityError``: the unique constraint; a concurrent insert of the same token waits
    for the first to commit or roll back), and the caller then rolls the whole transaction
    back, so no savepoint is needed. A streamed answer is not kept, nor one its view marked
    ``SECRET_ANSWER`` (a one-time password reset link must not wait in the table for a week):
    status NULL, a replay answers 200, empty. About one insert in 200 (chosen by the random
    token itself) also deletes the tokens older than ``KEEP``.

    Called by ``OnceMiddleware``; public so that a test can store a token of its choosing
    (one that prunes, one that does not)."""
    if getattr(response, "streaming", False) or getattr(response, SECRET_ANSWER, False):
        status, content, headers = None, b"", {}
    else:
        status = response.status_code
        content = response.content
        headers = {name: _text(response[name]) for name in KEPT_HEADERS if name in response}
    if token.int % 200 == 0:
        FormToken.objects.filter(created_at__lt=timezone.now() - KEEP).delete()
    FormToken.objects.create(
        token=token, user=user, path=_text(path), status=status, content=content, headers=headers
    )


def _text(value: str) -> str:
    """``value`` as PostgreSQL keeps text: a NUL becomes U+FFFD (what a browser makes of it)."""
    return value.replace("\x00", "\ufffd")


class OnceMiddleware:
    """``__call__`` opens the transaction and inserts the token at its end; ``process_view``
    says that the view was reached. Django calls ``process_view`` only once the middleware
    before it let the request through: a POST that ``CsrfViewMiddleware`` refuses never reaches
    it and takes no token, so the same form sent again with a valid CSRF token (after the
    cookie was renewed) still goes ahead."""

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
        path = _text(request.path[:300])
        try:
            with transaction.atomic():
                request._once_token = token
                response = self.get_response(request)
                if not getattr(request, "_once_viewed", False):
                    return response
                if response.status_code >= 500:
                    transaction.set_rollback(True)  # nothing half-done stays; send it again
                    return response
                try:
                    store_token(token, request.user, path, response)
                except IntegrityError:
                    raise _Taken from None  # leaves the block: everything is rolled back
                return response
        except _Taken:
            request.session.modified = False  # its messages go with its rollback
        earlier = FormToken.objects.filter(token=token).first()
        if earlier is None or earlier.user_id != request.user.pk or earlier.path != path:
            return HttpResponse("That form was already used.", status=409)
        return _replay(earlier)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(request, "_once_token", None) is not None:
            request._once_viewed = True
        return None
