"""The captives page of a warband: the heroes it holds and its own heroes held by enemies
(campaigns text, serious injury 61, Captured).

The warband's player and the campaign's organisers open it; only the player acts, through
``battles.captives.holding`` and ``battles.captives.fates``. Thin views: parse the form, call one
service, then show the board again (for htmx, the ``#captives-board`` partial; a refusal comes
back as the same partial with its reason, status 422).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from battles.captives import exchange, ransom
from battles.captives import fates as captive_fates
from battles.captives import holding as captives
from battles.captives import permissions as captive_permissions
from battles.captives.forms import AcceptForm, ExchangeForm, FateForm, PayForm, RansomForm
from battles.dice import dice_for
from battles.models import Captive
from core.dice import DiceError
from core.errors import RuleViolation
from core.htmx import first_message, refuse, with_refusal
from core.options import OptionList, render_options
from warbands.models import StorageContainer, Warband, WarriorItem
from warbands.permissions import can_edit_warband, can_see_treasury, get_warband_for_user


def _with_items(*lists: list[Captive]) -> None:
    """What each captive carries (``warrior.carrying``): it goes home with him, or stays with
    the captor. One query for all of them."""
    warriors = [captive.warrior for held in lists for captive in held]
    carrying: dict[int, list[str]] = {warrior.pk: [] for warrior in warriors}
    if warriors:
        items = WarriorItem.objects.filter(warrior__in=warriors).select_related("item")
        for owned in items.order_by("pk"):
            carrying[owned.warrior_id].append(owned.item.name)
    for warrior in warriors:
        warrior.carrying = carrying[warrior.pk]


def _forms_of(captive: Captive, refused, fresh: dict) -> dict:
    """The captive's forms by name, the refused one (when it was posted for him) in place
    of its fresh one."""
    forms = {}
    for name, (kind, make) in fresh.items():
        posted = refused[1] if refused and refused[0] == captive.pk else None
        forms[name] = posted if isinstance(posted, kind) else make()
    return forms


def captives_context(request: HttpRequest, warband: Warband, *, refused=None, done="") -> dict:
    """``refused``: (the captive's pk, the posted form refused for him), drawn in place of that
    form with its messages."""
    held, taken = captives.held_by(warband), captives.held_from(warband)
    _with_items(held, taken)
    may_act = can_edit_warband(request.user, warband)
    context = {
        # A ransom is gold for one treasury from another: the two players know it, and an
        # organiser only when he may see the warband's treasury.
        "sees_prices": can_see_treasury(request.user, warband),
        "warband": warband,
        "held": held,
        "taken": taken,
        "history": captives.history(warband),
        "may_act": may_act,
        "refused_at": refused[0] if refused else None,
        "refusal": refused[1] if refused else None,
        "done": done,
    }
    placed = False
    if may_act:
        # The player's own containers, with what each holds: he alone sees these forms.
        containers = OptionList(
            StorageContainer.objects.real()
            .filter(warband=warband)
            .select_related("holder")
            .order_by("pk")
        )
        paying = OptionList(c for c in containers if c.gold_crowns)
        options = partial(render_options, containers, "contents")
        gold = partial(render_options, paying, "contents")
        for captive in held:
            captive.exchangeable = [t for t in taken if t.captor_id == captive.warrior.warband_id]
            captive.forms = _forms_of(captive, refused, {
                "ransom": (RansomForm, lambda: RansomForm(warband=warband)),
                "exchange": (ExchangeForm, lambda c=captive: ExchangeForm(captive=c)),
                "fate": (FateForm, lambda: FateForm(warband=warband)),
            })  # fmt: skip
            forms = captive.forms
            forms["ransom"].drawn_for(captive, options)
            forms["exchange"].drawn_for(captive)
            forms["fate"].drawn_for(captive, options)
            placed |= captive.pk == context["refused_at"]
        for captive in taken:
            captive.forms = _forms_of(captive, refused, {
                "pay": (PayForm, lambda: PayForm(warband=warband)),
                "accept": (AcceptForm, AcceptForm),
            })  # fmt: skip
            captive.forms["pay"].drawn_for(captive, gold)
            captive.forms["accept"].drawn_for(captive)
            placed |= captive.pk == context["refused_at"]
        context.update(paying=paying)
    # a refusal for a captive the page no longer shows: its message above the board
    context["unplaced"] = first_message(refused[1]) if refused and not placed else ""
    return context


def _board(request: HttpRequest, warband: Warband, *, refused=None, done: str = ""):
    if refused is not None:
        return refuse(
            request,
            refused[1],
            partial="battles/captives/captives.html#captives-board",
            context=lambda: captives_context(request, warband, refused=refused),
            page=reverse("warband_captives", args=[warband.pk]),
        )
    if not request.htmx:
        if done:
            messages.success(request, done)
        return redirect("warband_captives", warband.pk)
    return render(
        request,
        "battles/captives/captives.html#captives-board",
        captives_context(request, warband, done=done),
    )


def _act(
    request: HttpRequest, warband: Warband, captive: Captive, form, change: Callable[[dict], str]
) -> HttpResponse:
    """The board after ``captive``'s form: the form with its messages or the service's
    refusal (status 422, nothing changed), else the board with what ``change`` (given the
    cleaned data) did."""
    if not form.is_valid():
        return _board(request, warband, refused=(captive.pk, form))
    try:
        done = change(form.cleaned_data)
    except (RuleViolation, DiceError) as refusal:
        return _board(request, warband, refused=(captive.pk, with_refusal(form, refusal)))
    return _board(request, warband, done=done)


def _held(warband: Warband, pk: int) -> Captive:
    """A captive the warband holds (404 for any other)."""
    return get_object_or_404(
        Captive.objects.select_related("warrior", "captor"), pk=pk, captor=warband
    )


def _taken(warband: Warband, pk: int) -> Captive:
    """One of the warband's heroes held by an enemy (404 for any other)."""
    return get_object_or_404(
        Captive.objects.select_related("warrior", "captor"), pk=pk, warrior__warband=warband
    )


@require_GET
def warband_captives(request: HttpRequest, pk: int) -> HttpResponse:
    warband = get_warband_for_user(request, pk)
    captive_permissions.check_sees_captives(request.user, warband)
    return render(request, "battles/captives/captives.html", captives_context(request, warband))


@require_POST
def captive_ransom(request: HttpRequest, pk: int, captive_pk: int) -> HttpResponse:
    warband = get_warband_for_user(request, pk, write=True)
    captive = _held(warband, captive_pk)

    def change(data: dict) -> str:
        ransom.set_ransom(captive, actor=request.user, ransom=data["ransom"], into=data["into"])
        name = captive.warrior.name
        if data["ransom"] is None:
            return f"The ransom for {name} is withdrawn."
        return f"You ask {data['ransom']} gc for {name}, paid into the {data['into']}."

    return _act(request, warband, captive, RansomForm(request.POST, warband=warband), change)


@require_POST
def captive_exchange(request: HttpRequest, pk: int, captive_pk: int) -> HttpResponse:
    warband = get_warband_for_user(request, pk, write=True)
    captive = _held(warband, captive_pk)

    def change(data: dict) -> str:
        offered = data["for_captive"]
        exchange.offer_exchange(captive, actor=request.user, for_captive=offered)
        if offered is None:
            return f"The exchange offered for {captive.warrior.name} is withdrawn."
        return f"You offer {captive.warrior.name} in exchange for {offered.warrior.name}."

    return _act(request, warband, captive, ExchangeForm(request.POST, captive=captive), change)


@require_POST
def captive_fate(request: HttpRequest, pk: int, captive_pk: int) -> HttpResponse:
    warband = get_warband_for_user(request, pk, write=True)
    captive = _held(warband, captive_pk)

    def change(data: dict) -> str:
        dice = dice_for(captive.battle, entered=data["dice"], warband=warband, user=request.user)
        return captive_fates.decide_fate(
            captive, actor=request.user, fate=data["fate"], into=data["into"], dice=dice
        )

    return _act(request, warband, captive, FateForm(request.POST, warband=warband), change)


@require_POST
def captive_pay(request: HttpRequest, pk: int, captive_pk: int) -> HttpResponse:
    warband = get_warband_for_user(request, pk, write=True)
    captive = _taken(warband, captive_pk)

    def change(data: dict) -> str:
        ransom.pay_ransom(
            captive, actor=request.user, pay_from=data["pay_from"], amount=data["amount"]
        )
        return f"{captive.warrior.name} is back, ransomed for {data['amount']} gc."

    return _act(request, warband, captive, PayForm(request.POST, warband=warband), change)


@require_POST
def captive_accept(request: HttpRequest, pk: int, captive_pk: int) -> HttpResponse:
    warband = get_warband_for_user(request, pk, write=True)
    captive = _taken(warband, captive_pk)

    def change(data: dict) -> str:
        mine, theirs = exchange.accept_exchange(
            captive, actor=request.user, offered=data["offered"]
        )
        return f"{mine.warrior.name} is back; {theirs.warrior.name} went home."

    return _act(request, warband, captive, AcceptForm(request.POST), change)
