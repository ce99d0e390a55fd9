"""Rolling for a battle's scenario before it is reported or played (the picker that offers
the roll: ``battles.forms.scenario_picker``)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from battles.dice import parse_faces
from battles.forms import ScenarioRollForm
from battles.report import scenario_roll as rolling
from campaign.permissions import get_campaign_for_user
from core.dice import DiceError, EnteredDice, ServerDice
from core.errors import RuleViolation
from warbands.models import Warband

BACK = {"report": "battle_report", "record": "battle_record", "play": "play_start"}


@require_POST
def scenario_roll(request: HttpRequest, pk: int) -> HttpResponse:
    """Roll 2D6 for the scenario; the campaign feed and the page say what came up."""
    campaign = get_campaign_for_user(request, pk, write=True)
    warbands = Warband.objects.in_campaign(campaign).playing().order_by("name")
    form = ScenarioRollForm(request.POST, warbands=warbands)
    back = BACK.get(str(request.POST.get("back")), "battle_report")
    if not form.is_valid():
        messages.error(request, next(iter(form.errors.values()))[0])
        return redirect(back, campaign.pk)
    try:
        faces = parse_faces(form.cleaned_data["dice"])
        dice = (
            EnteredDice(rolling.DICE.check(faces, "The scenario roll")) if faces else ServerDice()
        )
        rolled = rolling.roll_for_scenario(
            actor=request.user, campaign=campaign, warband_ids=form.cleaned_data["warbands"],
            dice=dice,
        )  # fmt: skip
    except (DiceError, RuleViolation) as refusal:
        messages.error(request, str(refusal))
        return redirect(back, campaign.pk)
    messages.success(request, rolled.message)
    query = urlencode({"scenario": rolled.roll.key, "warbands": len(form.cleaned_data["warbands"])})
    return redirect(f"{reverse(back, args=[campaign.pk])}?{query}")
