"""Accounts, the dashboard, campaigns and the health check."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.forms import FortuneTableForm
from battles.models import Battle
from campaign import charts, permissions, services
from campaign.dashboard import next_steps
from campaign.forms import CampaignForm, CampaignStatusForm, CoOrganiserForm, JoinForm, SignUpForm
from campaign.models import (
    FRAGMENT_SECONDS,
    Campaign,
    CampaignEvent,
    Membership,
    RandomFortuneEntry,
)
from campaign.standings import COLUMNS, league_table
from warbands.models import RatingSnapshot, Warband
from warbands.rules import RuleViolation
from warbands.services import rating_expression

FEED_PAGE = 20


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
        return redirect(request.GET.get("next") or "dashboard")
    return render(request, "registration/signup.html", {"form": form})


class Dashboard:
    """What the dashboard shows of the user's campaigns, read when drawn: its fragments are
    kept under the user and the versions of every campaign the user is in
    (``campaign.versions``), so that a change in any of them draws it afresh."""

    def __init__(self, user, memberships: list[Membership]) -> None:
        self.user, self.memberships = user, memberships
        campaigns = sorted((m.campaign for m in memberships), key=lambda c: c.pk)
        self.key = ",".join(f"{c.pk}.{c.fragment_version}" for c in campaigns)
        self.seconds = min((c.fragment_seconds for c in campaigns), default=FRAGMENT_SECONDS)

    @cached_property
    def warbands(self) -> list[Warband]:
        return list(
            Warband.objects.owned_by(self.user)
            .playing()
            .select_related("campaign", "warband_type")
            .annotate(rating=rating_expression())  # the rulebook's rating, in the same statement
        )

    @cached_property
    def campaigns(self) -> list:
        """Each membership with the next things to do in its campaign."""
        steps = next_steps(self.user, self.memberships, self.warbands)
        return [(m, steps.get(m.campaign_id, [])) for m in self.memberships]


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """Every campaign of the user (running ones first) with the next thing to do in each."""
    memberships = list(
        Membership.objects.active()
        .filter(user=request.user)
        .exclude(campaign__status=Campaign.Status.ARCHIVED)
        .select_related("campaign")
        .order_by("campaign__status", "-campaign__start_date")
    )
    return render(
        request,
        "campaign/dashboard.html",
        {
            "memberships": memberships,
            "dashboard": Dashboard(request.user, memberships),
            "join_form": JoinForm(),
        },
    )


# --- Campaigns -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.create_campaign(actor=request.user, **form.cleaned_data)
        messages.success(
            request, f"{campaign.name} is ready. Share the join code with your players."
        )
        return redirect("campaign_settings", campaign.pk)
    return render(
        request, "campaign/campaign_create.html", {"form": form}, status=422 if form.errors else 200
    )


@dataclass(frozen=True)
class RatingHistory:
    chart: charts.Chart | None
    series: list[charts.Series]


def _rating_history(campaign: Campaign) -> RatingHistory:
    snapshots = RatingSnapshot.objects.filter(
        warband__campaign=campaign, warband__status__in=["draft", "active"]
    ).order_by("taken_at", "pk")
    series: dict[int, charts.Series] = {}
    # Tuples, not model instances: a long league has hundreds of snapshots.
    for warband_id, name, taken_at, value in snapshots.values_list(
        "warband_id", "warband__name", "taken_at", "rating"
    ):
        entry = series.setdefault(warband_id, charts.Series(name, []))
        entry.points.append((taken_at, value))
    return RatingHistory(charts.rating_chart(list(series.values())), list(series.values()))


@require_GET
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The league table, rating history, recent battles, feed and members: what every member
    sees alike, cached in fragments under the campaign's version (``campaign.versions``). The
    reads are handed over unevaluated (querysets and ``partial``), so a cached fragment
    costs none of them."""
    campaign = permissions.get_campaign_for_user(request, pk)
    sort, direction = request.GET.get("sort", ""), request.GET.get("dir", "")
    sort = sort if sort in COLUMNS else "won"
    direction = direction if direction in ("asc", "desc") else COLUMNS[sort][1]
    context = {
        "campaign": campaign,
        "table": partial(league_table, campaign, sort=sort, direction=direction),
        "columns": COLUMNS,
        "sort": sort,
        "direction": direction,
    }
    if request.htmx and request.htmx.target == "league-table":
        return render(request, "campaign/campaign_detail.html#league-table", context)
    context.update(
        {
            "is_organiser": permissions.is_organiser(request.user, campaign),
            "battles": Battle.objects.in_campaign(campaign)
            .prefetch_related("participants__warband")
            .order_by("-fought_on", "-pk")[:10],
            "events": CampaignEvent.objects.filter(campaign=campaign)[:10],
            "members": campaign.memberships.active().select_related("user"),
            "rating_history": partial(_rating_history, campaign),
            "can_muster": campaign.is_open,
        }
    )
    return render(request, "campaign/campaign_detail.html", context)


