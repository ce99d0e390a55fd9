"""Login required everywhere, answered in a way htmx understands; no answer kept by a cache
unless its view says it may be; no control character or over-long value let in."""

import re

from django.contrib.auth import middleware as auth_middleware
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import render, resolve_url
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect


class LoginRequiredMiddleware(auth_middleware.LoginRequiredMiddleware):
    """Django's LoginRequiredMiddleware: every view needs a login unless it is decorated with
    ``@login_not_required``, so a new view is private by default.

    Two changes to Django's own:
    - a view marked ``@login_not_required`` is let through before ``request.user`` is looked at,
      so such views (``/healthz``) never load a session or a user from the database;
    - an htmx request is not answered with a 302 (the browser would follow it and swap the login
      form into some fragment) but with ``HX-Redirect``, so the whole page goes to the login page
      with ``?next=`` pointing at the page the user was on.
    """

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(view_func, "login_required", True):
            return None
        return super().process_view(request, view_func, view_args, view_kwargs)

    def handle_no_permission(self, request, view_func):
        if getattr(request, "htmx", False):
            current = request.htmx.current_url_abs_path or request.get_full_path()
            login_url = resolve_url(self.get_login_url(view_func))
            return HttpResponseClientRedirect(redirect_to_login(current, login_url)["Location"])
        return super().handle_no_permission(request, view_func)


class PrivateAnswersMiddleware:
    """Every answer the app's views give is ``Cache-Control: private, no-store`` unless the view
    set a ``Cache-Control`` of its own, and every one varies on ``Cookie`` and ``HX-Request``.

    Nearly every page and partial shows something that belongs to the user who asked: a
    treasury, a post-battle step, a roster with its containers, a dashboard, a form with its
    one-time token. Marking them one by one would be forgotten on the next view, so the rule is
    here, for all of them: no browser history, shared proxy or page cache may keep an answer.
    A view that chooses otherwise sets its own header (``@cache_control(max_age=...)`` for an
    answer that may be kept, ``@never_cache``), and this leaves it alone. The ``Vary`` headers
    go on every answer, the views' own choices included, so that whatever does keep an answer
    keeps it per session cookie and apart from its htmx partial. Static files never reach it:
    whitenoise answers them first.

    It sits high in ``MIDDLEWARE`` so that it also marks what the layers under it answer
    without a view: ``core.once``'s replay of a form posted twice, the CSRF refusal, the log-in
    redirect and axes' lockout page.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "private, no-store"
        patch_vary_headers(response, ("Cookie", "HX-Request"))
        return response


# Characters no address of the app holds: the C0 controls (NUL among them, which PostgreSQL
# refuses in text), DEL and the C1 controls. A form's text may also hold a tab, a newline and
# a carriage return (a textarea's lines), and nothing else of them.
CONTROL_IN_ADDRESS = re.compile("[\x00-\x1f\x7f-\x9f]")
CONTROL_IN_FORM = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# What browsers and proxies keep of an address; no page of the app needs a tenth of it.
LONGEST_ADDRESS = 2_000
# The longest text a form takes: the D100 random fortune table, a hundred lines of a range,
# a result and a kind, stays under 25,000 characters.
LONGEST_VALUE = 30_000
# The one form that takes a file: a warband file to import (``warbands.transfer``), whose form
# refuses what it cannot read, with its message beside the field.
FILE_FORM = re.compile(r"^/campaigns/[0-9]+/import/$")


def bad_input(request) -> str:
    """Why the request cannot be read as the app's forms and links are, or "": a control
    character or an over-long value in the address, a query parameter or a form field, or a
    file (no form of the app takes one)."""
    address = len(request.path) + len(request.META.get("QUERY_STRING", ""))
    if address > LONGEST_ADDRESS:
        return (
            f"The address is {address:,} characters long; no page of this site needs more than "
            f"{LONGEST_ADDRESS:,}. Check the link."
        )
    if CONTROL_IN_ADDRESS.search(request.path):
        return (
            "The address holds an invisible control character, so it leads nowhere. Check the link."
        )
    problem = _fields(request.GET, CONTROL_IN_ADDRESS, "The address")
    if problem or request.method != "POST":
        return problem
    if request.FILES and not FILE_FORM.match(request.path):
        return "This site takes no files: send the form without one."
    return _fields(request.POST, CONTROL_IN_FORM, "The form")


def _fields(data, control: re.Pattern, where: str) -> str:
    for name, values in data.lists():
        label = "a field" if control.search(name) else f"“{name[:40]}”"
        for value in [name, *values]:
            if len(value) > LONGEST_VALUE:
                return (
                    f"{where} sent {len(value):,} characters in {label}; no field of this site "
                    f"takes more than {LONGEST_VALUE:,}. Shorten it and send it again."
                )
            if control.search(value):
                return (
                    f"{where} sent an invisible control character (such as a NUL byte) in "
                    f"{label}, which no field of this site takes. Type the text again rather "
                    "than pasting it, and send it again."
                )
    return ""


class BadInputMiddleware:
    """Refuses, before any view reads it, what no form or link of the app sends: a control
    character or an over-long value in the address, a query parameter or a posted field, and
    a file (``bad_input``). The answer is a 400 in the app's layout with the reason in
    ``[data-refusal]``, which ``static/js/app.js`` shows when an htmx request is refused; no
    view runs, so nothing changes.

    One rule for the whole app, so that no view, form, database lookup or stored answer
    (``core.once``) ever meets a NUL, which PostgreSQL refuses in text. Wrong types (a word
    where a number goes, a unicode digit, a number out of range) are each form's to refuse,
    with its message beside the field. It sits after the session and the user are known (the
    refusal page shows the user's menu) and before the log-in check and ``core.once``."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        reason = bad_input(request)
        if reason:
            return render(request, "400.html", {"reason": reason}, status=400)
        return self.get_response(request)
