"""The pages that span the apps: the dashboard and past campaigns, a campaign's page, feed,
settings and battle export, and the organiser's powers over players and warbands."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.models import Battle
from battles.report.forms import FortuneTableForm
from campaign import co_organisers
from campaign import services as campaign_services
from campaign.cache import FRAGMENT_SECONDS
from campaign.forms import CampaignForm, CampaignStatusForm, CoOrganiserForm, JoinForm
from campaign.models import (
    Campaign,
    CampaignEvent,
    Membership,
    OrganiserInvitation,
    RandomFortuneEntry,
)
from campaign.permissions import get_campaign_for_user, is_organiser
from core.errors import RuleViolation
from league import charts, exports, services, todo
from league import dashboard as dashboard_reads
from league.lists import sorting, table_top
from league.standings import COLUMNS
from league.todo import reports as todo_reports
from warbands import corrections
from warbands import permissions as warband_permissions
from warbands.forms import ConfirmForm
from warbands.models import RatingSnapshot, Warband
from warbands.services import rating_expression

FEED_PAGE = 20
# What the campaign's page shows of its long lists; the rest is a link away (league.lists).
RECENT = 10  # battles and lines of the feed
MEMBERS_SHOWN = 20
CHARTED = len(charts.PALETTE)  # warbands in the rating chart, one per colour


class Dashboard:
    """What the dashboard shows of the user's campaigns, read when drawn: its fragments are
    kept under the user and the versions of every campaign the user is in
    (``campaign.cache``), so that a change in any of them draws it afresh."""

    def __init__(self, user, memberships: list[Membership], *, every: list[Membership]) -> None:
        """``memberships``: those the dashboard shows; ``every``: the user's memberships,
        archived campaigns too (the link to the past campaigns counts them)."""
        self.user, self.memberships = user, memberships
        self.past = sum(not m.campaign.is_open for m in every)
        campaigns = sorted((m.campaign for m in every), key=lambda c: c.pk)
        self.key = ",".join(f"{c.pk}.{c.fragment_version}" for c in campaigns)
        # What waits for him also changes as a turn of his games passes (``league.todo``).
        self.waiting_key = f"{self.key};" + ",".join(str(m.games_version) for m in every)
        self.seconds = min((c.fragment_seconds for c in campaigns), default=FRAGMENT_SECONDS)

    @cached_property
    def warbands(self) -> list[Warband]:
        return list(
            Warband.objects.owned_by(self.user)
            .playing()
            .exclude(campaign__status=Campaign.Status.ARCHIVED)  # listed with past campaigns
            .select_related("campaign", "warband_type")
            .annotate(rating=rating_expression())  # the rulebook's rating, in the same statement
        )

    @cached_property
    def waiting(self) -> list:
        """What waits for the user across his campaigns (``league.todo``)."""
        return todo.waiting_for(self.user)

    @cached_property
    def next_games(self) -> dict:
        """The user's games planned and not played yet (``battles.schedule.queries``): two
        queries, drawn in a kept fragment."""
        return dashboard_reads.next_games(self.user)

    @cached_property
    def campaigns(self) -> list:
        """Each membership with the next things to do in its campaign."""
        steps = dashboard_reads.next_steps(self.user, self.memberships, self.warbands)
        return [(m, steps.get(m.campaign_id, [])) for m in self.memberships]


@login_not_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """The invitations to co-organise waiting for the user's answer; what waits for him across
    his campaigns (``league.todo``); every campaign of the user but the archived ones
    (running ones first) with what stands in each; and how many past (closed or archived)
    campaigns the list of past campaigns holds, read in the same query as the others.

    A visitor who is not logged in gets the landing page instead: what the app does, the two
    guides, log in and sign up. It reads nothing from the database, so it shows nothing of
    anybody's."""
    if not request.user.is_authenticated:
        return render(request, "league/landing.html")
    every = list(
        Membership.objects.active()
        .filter(user=request.user)
        .select_related("campaign")
        .annotate(games_version=todo_reports.games_version())
        .order_by("-campaign__start_date", "campaign__name")
    )
    memberships = sorted(
        (m for m in every if m.campaign.status != Campaign.Status.ARCHIVED),
        key=lambda m: not m.campaign.is_open,
    )
    return render(
        request,
        "league/dashboard.html",
        {
            "memberships": memberships,
            "dashboard": Dashboard(request.user, memberships, every=every),
            "join_form": JoinForm(auto_id="id_join_%s"),
            # Read when drawn, outside the cached fragments: an invitation changes a campaign
            # the user may not be in, whose version his dashboard's keys do not hold.
            "invitations": OrganiserInvitation.objects.pending()
            .addressed_to(request.user)
            .filter(campaign__status=Campaign.Status.OPEN)
            .select_related("campaign", "invited_by")
            .order_by("created_at", "pk"),
        },
    )


@require_GET
def past_campaigns(request: HttpRequest) -> HttpResponse:
    """The user's closed and archived campaigns, with his warbands in each: the way back to
    them once they leave the dashboard. Only his own memberships are listed, so no other
    policy is needed."""
    return render(
        request,
        "league/past_campaigns.html",
        {"past": dashboard_reads.past_campaigns(request.user)},
    )