@require_GET
def campaign_feed(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = permissions.get_campaign_for_user(request, pk)
    paginator = Paginator(CampaignEvent.objects.filter(campaign=campaign), FEED_PAGE)
    try:
        number = min(max(1, int(request.GET.get("page", 1))), 100_000)
    except (TypeError, ValueError):
        number = 1
    # Read only when the page's fragment is drawn (cached under the campaign's version).
    context = {"campaign": campaign, "number": number,
               "feed_page": partial(paginator.get_page, number)}  # fmt: skip
    if request.htmx:
        return render(request, "campaign/campaign_feed.html#feed-page", context)
    return render(request, "campaign/campaign_feed.html", context)


def _settings_context(campaign: Campaign, form=None, co_form=None) -> dict:
    return {
        "campaign": campaign,
        "form": form or CampaignForm(instance=campaign),
        "co_form": co_form or CoOrganiserForm(),
        "members": campaign.memberships.select_related("user").order_by("-is_active", "joined_at"),
        "warbands": Warband.objects.in_campaign(campaign).select_related("owner", "warband_type"),
        "statuses": Campaign.Status.choices,
    }


@require_http_methods(["GET", "POST"])
def campaign_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """Organisers only. A closed campaign's settings can be read but not changed."""
    campaign = permissions.get_campaign_for_user(request, pk)
    if not permissions.is_organiser(request.user, campaign):
        raise PermissionDenied("Only the campaign's organisers may change it.")
    form = CampaignForm(request.POST or None, instance=campaign)
    if request.method == "POST":
        permissions.get_campaign_for_user(request, pk, organiser=True)
        if form.is_valid():
            services.update_campaign(campaign, actor=request.user, **form.cleaned_data)
            messages.success(request, "Campaign settings saved.")
            return redirect("campaign_settings", campaign.pk)
        campaign.refresh_from_db()
    return render(
        request,
        "campaign/campaign_settings.html",
        _settings_context(campaign, form=form),
        status=422 if form.errors else 200,
    )


@require_POST
def join_code_regenerate(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    services.regenerate_join_code(campaign, actor=request.user)
    messages.success(request, "New join code: the old one no longer works.")
    return redirect("campaign_settings", campaign.pk)


@require_POST
def joining_toggle(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    services.set_joining_open(campaign, actor=request.user, is_open=not campaign.joining_open)
    messages.success(request, "Joining is open." if campaign.joining_open else "Joining is closed.")
    return redirect("campaign_settings", campaign.pk)


@require_POST
def co_organiser_add(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    form = CoOrganiserForm(request.POST)
    if form.is_valid():
        try:
            services.add_co_organiser(
                campaign, actor=request.user, username=form.cleaned_data["username"]
            )
        except RuleViolation as refusal:
            form.add_error("username", str(refusal))
        else:
            messages.success(request, f"{form.cleaned_data['username']} now co-organises.")
            return redirect("campaign_settings", campaign.pk)
    return render(
        request,
        "campaign/campaign_settings.html",
        _settings_context(campaign, co_form=form),
        status=422,
    )


@require_http_methods(["GET", "POST"])
def member_remove(request: HttpRequest, pk: int, membership_pk: int) -> HttpResponse:
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_pk, campaign=campaign
    )
    if request.method == "GET":
        return render(
            request, "campaign/member_remove.html", {"campaign": campaign, "membership": membership}
        )
    try:
        services.remove_member(membership, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"{membership.user.username} was removed from the campaign.")
    return redirect("campaign_settings", campaign.pk)


@require_http_methods(["GET", "POST"])
def warband_archive(request: HttpRequest, pk: int, warband_pk: int) -> HttpResponse:
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    warband = get_object_or_404(Warband, pk=warband_pk, campaign=campaign)
    if request.method == "GET":
        return render(
            request, "campaign/warband_archive.html", {"campaign": campaign, "warband": warband}
        )
    try:
        services.archive_warband(warband, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"{warband.name} was removed from the campaign.")
    return redirect("campaign_settings", campaign.pk)


@require_POST
def campaign_status(request: HttpRequest, pk: int) -> HttpResponse:
    """Close, archive or reopen. Reopening is allowed on a closed campaign, so this checks the
    organiser role without requiring the campaign to be open."""
    campaign = permissions.get_campaign_for_user(request, pk)
    if not permissions.is_organiser(request.user, campaign):
        raise PermissionDenied("Only the campaign's organisers may do this.")
    form = CampaignStatusForm(request.POST)
    if form.is_valid():
        services.set_campaign_status(
            campaign, actor=request.user, status=form.cleaned_data["status"]
        )
        messages.success(request, f"The campaign is now {campaign.get_status_display().lower()}.")
    return redirect("campaign_settings", campaign.pk)


# --- Joining -------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join a campaign with its code: typed in, or from the join link (which asks first)."""
    form = JoinForm(request.POST or None, initial={"code": code})
    campaign = Campaign.objects.filter(join_code=code.upper()).first() if code else None
    if request.method == "POST" and form.is_valid():
        try:
            membership = services.join_campaign(actor=request.user, code=form.cleaned_data["code"])
        except RuleViolation as refusal:
            form.add_error("code", str(refusal))
        else:
            messages.success(
                request, f"You are in {membership.campaign.name}: muster your warband."
            )
            url = reverse("campaign_detail", args=[membership.campaign_id])
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    return render(
        request,
        "campaign/join.html",
        {"form": form, "campaign": campaign if campaign and campaign.joining_open else None},
        status=422 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def fortune_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's random fortune table (D66 or D100), as organisers enter it."""
    campaign = permissions.get_campaign_for_user(request, pk)
    if not permissions.is_organiser(request.user, campaign):
        raise PermissionDenied("Only the campaign's organisers change the table.")
    table = request.POST.get("table") or request.GET.get("table") or "d66"
    entries = RandomFortuneEntry.objects.filter(campaign=campaign, table=table)
    lines = "\n".join(f"{e.low}-{e.high} | {e.result} | {e.kind}" for e in entries)
    form = FortuneTableForm(request.POST or None, initial={"table": table, "lines": lines})
    if request.method == "POST":
        permissions.get_campaign_for_user(request, pk, organiser=True)
        if form.is_valid():
            services.set_fortune_table(
                campaign, actor=request.user, table=table, rows=form.cleaned_data["rows"]
            )
            messages.success(request, f"The {table.upper()} random fortune table is saved.")
            return redirect(f"{reverse('fortune_table', args=[campaign.pk])}?table={table}")
    return render(
        request,
        "campaign/fortune_table.html",
        {"campaign": campaign, "form": form, "entries": entries, "table": table},
        status=422 if form.errors else 200,
    )
