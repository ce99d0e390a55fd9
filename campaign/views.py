"""Pages that change only a campaign and its memberships: create, join, run its settings (the
league table's points and tie-breakers among them), and who organises it (invitations to
co-organise, their answers, stepping down)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign import co_organisers, invitations, permissions, services, standings
from campaign.forms import CampaignForm, CampaignStatusForm, JoinForm, StandingsRulesForm
from campaign.models import OrganiserInvitation
from core.errors import RuleViolation


@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.create_campaign(actor=request.user, **form.cleaned_data)
        messages.success(
            request,
            f"{campaign.name} is ready. Choose its house rules, then share the join code "
            "with your players.",
        )
        return redirect("campaign_settings", campaign.pk)
    return render(
        request, "campaign/campaign_create.html", {"form": form}, status=422 if form.errors else 200
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
    # Refused (the box unticked, most often): the same choice again, with the reason by it.
    context = {"campaign": campaign, "form": form}
    return render(request, "campaign/status_confirm.html", context, status=422)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join a campaign with its code: typed in, or from the join link, which names the campaign
    it invites to (organisers, the first line of its description) and asks first, or says
    plainly why the code lets nobody in: unknown or replaced, closed, not taking players."""
    form = JoinForm(request.POST or None, initial={"code": code})
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
    invited = invitations.invitation(code, user=request.user) if code and not form.errors else None
    if invited is not None and invited.refusal:
        form = JoinForm()  # a blank field for another code, under the reason this one failed
    unknown = invited is not None and invited.campaign is None
    return render(
        request,
        "campaign/join.html",
        {"form": form, "invitation": invited},
        status=422 if form.errors else 404 if unknown else 200,
    )


@require_POST
def invitation_withdraw(request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    """An organiser takes back an invitation to co-organise that waits for its answer."""
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    invitation = get_object_or_404(OrganiserInvitation, pk=invitation_pk, campaign=campaign)
    try:
        co_organisers.withdraw_invitation(invitation, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"The invitation of {invitation.username} is withdrawn.")
    return redirect("campaign_settings", campaign.pk)


@require_http_methods(["GET", "POST"])
def organiser_step_down(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser stops organising and stays a player: asked first, since only another
    organiser's invitation makes him one again."""
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    if request.method == "GET":
        return render(request, "campaign/step_down.html", {"campaign": campaign})
    try:
        co_organisers.step_down(campaign, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
        return redirect("campaign_settings", campaign.pk)
    messages.success(request, f"You no longer organise {campaign.name}: you play in it.")
    return redirect("campaign_detail", campaign.pk)


@require_POST
def invitation_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """The holder of the invited name becomes a co-organiser."""
    invitation = permissions.get_invitation_for_user(request, pk)
    try:
        co_organisers.accept_invitation(invitation, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
        return redirect("dashboard")
    messages.success(request, f"You co-organise {invitation.campaign.name}.")
    return redirect("campaign_detail", invitation.campaign_id)


@require_POST
def invitation_decline(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = permissions.get_invitation_for_user(request, pk)
    try:
        co_organisers.decline_invitation(invitation, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"You declined to co-organise {invitation.campaign.name}.")
    return redirect("dashboard")


@require_http_methods(["GET", "POST"])
def standings_rules(request: HttpRequest, pk: int) -> HttpResponse:
    """The league table's points and tie-breakers: organisers only, read-only once the
    campaign is closed. A refused post changes nothing and says why beside each field."""
    campaign = permissions.get_campaign_for_user(request, pk)
    if not permissions.is_organiser(request.user, campaign):
        raise PermissionDenied("Only the campaign's organisers set the league table's rules.")
    form = StandingsRulesForm(request.POST or None, campaign=campaign)
    if request.method == "POST":
        permissions.get_campaign_for_user(request, pk, organiser=True)
        if form.is_valid():
            try:
                standings.set_standings_rules(campaign, actor=request.user, **form.rules())
            except RuleViolation as refusal:
                form.add_error(refusal.field or None, str(refusal))
            else:
                messages.success(request, "The league table's rules are saved.")
                return redirect("standings_rules", campaign.pk)
    context = {"campaign": campaign, "form": form}
    return render(
        request, "campaign/standings_rules.html", context, status=422 if form.errors else 200
    )
