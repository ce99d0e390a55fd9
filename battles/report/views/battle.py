"""Battle pages: report a battle, confirm or dispute it, random fortune, and step 0 of the
post-battle sequence (carried items at the end of the game).

Thin views: parse the form, call one service, then show the battle page again (for htmx, the
``#battle-board`` partial; a refusal comes back as the same partial with its reason, 422).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles import permissions
from battles.aftermath import carried_items
from battles.aftermath import permissions as aftermath_permissions
from battles.dice import dice_for
from battles.forms import rolled_key, scenario_picker
from battles.models import Battle, CarriedItemAtEnd, Participant, StepRecord, WarriorOutcome
from battles.permissions import get_battle_for_user
from battles.report import at_the_end, fortune, services, sides
from battles.report import permissions as report_permissions
from battles.report.forms import (
    CarriedItemsForm,
    ChoosingForm,
    DiscoveryForm,
    MarkersForm,
    RecordForm,
    RecoverForm,
    ReportForm,
    RespondForm,
    carried_item_declarations,
    carried_item_rows,
    participant_rows,
    reported_results,
)
from battles.report.views.board import BattleForms
from battles.schedule import starting
from campaign import fragments
from campaign.permissions import can_run_campaign, get_campaign_for_user
from core.dice import DiceError, MoreDice, roll_need
from core.errors import RuleViolation
from core.htmx import Refusal, refuse, with_refusal
from warbands.models import Warband
from warbands.permissions import can_see_treasury


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def battle_context(
    request: HttpRequest, battle: Battle, *, refused=None, asking: dict | None = None
) -> dict:
    """``refused``: (the form's name on the board, the posted form refused), drawn in place
    of that form with its messages; ``asking``: the recovery form again, for a further roll."""
    participants = list(
        battle.participants.select_related(
            "warband", "warband__owner", "confirmed_by", "sequence", "declaration_proposed_by",
            "leader", "side_entered_by",
        )
    )  # fmt: skip
    mine = [p for p in participants if p.warband.owner_id == request.user.pk]
    organiser = can_run_campaign(request.user, battle.campaign)
    # What an organiser does for the players, only in a battle he did not fight in
    # (``permissions.acts_for_players``), read from the participants loaded.
    for_players = organiser and not mine
    outcomes = list(
        WarriorOutcome.objects.filter(participant__battle=battle).select_related(
            "warrior", "participant__warband", "participant__battle", "taken_out_by"
        )
    )
    items = list(
        battle.carried_items.select_related("owner", "controlled_by", "secured_by").order_by(
            "owner__name", "pk"
        )
    )
    turn = carried_items.chooser(battle)
    discoveries = list(battle.discoveries.select_related("warband"))
    context = {
        "battle": battle,
        "participants": participants,
        "outcomes": outcomes,
        # Each side enters its own warriors (battles.report.sides): who may, and who has not yet.
        "sides": [(p, report_permissions.may_enter(request.user, battle, p)) for p in participants],
        "missing_sides": sides.missing_sides(participants),
        "mine": mine,
        "pending_mine": [p for p in mine if p.confirmation != Participant.Confirmation.CONFIRMED],
        "is_organiser": organiser,
        "acts_for_players": for_players,
        "may_edit": report_permissions.may_edit(request.user, battle),
        "may_play": battle.campaign.is_open and (bool(mine) or organiser),
        "items": items,
        "pending_items": [i for i in items if i.outcome == CarriedItemAtEnd.Outcome.PENDING],
        "undeclared": [p for p in participants if not p.carried_items_declared],
        # An organiser's declaration for a player, waiting for the player to confirm it.
        "proposed": {
            p.warband_id: p.declaration_proposed_by
            for p in participants
            if p.declaration_proposed_by_id and not p.carried_items_declared
        },
        "turn": turn,
        "my_turn": turn is not None and (turn.owner_id == request.user.pk or for_players),
        "discoveries": discoveries,
        # Each marker is tested once, by the warband that reached it (battles.report.fortune).
        "markers_left": max((battle.fortune_markers or 0) - len(discoveries), 0),
        "testers": [
            p
            for p in participants
            if report_permissions.may_test_for(request.user, battle, p.warband)
        ],
        "placement": fortune.placement(battle) if battle.fortune_markers else [],
        # What each dice field takes; the table's, read when shown.
        "markers_roll": fortune.MARKERS,
        "placement_rolloff": fortune.placement_rolloff(participants),
        "discovery_test": fortune.DISCOVERY_TEST,
        "table_roll": lambda: fortune.table_roll(
            battle.fortune_table, listed=bool(fortune.fortune_rows(battle))
        ),
        "choosing_rolloff": carried_items.choosing_rolloff(carried_items.sides_of(participants)),
        "recovery_roll": carried_items.first_recovery_roll(carried_items.sides_of(participants)),
        "asking": asking,
        "dice_rolls": permissions.visible_dice(
            request.user,
            battle.dice_rolls.select_related("warband__campaign", "warband__owner", "rolled_by"),
        ),
        "sequences": [(p, getattr(p, "sequence", None)) for p in participants]
        if battle.status == Battle.Status.CONFIRMED
        else [],
        "history": list(
            StepRecord.objects.filter(
                sequence__participant__battle=battle, undone_at__isnull=False
            ).select_related("sequence__participant__warband", "undone_by")
        ),
        "refusal": refused[1] if refused else None,
    }
    context["forms"] = BattleForms(context, refused=refused, asking=asking)
    return context


def _board(
    request: HttpRequest, battle: Battle, *, refused=None, asking: dict | None = None
) -> HttpResponse:
    """The board after a post; ``refused``: (name, the refused form); ``asking``: the recovery
    form again, for a further roll (the whole page without htmx, which a redirect would
    lose)."""
    if refused is not None:
        battle.refresh_from_db()
        return refuse(
            request,
            refused[1],
            partial="battles/report/detail.html#battle-board",
            context=lambda: battle_context(request, battle, refused=refused),
            page=reverse("battle_detail", args=[battle.pk]),
        )
    if not request.htmx and not asking:
        return redirect("battle_detail", battle.pk)
    battle.refresh_from_db()
    context = battle_context(request, battle, asking=asking)
    status = 422 if asking else 200
    if not request.htmx:
        board = render_to_string("battles/report/detail.html#battle-board", context, request)
        return render(
            request, "battles/report/detail.html", {"battle": battle, "board": board}, status=status
        )
    return render(request, "battles/report/detail.html#battle-board", context, status=status)


board_after_post = _board  # the board after a post of the feature's other views


@require_GET
def battle_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The battle's board as this user sees it (their warbands' secret rolls, their forms),
    kept under the battle's version and the user while it holds no form
    (``campaign.fragments``): a battle whose report and step 0 are settled."""
    battle = get_battle_for_user(request, pk)
    board = fragments.kept(
        battle,
        "battle-board",
        battle.pk,
        request.user.pk,
        draw=lambda: render_to_string(
            "battles/report/detail.html#battle-board",
            battle_context(request, battle),
            request=request,
        ),
    )
    return render(request, "battles/report/detail.html", {"battle": battle, "board": board})


# --- Reporting -----------------------------------------------------------------------------


def _warbands_that_fight(campaign):
    return (
        Warband.objects.in_campaign(campaign)
        .filter(status=Warband.Status.ACTIVE)
        .select_related("owner", "warband_type")
    )


def _report_page(request, template: str, campaign, *, record: bool) -> HttpResponse:
    warbands = _warbands_that_fight(campaign)
    data = request.POST if request.method == "POST" else None
    picked = scenario_picker(request, campaign, back="record" if record else "report")
    # a planned game (``?fixture=``, then a hidden field) fills in its warbands and scenario
    planned = starting.planned(campaign, (data or request.GET).get("fixture"))
    initial = {"scenario_key": rolled_key(request), **planned.form}
    form = (RecordForm if record else ReportForm)(data, initial=initial, shown=picked["shown"])
    rows = participant_rows(data, warbands, initial=planned.rows)
    errors: list[str] = [planned.problem] if planned.problem else []
    if request.method == "POST":
        results, found = reported_results(rows)
        errors += found
        if form.is_valid() and not errors:
            fields = dict(form.cleaned_data)
            if not record:
                fields["fortune_table"] = fields.get("fortune_table") or "d66"
            try:
                service = services.record_battle if record else services.report_battle
                battle = service(
                    actor=request.user, campaign=campaign, results=results,
                    fixture_id=planned.fixture_id, **fields,
                )  # fmt: skip
            except RuleViolation as refusal:
                errors.append(str(refusal))
            else:
                return _after_report(request, battle, record=record)
    context = {"campaign": campaign, "form": form, "rows": rows, "errors": errors, **picked}
    status = 422 if data is not None and (errors or form.errors) else 200
    return render(request, template, {**context, "fixture": planned.fixture}, status=status)


def _after_report(request, battle: Battle, *, record: bool) -> HttpResponse:
    """The reporter goes on to enter his own warriors; an organiser who fought in none of
    the warbands goes to the battle, where each side's entry waits."""
    own = battle.participants.filter(warband__owner=request.user).first()
    if own is None:
        messages.success(
            request,
            f"{battle} is {'recorded' if record else 'reported'}: each player now enters what "
            "his warriors did (you may, for an absent player), then they confirm.",
        )
        return redirect("battle_detail", battle.pk)
    messages.success(request, "Battle reported. Now say what each of your warriors did.")
    return redirect("battle_side", battle.pk, own.warband_id)


@require_http_methods(["GET", "POST"])
def battle_record(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser records a battle for any two or more warbands of the campaign."""
    campaign = get_campaign_for_user(request, pk, organiser=True)
    return _report_page(request, "battles/report/record.html", campaign, record=True)


@require_http_methods(["GET", "POST"])
def battle_report(request: HttpRequest, pk: int) -> HttpResponse:
    """A participant reports a battle; the other participants confirm or dispute it."""
    campaign = get_campaign_for_user(request, pk, write=True)
    return _report_page(request, "battles/report/report.html", campaign, record=False)


@require_POST
def battle_respond(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle_for_user(request, pk)
    form = RespondForm(request.POST)
    if not form.is_valid():
        return _board(request, battle, refused=("respond", form))
    try:
        services.respond(
            battle,
            actor=request.user,
            agree=form.cleaned_data["agree"] == "yes",
            reason=form.cleaned_data["reason"],
        )
    except RuleViolation as refusal:
        return _board(request, battle, refused=("respond", with_refusal(form, refusal)))
    return _board(request, battle)


@require_POST
def battle_confirm_all(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle_for_user(request, pk)
    try:
        services.confirm_for_everybody(battle, actor=request.user)
    except RuleViolation as refusal:
        return _board(request, battle, refused=("confirm-all", Refusal(str(refusal))))
    return _board(request, battle)


@require_http_methods(["GET", "POST"])
def battle_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct who won, drew, lost and routed: the reporter or an organiser while the report
    waits or is disputed (everybody confirms again), an organiser after confirmation."""
    battle = get_battle_for_user(request, pk)
    confirmed = battle.status == Battle.Status.CONFIRMED
    if confirmed:
        get_campaign_for_user(request, battle.campaign_id, organiser=True)
    report_permissions.check_corrects(request.user, battle)
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
                service = services.correct_result if confirmed else services.correct_report
                service(battle, actor=request.user, results=results)
            except RuleViolation as refusal:
                errors.append(str(refusal))
            else:
                messages.success(request, "Result corrected.")
                return redirect("battle_detail", battle.pk)
    return render(
        request,
        "battles/report/correct.html",
        {"battle": battle, "rows": rows, "errors": errors},
        status=422 if errors else 200,
    )


# --- Random fortune ------------------------------------------------------------------------


@require_POST
def battle_fortune_markers(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle_for_user(request, pk)
    form = MarkersForm(request.POST)
    if not form.is_valid():
        return _board(request, battle, refused=("markers", form))
    try:
        dice, rolloff = (
            dice_for(battle, entered=form.cleaned_data[field], user=request.user)
            for field in ("dice", "rolloff")
        )
        fortune.roll_fortune_markers(battle, actor=request.user, dice=dice, rolloff=rolloff)
    except (RuleViolation, DiceError) as refusal:
        return _board(request, battle, refused=("markers", with_refusal(form, refusal)))
    return _board(request, battle)


@require_POST
def battle_discovery(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle_for_user(request, pk)
    form = DiscoveryForm(request.POST)
    if not form.is_valid():
        return _board(request, battle, refused=("discovery", form))
    warband = Warband.objects.filter(
        pk=form.cleaned_data["warband"], participations__battle=battle
    ).first()
    if warband is None:
        form.add_error("warband", "That warband did not fight in this battle.")
        return _board(request, battle, refused=("discovery", form))
    try:
        test, table = (
            dice_for(battle, entered=form.cleaned_data[field], warband=warband, user=request.user)
            for field in ("dice", "table")
        )
        fortune.test_discovery(
            battle, warband, actor=request.user, dice=test, table=table,
            result=form.cleaned_data["result"],
        )  # fmt: skip
    except (RuleViolation, DiceError) as refusal:
        return _board(request, battle, refused=("discovery", with_refusal(form, refusal)))
    return _board(request, battle)


# --- Step 0: carried items -----------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def battle_declare(request: HttpRequest, pk: int, warband_pk: int) -> HttpResponse:
    """A warband's owner says where each of its carried items ended the game."""
    battle = get_battle_for_user(request, pk)
    participant = get_object_or_404(
        Participant.objects.select_related("warband", "declaration_proposed_by"),
        battle=battle,
        warband_id=warband_pk,
    )
    warband = participant.warband
    owner = warband.owner_id == request.user.pk
    aftermath_permissions.check_declares(request.user, battle, warband)
    items = list(battle.carried_items.filter(owner=warband).select_related("container"))
    # The names the owner gave his containers, for whoever may see inside them (decided once:
    # they are all the warband's while it declares); the table's label (kind and number) for
    # everybody else.
    sees = can_see_treasury(request.user, warband)
    names = {
        item.pk: str(item.container)
        for item in items
        if sees and item.container is not None and item.container.warband_id == warband.pk
    }
    enemies = [
        p.warband
        for p in battle.participants.select_related("warband")
        if p.warband_id != warband.pk
    ]
    data = request.POST if request.method == "POST" else None
    rows = carried_item_rows(data, items, enemies)
    form = CarriedItemsForm(data, start=at_the_end.recorded(participant))
    if data is not None:  # a post that does not redirect was refused: 422 below
        declarations, errors = carried_item_declarations(rows)
        if form.is_valid() and not errors:
            try:
                carried_items.declare_carried_items(
                    battle, warband, actor=request.user, declarations=declarations,
                    **form.cleaned_data,
                )  # fmt: skip
            except RuleViolation as refusal:
                with_refusal(form, refusal)
            else:
                url = reverse("battle_detail", args=[battle.pk]) + "#carried-items"
                return _redirect(request, url)
    return render(
        request,
        "battles/report/declare.html",
        {
            "battle": battle,
            "participant": participant,
            "warband": warband,
            "rows": rows,
            "form": form,
            "names": names,
            "owner": owner,
            "proposed": participant.declaration_proposed_by
            if not participant.carried_items_declared
            else None,
            "refused": data is not None,
        },
        status=422 if data is not None else 200,
    )


@require_POST
def battle_recovery_start(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle_for_user(request, pk)
    form = ChoosingForm(request.POST)
    if not form.is_valid():
        return _board(request, battle, refused=("choosing", form))
    try:
        dice = dice_for(battle, entered=form.cleaned_data["dice"], user=request.user)
        carried_items.start_recovery(battle, actor=request.user, dice=dice)
    except (RuleViolation, DiceError) as refusal:
        return _board(request, battle, refused=("choosing", with_refusal(form, refusal)))
    return _board(request, battle)


@require_POST
def battle_recover(request: HttpRequest, pk: int) -> HttpResponse:
    """Roll for an uncontrolled item; a further roll it leads to, when its first roll was
    typed, is asked for in a field of its own (422: nothing changed yet), the dice typed so
    far kept in the form."""
    battle = get_battle_for_user(request, pk)
    form = RecoverForm(request.POST)
    if not form.is_valid():
        return _board(request, battle, refused=("recover", form))
    data = form.cleaned_data
    item = CarriedItemAtEnd.objects.filter(pk=data["item"], battle=battle).first()
    if item is None:
        form.add_error("item", "That item is not on this battlefield.")
        return _board(request, battle, refused=("recover", form))
    try:
        dice = dice_for(battle, entered=data["dice"], user=request.user)
        carried_items.resolve_item(
            battle, item, actor=request.user, dice=dice, majority_id=data["majority"],
            further=data["then"],
        )  # fmt: skip
    except MoreDice as asked:
        return _board(request, battle, asking=further_roll(data, asked))
    except (RuleViolation, DiceError) as refusal:
        return _board(request, battle, refused=("recover", with_refusal(form, refusal)))
    return _board(request, battle)


def further_roll(data: dict, asked: MoreDice) -> dict:
    """The recovery form again, for the roll ``asked`` for: the item and dice posted, kept."""
    return {
        "item": data["item"],
        "majority": data["majority"],
        "dice": data["dice"],
        "then": [" ".join(map(str, group)) for group in data["then"]],
        "purpose": asked.purpose[:1].upper() + asked.purpose[1:],
        "need": roll_need(asked.n, asked.sides),
    }
