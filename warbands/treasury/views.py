"""The treasury page: the owner's containers, their contents and the ledger.

Only the warband's owner (read-only once the campaign is closed or archived) and an organiser
(read-only, when the campaign lets organisers see secrets) open it; everything it shows comes
through ``warbands.permissions`` (the board, ``board.TreasuryBoard``). Every form swaps
``#treasury-board``; a refusal comes back as the same partial with the posted form and its
messages beside its fields, status 422, nothing changed. A move of gold or wyrdstone answers
with only what it changed (``_moved``): the board is the page's heaviest part to draw. The
post-battle steps post the same forms (``forms``) to the sequence.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from core.errors import RuleViolation
from core.htmx import refuse
from warbands import permissions
from warbands.models import StorageContainer, Warband
from warbands.rules import containers as container_rules
from warbands.treasury import forms
from warbands.treasury.board import TreasuryBoard
from warbands.treasury.queries import with_stored_items


def treasury_context(request: HttpRequest, warband: Warband, *, refused=None) -> dict:
    """``read_only``: the campaign is closed or archived, and its owner reads the treasury
    with every form hidden: he keeps his records. ``refused``: (name, the posted form with its
    messages), drawn in place of that form."""
    can_edit = permissions.can_edit_warband(request.user, warband)
    return {
        "warband": warband,
        "can_edit": can_edit,
        "read_only": not can_edit and not warband.campaign.is_open,
        "organisers_see": permissions.organisers_see_treasuries(warband),
        "board": TreasuryBoard(request.user, warband, request=request, refused=refused),
    }


def _board(request: HttpRequest, warband: Warband, *, refused=None) -> HttpResponse:
    """The board after a post: with the refused form and status 422, or as the change left
    it; after a change the ledger, which is not part of the board, reloads itself."""
    if refused:
        return refuse(
            request,
            refused[1],
            partial="warbands/warband_treasury.html#treasury-board",
            context=lambda: treasury_context(request, warband, refused=refused),
            page=reverse("warband_treasury", args=[warband.pk]),
        )
    if not request.htmx:
        return redirect("warband_treasury", warband.pk)
    response = render(
        request,
        "warbands/warband_treasury.html#treasury-board",
        treasury_context(request, warband),
    )
    response["HX-Trigger"] = "ledger-changed"
    return response


def _moved(
    request: HttpRequest,
    warband: Warband,
    moved: tuple[StorageContainer, StorageContainer],
    before: list[StorageContainer] | None,
) -> HttpResponse:
    """After gold or wyrdstone moved between two containers: only what changed, swapped out of
    band, and the ledger reloads itself (``ledger-changed``). That is the two cards, a fresh
    one-time token for the move form (its lists of containers stay as they were), its cleared
    messages and, when a container became empty or stopped being so, the list of containers
    to sell. ``before``: the two as the form read them; ``moved``: as they are now. A move
    out of the unstored pile can empty it, which changes more of the board: that redraws the
    board."""
    if before is None or any(c.kind == StorageContainer.LOOSE for c in moved):
        return _board(request, warband)
    earlier = {c.pk: c for c in before}
    for container in moved:
        container.holder = earlier[container.pk].holder
        container.parent = earlier[container.pk].parent
        container.warband = warband
    with_stored_items([c for c in moved if c.item_count])
    for container in moved:
        if not container.item_count:
            container.stored_list = []
    carriers = [c.pk for c in moved if c.kind in container_rules.CARRIERS]
    carried = list(StorageContainer.objects.held().filter(parent__in=carriers)) if carriers else []
    emptied = {c.pk for c in before if c.is_empty} != {c.pk for c in moved if c.is_empty}
    context = {
        **treasury_context(request, warband),
        "changed": permissions.visible_containers(request.user, moved, among=[*moved, *carried]),
        "sell_changed": emptied,
    }
    response = render(request, "warbands/treasury/_moved.html", context)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = "ledger-changed"
    return response


@require_GET
def warband_treasury(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk)
    context = treasury_context(request, warband)
    if request.htmx and request.htmx.target == "ledger":
        return render(request, "warbands/warband_treasury.html#ledger", context)
    return render(request, "warbands/warband_treasury.html", context)


def _changed(request: HttpRequest, warband: Warband, name: str, form, apply=None) -> HttpResponse:
    """The board after the form ``name`` changed the treasury (``apply``, by default the
    form's own, with the player as the actor); refused, the board with the form and its
    messages (a field's beside it, the service's at the form), status 422, nothing changed."""
    if form.is_valid():
        try:
            (apply or form.apply)(actor=request.user)
        except RuleViolation as refusal:
            forms.refused(form, refusal)
    if form.errors:
        return _board(request, warband, refused=(name, form))
    return _board(request, warband)


@require_POST
def treasury_move(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    form = forms.MoveTreasureForm(request.POST, warband=warband)
    if not form.is_valid():
        return _board(request, warband, refused=("move", form))
    try:
        moved = form.apply(actor=request.user)
    except RuleViolation as refusal:
        return _board(request, warband, refused=("move", forms.refused(form, refusal)))
    if not request.htmx:
        return _board(request, warband)
    return _moved(request, warband, moved, form.held_containers)


def _form_view(name: str, form_class: type) -> Callable[..., HttpResponse]:
    """The view that posts ``form_class`` (the form ``name`` of the board) for the treasury's
    owner: the board as it changed, or refused with the form's messages (``_changed``)."""

    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        warband = permissions.get_treasury_for_user(request, pk, write=True)
        return _changed(request, warband, name, form_class(request.POST, warband=warband))

    view.__name__ = view.__qualname__ = f"treasury_{name}"
    return view


treasury_store_pile = _form_view("store_pile", forms.StorePileForm)
treasury_move_item = _form_view("move_item", forms.MoveItemForm)
treasury_equip = _form_view("equip", forms.EquipForm)
treasury_store = _form_view("store_item", forms.StoreItemForm)
treasury_buy = _form_view("buy", forms.BuyContainerForm)
treasury_sell = _form_view("sell", forms.SellContainerForm)
treasury_name = _form_view("name", forms.NameContainerForm)
treasury_place = _form_view("place", forms.PlaceContainerForm)


@require_POST
def vessel_place(request: HttpRequest, pk: int) -> HttpResponse:
    vessel = permissions.get_vessel_for_user(request, pk)
    warband = permissions.get_treasury_for_user(request, vessel.warband_id, write=True)
    form = forms.VesselForm(request.POST, warband=warband)
    return _changed(request, warband, f"vessel-{vessel.pk}", form, partial(form.apply, vessel))
