"""Battle pages: record a battle (organisers), read it, correct its result."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from battles import services
from battles.forms import BattleForm, participant_rows, reported_results
from battles.models import Battle
from campaign import permissions
from warbands.models import Warband
from warbands.rules import RuleViolation


def _battle_for_user(request: HttpRequest, pk: int) -> Battle:
    battle = Battle.objects.select_related("campaign").filter(pk=pk).first()
    if battle is None or not permissions.is_member(request.user, battle.campaign):
        raise Http404("No such battle.")
    return battle


@require_http_methods(["GET", "POST"])
def battle_record(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser records a battle for any two or more warbands of the campaign."""
    campaign = permissions.get_campaign_for_user(request, pk, organiser=True)
    warbands = (
        Warband.objects.in_campaign(campaign)
        .filter(status="active")
        .select_related("owner", "warband_type")
    )
    data = request.POST if request.method == "POST" else None
    form = BattleForm(data, initial={"fought_on": timezone.localdate()})
    rows = participant_rows(data, warbands)
    errors: list[str] = []
    if request.method == "POST":
        results, errors = reported_results(rows)
        if form.is_valid() and not errors:
            try:
                battle = services.record_battle(
                    actor=request.user, campaign=campaign, results=results, **form.cleaned_data
                )
            except RuleViolation as refusal:
                errors.append(str(refusal))
            else:
                messages.success(request, f"{battle} is recorded and confirmed.")
                return redirect("battle_detail", battle.pk)
    return render(
        request,
        "battles/battle_record.html",
        {"campaign": campaign, "form": form, "rows": rows, "errors": errors},
        status=422 if errors or form.errors else 200,
    )


@require_GET
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    battle = _battle_for_user(request, pk)
    participants = battle.participants.select_related("warband", "warband__owner")
    return render(
        request,
        "battles/battle_detail.html",
        {
            "battle": battle,
            "participants": participants,
            "is_organiser": permissions.can_run_campaign(request.user, battle.campaign),
        },
    )


@require_http_methods(["GET", "POST"])
def battle_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser corrects a result (who won, drew, lost and routed)."""
    battle = _battle_for_user(request, pk)
    permissions.get_campaign_for_user(request, battle.campaign_id, organiser=True)
    participants = list(battle.participants.select_related("warband"))
    initial = {
        p.warband_id: {
            "took_part": True,
            "result": p.result,
            "routed": p.routed,
            "rout_order": p.rout_order,
        }
        for p in participants
    }
    data = request.POST if request.method == "POST" else None
    rows = participant_rows(data, [p.warband for p in participants], initial=initial)
    errors: list[str] = []
    if request.method == "POST":
        results, errors = reported_results(rows)
        if not errors:
            try:
                services.correct_result(battle, actor=request.user, results=results)
            except RuleViolation as refusal:
                errors.append(str(refusal))
            else:
                messages.success(request, "Result corrected.")
                return redirect("battle_detail", battle.pk)
    return render(
        request,
        "battles/battle_correct.html",
        {"battle": battle, "rows": rows, "errors": errors},
        status=422 if errors else 200,
    )
