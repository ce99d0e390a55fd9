"""The page where a side enters what its warriors did (``battles.report.sides``): the warband's
player, or an organiser for him."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import format_html_join
from django.views.decorators.http import require_http_methods, require_POST

from battles.models import WarriorOutcome
from battles.permissions import get_battle_for_user
from battles.report import permissions as report_permissions
from battles.report import services, sides
from battles.report.forms.side import AsRecordedForm, SideForm, side_outcomes, side_rows
from battles.report.views.battle import board_after_post
from battles.rules import scenarios
from core.errors import RuleViolation
from core.htmx import with_refusal
from core.words import possessive
from warbands.models import Warrior


@require_http_methods(["GET", "POST"])
def battle_side(request: HttpRequest, pk: int, warband_pk: int) -> HttpResponse:
    """One warband's warriors in the battle: who took part, out of action (models of a
    group), enemies put out of action, the scenario's awards, the leader and the scenario's
    wyrdstone. Warriors who must miss the game or are held captive are listed, not offered."""
    battle = get_battle_for_user(request, pk)
    participant = (
        battle.participants.select_related("warband__owner", "warband__warband_type")
        .filter(warband_id=warband_pk)
        .first()
    )
    if participant is None:
        raise Http404("That warband did not fight in this battle.")
    report_permissions.check_opens_side(request.user, battle, participant)
    warband = participant.warband
    played = scenarios.scenario(battle.scenario_key)
    warriors = list(
        sides.fighters(warband)
        .select_related("warrior_type")
        .order_by("-is_leader", "-is_hero", "pk")
    )
    # What the side said, or what the battle helper wrote at the end of the game (each player
    # checks and saves it); none yet: everybody took part and stood.
    existing = {o.warrior_id: o for o in WarriorOutcome.objects.filter(participant=participant)}
    data = request.POST if request.method == "POST" else None
    rows = side_rows(data, warriors, played, existing=existing)
    leader = participant.leader_id or next((w.pk for w in warriors if w.is_leader), None)
    form = SideForm(
        data,
        played=played,
        initial={
            "leader": leader,
            "shards": participant.scenario_shards,
            "role": participant.role,
        },
    )
    refused = False
    if data is not None:
        outcomes = side_outcomes(rows)
        refused = not form.is_valid() or outcomes is None
        if not refused:
            try:
                sides.enter_side(
                    battle, warband, actor=request.user, outcomes=outcomes,
                    leader_id=form.cleaned_data["leader"],
                    scenario_shards=form.cleaned_data["shards"] or 0,
                    role=form.cleaned_data.get("role", ""),
                )  # fmt: skip
            except RuleViolation as refusal:
                with_refusal(form, refusal)
                refused = True
            else:
                messages.success(
                    request,
                    f"What the warriors of {warband.name} did is entered: the other players "
                    "confirm once every side is in.",
                )
                return redirect("battle_detail", battle.pk)
    enemies = (
        Warrior.objects.filter(warband__participations__battle=battle, status__in=Warrior.ON_ROSTER)
        .exclude(warband=warband)
        .select_related("warband")
        .order_by("warband__name", "-is_leader", "-is_hero", "pk")
    )
    options = format_html_join(
        "", '<option value="{}">{} ({})</option>', ((e.pk, e.name, e.warband.name) for e in enemies)
    )
    for row in rows:
        row.drawn_for(lambda: options)
    heroes = [w for w in warriors if w.is_hero]
    form.drawn_for(heroes)
    return render(
        request,
        "battles/report/side.html",
        {
            "battle": battle,
            "participant": participant,
            "warband": warband,
            "played": played,
            "rows": rows,
            "form": form,
            "absent": sides.absentees(warband),
            "refused": refused,
            "for_player": warband.owner_id != request.user.pk,
        },
        status=422 if refused else 200,
    )


@require_POST
def battle_side_as_recorded(request: HttpRequest, pk: int, warband_pk: int) -> HttpResponse:
    """One press after a game played with the battle helper: the player's side saved as the
    helper wrote it and the battle confirmed for him (an organiser only saves an absent
    player's side). Refused, the battle's board says why where the button was."""
    battle = get_battle_for_user(request, pk)
    participant = battle.participants.select_related("warband").filter(warband_id=warband_pk)
    participant = participant.first()
    if participant is None:
        raise Http404("That warband did not fight in this battle.")
    report_permissions.check_enters(request.user, battle, participant)
    form = AsRecordedForm(request.POST)
    if form.is_valid():
        try:
            services.confirm_side_as_recorded(
                battle, participant.warband, actor=request.user,
                version=form.cleaned_data["version"],
            )  # fmt: skip
        except RuleViolation as refusal:
            with_refusal(form, refusal)
        else:
            messages.success(
                request, f"{possessive(participant.warband.name)} side is saved as recorded."
            )
            return board_after_post(request, battle)
    return board_after_post(request, battle, refused=("as_recorded", form))
