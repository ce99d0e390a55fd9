"""The pages of the infrastructure: health check and sign-up."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from core.forms import SignUpForm


@login_not_required
@require_GET
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness for load balancers: answers without touching the database or the session."""
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
        return redirect(request.GET.get("next") or "dashboard")
    return render(request, "registration/signup.html", {"form": form})
