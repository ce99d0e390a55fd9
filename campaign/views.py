"""Accounts, the dashboard and the health check."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from campaign.forms import SignUpForm
from campaign.models import Membership
from warbands.models import Warband, Warrior
from warbands.services import rating


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
        login(request, user, backend="campaign.auth.DemoPasswordRefusingBackend")
        messages.success(request, f"Welcome to Mordheim, {user.username}.")
        return redirect("dashboard")
    return render(request, "registration/signup.html", {"form": form})


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """The user's campaigns (with their role) and warbands."""
    memberships = Membership.objects.filter(user=request.user).select_related("campaign")
    warbands = list(
        Warband.objects.owned_by(request.user)
        .playing()
        .select_related("campaign", "warband_type")
        .prefetch_related(
            Prefetch(
                "warriors",
                queryset=Warrior.objects.on_roster().select_related("warrior_type"),
                to_attr="roster",
            )
        )
    )
    for warband in warbands:
        warband.rating = rating(warband.roster)
    return render(
        request,
        "campaign/dashboard.html",
        {"memberships": memberships, "warbands": warbands},
    )
