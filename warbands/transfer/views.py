"""The pages of carrying a warband into another campaign and of importing a warband file (two
steps: the upload's report, then its confirmation)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import RuleViolation
from warbands.transfer import importing, permissions, services
from warbands.transfer.forms import CarryForm, ImportConfirmForm, ImportFileForm


@require_http_methods(["GET", "POST"])
def warband_carry(request: HttpRequest, pk: int) -> HttpResponse:
    """Only the owner; the campaigns offered are those that would take the warband."""
    warband = permissions.get_carried_warband(request, pk)
    targets = permissions.carry_targets(request.user, warband)
    form = CarryForm(request.POST or None, targets=targets)
    refusal = None
    if not permissions.may_offer_carry(request.user, warband):
        refusal = "Finish mustering the warband first: only a mustered warband can be carried."
        if warband.status != warband.Status.DRAFT:
            refusal = "Its campaign is archived: ask an organiser to close it instead."
    elif request.method == "POST" and form.is_valid():
        try:
            copy = services.carry_warband(
                warband, actor=request.user, target=form.cleaned_data["campaign"],
                name=form.cleaned_data["name"],
            )  # fmt: skip
        except RuleViolation as error:
            form.add_error("campaign", str(error))
        else:
            messages.success(request, f"{copy.name} has been carried into {copy.campaign.name}.")
            return redirect("warband_roster", copy.pk)
    context = {"warband": warband, "form": form, "targets": targets, "refusal": refusal}
    status = 422 if form.errors else 200
    return render(request, "warbands/transfer/carry.html", context, status=status)


@require_http_methods(["GET", "POST"])
def campaign_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload a file: its report, and the form that confirms it."""
    campaign = permissions.get_import_campaign(request, pk)
    if request.method == "POST" and not campaign.imports_allowed:
        raise PermissionDenied("This campaign does not take warband files.")
    form = ImportFileForm(request.POST or None, request.FILES or None)
    report = confirm = None
    if request.method == "POST" and form.is_valid():
        report = importing.check(form.parsed, campaign, request.user)
        confirm = ImportConfirmForm(initial={"payload": form.signed, "name": report.name})
    context = {"campaign": campaign, "form": form, "report": report, "confirm": confirm}
    return render(
        request, "warbands/transfer/import.html", context, status=422 if form.errors else 200
    )


@require_POST
def campaign_import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Create the warband of a confirmed report, the file read and checked again."""
    campaign = permissions.get_import_campaign(request, pk)
    if not campaign.imports_allowed:
        raise PermissionDenied("This campaign does not take warband files.")
    confirm = ImportConfirmForm(request.POST)
    report = None
    if confirm.is_valid():
        try:
            warband = importing.create(
                confirm.cleaned_data["payload"], campaign, actor=request.user,
                name=confirm.cleaned_data["name"],
            )  # fmt: skip
        except RuleViolation as error:
            confirm.add_error(None, str(error))
        else:
            messages.success(request, f"{warband.name} has been imported.")
            return redirect("warband_roster", warband.pk)
        report = importing.check(confirm.cleaned_data["payload"], campaign, request.user)
    elif "payload" in confirm.cleaned_data:
        report = importing.check(confirm.cleaned_data["payload"], campaign, request.user)
    context = {
        "campaign": campaign, "form": ImportFileForm(), "report": report, "confirm": confirm,
    }  # fmt: skip
    return render(request, "warbands/transfer/import.html", context, status=422)