@require_GET
def battle_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's battles and results as CSV, for its organisers, also once the campaign
    is closed, when its record matters most. Nothing secret is in it (``league.exports``)."""
    campaign = get_campaign_for_user(request, pk)
    if not is_organiser(request.user, campaign):
        raise PermissionDenied("Only the campaign's organisers export its battles.")
    response = HttpResponse(exports.battle_history_csv(campaign), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{exports.filename(campaign)}"'
    return response


@require_GET
def standings_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The league table in the campaign's ranking, with its points and awards, as CSV: for
    every member, who reads the same on the table's page (``league.exports``)."""
    campaign = get_campaign_for_user(request, pk)
    response = HttpResponse(exports.standings_csv(campaign), content_type="text/csv")
    name = exports.filename(campaign, "standings")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@dataclass(frozen=True)
class RatingHistory:
    chart: charts.Chart | None
    series: list[charts.Series]  # the charted warbands'
    rated: int  # warbands with a rating to chart


def _rating_history(campaign: Campaign) -> RatingHistory:
    """The ratings of the ``CHARTED`` warbands rated highest at their latest snapshot: two
    queries whatever the league's size (each warband's latest, then the charted ones' own)."""
    playing = RatingSnapshot.objects.filter(
        warband__campaign=campaign, warband__status__in=["draft", "active"]
    )
    latest = (
        playing.order_by("warband_id", "-taken_at", "-pk")
        .distinct("warband_id")
        .values_list("warband_id", "rating")
    )
    latest = sorted(latest, key=lambda pair: -pair[1])
    charted = [pk for pk, _ in latest[:CHARTED]]
    series: dict[int, charts.Series] = {}
    # Tuples, not model instances: a long league has hundreds of snapshots.
    for warband_id, name, taken_at, value in (
        playing.filter(warband__in=charted)
        .order_by("taken_at", "pk")
        .values_list("warband_id", "warband__name", "taken_at", "rating")
    ):
        entry = series.setdefault(warband_id, charts.Series(name, []))
        entry.points.append((taken_at, value))
    drawn = list(series.values())
    return RatingHistory(charts.rating_chart(drawn), drawn, len(latest))


@require_GET
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The head of the league table, the rating history of the highest-rated, the latest
    battles and feed, and the first members: what every member sees alike, each bounded
    whatever the league's size, with a link to the whole list (``league.lists``). Cached in
    fragments under the campaign's version (``campaign.cache``); the reads are handed over
    unevaluated (querysets and ``partial``), so a cached fragment costs none of them.

    The three ways a battle reaches the league stay three links, each explained beside it,
    rather than one: reporting (a player of the game tells the result, the others confirm),
    recording (an organiser enters a game others played, and may confirm it for them) and the
    helper (played live, the report written at the end) are asked of different people at
    different moments, and a merged page would have to ask who you are before anything else."""
    campaign = get_campaign_for_user(request, pk)
    sort, direction = sorting(request)
    context = {
        "campaign": campaign,
        "table": partial(table_top, campaign, sort=sort, direction=direction),
        "columns": COLUMNS,
        "sort": sort,
        "direction": direction,
    }
    if request.htmx and request.htmx.target == "league-table":
        return render(request, "league/campaign_detail.html#league-table", context)
    context.update(
        {
            "is_organiser": is_organiser(request.user, campaign),
            "battles": Battle.objects.in_campaign(campaign)
            .prefetch_related("participants__warband")
            .order_by("-fought_on", "-pk")[:RECENT],
            "events": CampaignEvent.objects.filter(campaign=campaign)[:RECENT],
            # One more than shown: whether there are more is known without counting them.
            "members": partial(
                list, campaign.memberships.active().select_related("user")[: MEMBERS_SHOWN + 1]
            ),
            "members_shown": MEMBERS_SHOWN,
            "rating_history": partial(_rating_history, campaign),
            "can_muster": campaign.is_open,
        }
    )
    return render(request, "league/campaign_detail.html", context)


@require_GET
def campaign_feed(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request, pk)
    paginator = Paginator(CampaignEvent.objects.filter(campaign=campaign), FEED_PAGE)
    try:
        number = min(max(1, int(request.GET.get("page", 1))), 100_000)
    except (TypeError, ValueError):
        number = 1
    # Read only when the page's fragment is drawn (cached under the campaign's version).
    context = {"campaign": campaign, "number": number,
               "feed_page": partial(paginator.get_page, number)}  # fmt: skip
    if request.htmx:
        return render(request, "league/campaign_feed.html#feed-page", context)
    return render(request, "league/campaign_feed.html", context)


def _settings_context(campaign: Campaign, form=None, co_form=None, *, user) -> dict:
    """The settings page: its forms, members and warbands, and the corrections waiting for
    this organiser (read when drawn)."""
    return {
        "campaign": campaign,
        "form": form or CampaignForm(instance=campaign),
        "co_form": co_form or CoOrganiserForm(),
        "members": campaign.memberships.select_related("user").order_by("-is_active", "joined_at"),
        "invitations": OrganiserInvitation.objects.pending()
        .filter(campaign=campaign)
        .select_related("invited_by"),
        "warbands": Warband.objects.in_campaign(campaign).select_related("owner", "warband_type"),
        "status_form": CampaignStatusForm(initial={"status": campaign.status}),
        "corrections_waiting": partial(corrections.waiting_for, user, [campaign.pk]),
    }


@require_http_methods(["GET", "POST"])
def campaign_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """Organisers only. A closed campaign's settings can be read but not changed."""
    campaign = get_campaign_for_user(request, pk)
    if not is_organiser(request.user, campaign):
        raise PermissionDenied("Only the campaign's organisers may change it.")
    form = CampaignForm(request.POST or None, instance=campaign)
    if request.method == "POST":
        get_campaign_for_user(request, pk, organiser=True)
        if form.is_valid():
            campaign_services.update_campaign(campaign, actor=request.user, **form.cleaned_data)
            messages.success(request, "Campaign settings saved.")
            return redirect("campaign_settings", campaign.pk)
        campaign.refresh_from_db()
    return render(
        request,
        "league/campaign_settings.html",
        _settings_context(campaign, form=form, user=request.user),
        status=422 if form.errors else 200,
    )


