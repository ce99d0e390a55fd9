"""Pages that change only a campaign and its memberships: create, join, run its settings."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign import invitations, permissions, services
from campaign.forms import CampaignForm, CampaignStatusForm, JoinForm
from campaign.models import Membership
from core import once
from core.errors import RuleViolation


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


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str = "") -> HttpResponse:
    """Join a campaign with its code: typed in, or from the join link, which names the campaign
    it invites to (organisers, the first line of its description) and asks first, or says
    plainly why the code lets nobody in: unknown or replaced, closed, not taking players
    (issue 30, point 1)."""
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
def member_reset_link(request: HttpRequest, pk: int, membership_pk: int) -> HttpResponse:
    """A one-time password reset link for a player of the organiser's campaign, shown to the
    organiser to hand over when the app sends no e-mail (issue 30, point 1)."""
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    membership = get_object_or_404(
        Membership.objects.select_related("user", "campaign"), pk=membership_pk, campaign=campaign
    )
    try:
        uidb64, token = services.make_password_reset_link(membership, actor=request.user)
    except RuleViolation as refusal:
        messages.error(request, str(refusal))
        url = reverse("campaign_settings", args=[campaign.pk])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    link = request.build_absolute_uri(reverse("password_reset_confirm", args=[uidb64, token]))
    response = render(
        request,
        "campaign/reset_link.html",
        {"campaign": campaign, "player": membership.user, "link": link},
    )
    # The link is a password: never kept for replaying (core.once). Its form carries no
    # one-time token either: a second post only makes the same kind of link again.
    setattr(response, once.SECRET_ANSWER, True)
    return response
