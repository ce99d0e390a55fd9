"""The house-rules page of a campaign: members read what it allows; organisers change it while
no warband exists (``permissions``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign.permissions import get_campaign_for_user
from core.errors import RuleViolation
from warbands.house_rules import allowed, permissions, services
from warbands.house_rules.forms import HouseRulesForm


@require_http_methods(["GET", "POST"])
def house_rules(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = get_campaign_for_user(request, campaign_id)
    may_change = permissions.can_change(request.user, campaign)
    fixed = permissions.fixed_reason(campaign, permissions.first_warband(campaign))
    house = allowed.rules_of(campaign)
    form = None
    if request.method == "POST":
        if not may_change:
            raise PermissionDenied("Only the campaign's organisers may change its house rules.")
        form = HouseRulesForm(request.POST, house=house)
        if form.is_valid():
            try:
                services.set_house_rules(campaign, actor=request.user, **form.cleaned_data)
            except RuleViolation as refusal:
                form.add_error(None, str(refusal))
            else:
                messages.success(request, "House rules saved.")
                return redirect("house_rules", campaign.pk)
    elif may_change and not fixed:
        form = HouseRulesForm(house=house)
    context = {
        "campaign": campaign,
        "summary": allowed.summary(house),
        "form": form,
        "may_change": may_change,
        "fixed": fixed,
    }
    return render(
        request,
        "warbands/house_rules.html",
        context,
        status=422 if form is not None and form.errors else 200,
    )