@require_POST
def co_organiser_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Invite a co-organiser by username. The answer is the same whether the name belongs to
    an account or not (``campaign.co_organisers``): the invitation is listed either way and
    waits on the dashboard of the name's holder, if there is one."""
    campaign = get_campaign_for_user(request, pk, organiser=True)
    form = CoOrganiserForm(request.POST)
    if form.is_valid():
        try:
            invitation = co_organisers.invite_co_organiser(
                campaign, actor=request.user, username=form.cleaned_data["username"]
            )
        except RuleViolation as refusal:
            form.add_error("username", str(refusal))
        else:
            messages.success(
                request,
                f"{invitation.username} is invited to co-organise: the invitation waits on "
                "his dashboard until he accepts or declines it.",
            )
            return redirect("campaign_settings", campaign.pk)
    return render(
        request,
        "league/campaign_settings.html",
        _settings_context(campaign, co_form=form, user=request.user),
        status=422,
    )


@require_http_methods(["GET", "POST"])
def member_remove(request: HttpRequest, pk: int, membership_pk: int) -> HttpResponse:
    campaign = get_campaign_for_user(request, pk, organiser=True)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_pk, campaign=campaign
    )
    if request.method == "GET":
        return render(
            request, "league/member_remove.html", {"campaign": campaign, "membership": membership}
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
    campaign = get_campaign_for_user(request, pk, organiser=True)
    warband = get_object_or_404(Warband, pk=warband_pk, campaign=campaign)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if not form.is_valid():  # asked first, and asked again without the box ticked
        context = {"campaign": campaign, "warband": warband, "form": form}
        status = 422 if form.errors else 200
        return render(request, "league/warband_archive.html", context, status=status)
    try:
        services.archive_warband(warband, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"{warband.name} was removed from the campaign.")
    return redirect("campaign_settings", campaign.pk)


@require_http_methods(["GET", "POST"])
def warband_disband(request: HttpRequest, pk: int) -> HttpResponse:
    """Disbanding cannot be undone: the GET asks first. Here rather than with the roster's
    pages because the captives the warband held go home with it (``services.disband_warbands``),
    which reaches into battles."""
    warband = warband_permissions.get_warband_for_user(request, pk, write=True)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            services.disband_warbands([warband], actor=request.user)
        except RuleViolation as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, f"{warband.name} has been disbanded.")
        url = reverse("dashboard")
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    context = {"warband": warband, "form": form}
    status = 422 if form.errors else 200
    return render(request, "warbands/warband_disband.html", context, status=status)


@require_http_methods(["GET", "POST"])
def fortune_table(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's random fortune table (D66 or D100), as organisers enter it."""
    campaign = get_campaign_for_user(request, pk)
    if not is_organiser(request.user, campaign):
        raise PermissionDenied("Only the campaign's organisers change the table.")
    table = request.POST.get("table") or request.GET.get("table") or "d66"
    entries = RandomFortuneEntry.objects.filter(campaign=campaign, table=table)
    lines = "\n".join(f"{e.low}-{e.high} | {e.result} | {e.kind}" for e in entries)
    form = FortuneTableForm(request.POST or None, initial={"table": table, "lines": lines})
    if request.method == "POST":
        get_campaign_for_user(request, pk, organiser=True)
        if form.is_valid():
            campaign_services.set_fortune_table(
                campaign, actor=request.user, table=table, rows=form.cleaned_data["rows"]
            )
            messages.success(request, f"The {table.upper()} random fortune table is saved.")
            return redirect(f"{reverse('fortune_table', args=[campaign.pk])}?table={table}")
    return render(
        request,
        "league/fortune_table.html",
        {"campaign": campaign, "form": form, "entries": entries, "table": table},
        status=422 if form.errors else 200,
    )
