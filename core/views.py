"""The pages of the infrastructure: liveness and readiness checks, sign-up, and the account's
choice of e-mails."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.db import DEFAULT_DB_ALIAS, connections
from django.db import Error as DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from core import notices
from core.forms import NoticeForm, SignUpForm
from core.offline import forget_offline_copies


@login_not_required
@require_GET
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness for load balancers: answers without touching the database or the session."""
    return JsonResponse({"status": "ok"})


@login_not_required
@require_GET
@never_cache
def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness for load balancers: ``SELECT 1`` on the database connection every page uses,
    503 when it fails (server down, refused, connection lost), so that traffic goes to hosts
    that can serve it. No session or user is read: only that one statement."""
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:  # django.db.Error: OperationalError, InterfaceError and the rest
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    return JsonResponse({"status": "ok"})


@login_not_required
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="core.auth.DemoPasswordRefusingBackend")
        messages.success(request, f"Welcome to Mordheim, {user.username}.")
        return forget_offline_copies(redirect(safe_next(request) or "dashboard"))
    # ``next`` goes on through the form (and the invitation of a join link is shown): a
    # visitor who came from a join link lands on it once signed up, and need not find it again.
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": safe_next(request)},
    )


def safe_next(request: HttpRequest) -> str:
    """``?next=`` when it leads to a page of this site (as Django's LoginView checks it), else
    "": a link to sign up must not send the new account on to another site."""
    target = request.GET.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


@require_http_methods(["GET", "POST"])
def notice_settings(request: HttpRequest) -> HttpResponse:
    """The user's own choice of e-mails (``core.notices``). The page names no account: it
    reads and writes only the one logged in, so it needs no other policy."""
    form = NoticeForm(
        request.POST or None,
        initial={"choice": notices.preference_of(request.user), "email": request.user.email},
    )
    if request.method == "POST" and form.is_valid():
        notices.set_preference(request.user, **form.cleaned_data)
        messages.success(request, "Your choice of e-mails is saved.")
        return redirect("notice_settings")
    return render(
        request,
        "registration/notice_settings.html",
        {"form": form},
        status=422 if form.errors else 200,
    )
