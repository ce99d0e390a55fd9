"""The treasury page: the owner's containers, their contents and the ledger.

Only the warband's owner (and an organiser, read-only, when the campaign lets organisers see
secrets) opens it; everything it shows comes through ``campaign.permissions``. Every form swaps
``#treasury-board``; a refusal comes back as the same partial with its reason, status 422.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaign import permissions
from campaign.pagecache import page_cached
from warbands import treasury
from warbands.models import (
    LedgerEntry,
    StorageContainer,
    VesselItem,
    Warband,
    Warrior,
    WarriorItem,
)
from warbands.rules import RuleViolation
from warbands.rules import containers as container_rules
from warbands.treasury_forms import (
    BuyContainerForm,
    EquipForm,
    LedgerFilterForm,
    MoveItemForm,
    MoveTreasureForm,
    PlaceContainerForm,
    SellContainerForm,
    StoreItemForm,
    VesselForm,
)

LEDGER_PAGE = 50


def _containers(warband: Warband):
    return (
        StorageContainer.objects.held()
        .filter(warband=warband)
        .select_related("warband__campaign", "warband__owner", "holder", "parent")
        .prefetch_related("stored_items")
        .order_by("kind", "pk")
    )


def _ledger(request: HttpRequest, warband: Warband):
    form = LedgerFilterForm(request.GET or None, warband=warband)
    entries = LedgerEntry.objects.filter(warband=warband).select_related(
        "container", "actor", "battle"
    )
    if form.is_valid():
        if form.cleaned_data["container"]:
            entries = entries.filter(container=form.cleaned_data["container"])
        if form.cleaned_data["kind"]:
            entries = entries.filter(kind=form.cleaned_data["kind"])
        if form.cleaned_data["reason"]:
            entries = entries.filter(reason=form.cleaned_data["reason"])
        if form.cleaned_data["battle"]:
            entries = entries.filter(battle=form.cleaned_data["battle"])
    return form, _page(entries, request.GET.get("page"))


def _page(entries, number) -> Page:
    """A page of the ledger in one query: each row carries the total (an uncorrelated
    subquery, counted once) that Django's paginator would otherwise count in a query of its
    own; the page is read newest first through the ``ledger_recent`` index. An empty ledger,
    or a page number past the end, falls back to the paginator (it counts, then shows the
    last page)."""
    try:
        number = max(int(number), 1)
    except (TypeError, ValueError):
        number = 1
    start = (number - 1) * LEDGER_PAGE
    total = entries.order_by().values("warband").annotate(n=Count("pk")).values("n")[:1]
    rows = list(entries.annotate(total=Subquery(total))[start : start + LEDGER_PAGE])
    paginator = Paginator(entries, LEDGER_PAGE)
    if not rows:
        return paginator.get_page(number)
    paginator.count = rows[0].total  # a cached_property: the count is known
    return Page(rows, number, paginator)


def treasury_context(request: HttpRequest, warband: Warband, *, error: str = "") -> dict:
    containers = list(_containers(warband))
    views = permissions.visible_containers(request.user, containers)
    pile = next(
        (v for v in views if v.kind == StorageContainer.LOOSE and v.contents and v.contents.held),
        None,
    )  # treasure outside any container; the pile row stays once a step made it, often empty
    warriors = list(
        Warrior.objects.on_roster()
        .filter(warband=warband)
        .prefetch_related(Prefetch("items", queryset=WarriorItem.objects.select_related("item")))
    )
    ledger_form, ledger_page = _ledger(request, warband)
    coaches = [c for c in containers if c.kind == "opulent_coach"]
    editable = permissions.can_edit_warband(request.user, warband)
    return {
        "warband": warband,
        "can_edit": editable,
        "containers": [v for v in views if v.kind != StorageContainer.LOOSE],
        "pile": pile,
        "totals": treasury.totals_of(containers),
        "warriors": warriors,
        "heroes": [w for w in warriors if w.is_hero],
        "vessels": list(VesselItem.objects.filter(warband=warband).select_related("coach")),
        "coaches": coaches,
        "carriers": [c for c in containers if c.kind in container_rules.CARRIERS],
        "boxes": container_rules.BOXES,
        "targets": [c for c in containers if c.kind != StorageContainer.LOOSE],
        "buyable": BuyContainerForm(warband=warband).fields["kind"].choices,
        "ledger_form": ledger_form,
        "ledger_page": ledger_page,
        "error": error,
    }


def _board(request: HttpRequest, warband: Warband, *, error: str = "") -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("warband_treasury", warband.pk)
    return render(
        request,
        "warbands/warband_treasury.html#treasury-board",
        treasury_context(request, warband, error=error),
        status=422 if error else 200,
    )


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        if field in form.fields:
            return f"{form.fields[field].label or field.capitalize()}: {errors[0]}"
        return errors[0]
    return "Please check the form."


@page_cached
@require_GET
def warband_treasury(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk)
    context = treasury_context(request, warband)
    if request.htmx and request.htmx.target == "ledger":
        return render(request, "warbands/warband_treasury.html#ledger", context)
    return render(request, "warbands/warband_treasury.html", context)


@require_POST
def treasury_move(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    form = MoveTreasureForm(request.POST, warband=warband)
    if not form.is_valid():
        return _board(request, warband, error=_first_error(form))
    try:
        treasury.move_treasure(
            form.cleaned_data["source"],
            form.cleaned_data["target"],
            actor=request.user,
            gold=form.cleaned_data["gold"],
            wyrdstone=form.cleaned_data["wyrdstone"],
        )
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal))
    return _board(request, warband)


@require_POST
def treasury_buy(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    form = BuyContainerForm(request.POST, warband=warband)
    if not form.is_valid():
        return _board(request, warband, error=_first_error(form))
    try:
        treasury.buy_container(
            warband,
            form.cleaned_data["kind"],
            actor=request.user,
            pay_from=form.cleaned_data["pay_from"],
            holder=form.cleaned_data["holder"],
        )
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal))
    return _board(request, warband)


@require_POST
def container_sell(request: HttpRequest, pk: int) -> HttpResponse:
    container = permissions.get_container_for_user(request, pk)
    form = SellContainerForm(request.POST, warband=container.warband)
    if not form.is_valid():
        return _board(request, container.warband, error=_first_error(form))
    try:
        treasury.sell_container(
            container, actor=request.user, proceeds_to=form.cleaned_data["proceeds_to"]
        )
    except RuleViolation as refusal:
        return _board(request, container.warband, error=str(refusal))
    return _board(request, container.warband)


@require_POST
def container_place(request: HttpRequest, pk: int) -> HttpResponse:
    container = permissions.get_container_for_user(request, pk)
    form = PlaceContainerForm(request.POST, warband=container.warband)
    if not form.is_valid():
        return _board(request, container.warband, error=_first_error(form))
    try:
        treasury.place_container(container, form.cleaned_data["parent"], actor=request.user)
    except RuleViolation as refusal:
        return _board(request, container.warband, error=str(refusal))
    return _board(request, container.warband)


@require_POST
def container_move_item(request: HttpRequest, pk: int) -> HttpResponse:
    container = permissions.get_container_for_user(request, pk)
    form = MoveItemForm(request.POST, container=container)
    if not form.is_valid():
        return _board(request, container.warband, error=_first_error(form))
    try:
        treasury.move_stored_item(
            form.cleaned_data["stored_item"], form.cleaned_data["target"], actor=request.user
        )
    except RuleViolation as refusal:
        return _board(request, container.warband, error=str(refusal))
    return _board(request, container.warband)


@require_POST
def container_equip(request: HttpRequest, pk: int) -> HttpResponse:
    container = permissions.get_container_for_user(request, pk)
    form = EquipForm(request.POST, container=container)
    if not form.is_valid():
        return _board(request, container.warband, error=_first_error(form))
    try:
        treasury.equip_stored_item(
            form.cleaned_data["stored_item"], form.cleaned_data["warrior"], actor=request.user
        )
    except RuleViolation as refusal:
        return _board(request, container.warband, error=str(refusal))
    return _board(request, container.warband)


@require_POST
def warrior_store_item(request: HttpRequest, pk: int) -> HttpResponse:
    warrior = permissions.get_warrior_for_user(request, pk, write=True)
    warband = warrior.warband
    form = StoreItemForm(request.POST, warrior=warrior)
    if not form.is_valid():
        return _board(request, warband, error=_first_error(form))
    try:
        treasury.store_warrior_item(
            form.cleaned_data["owned"], form.cleaned_data["target"], actor=request.user
        )
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal))
    return _board(request, warband)


@require_POST
def vessel_place(request: HttpRequest, pk: int) -> HttpResponse:
    vessel = get_object_or_404(VesselItem, pk=pk)
    warband = permissions.get_treasury_for_user(request, vessel.warband_id, write=True)
    form = VesselForm(request.POST, warband=warband)
    if not form.is_valid():
        return _board(request, warband, error=_first_error(form))
    try:
        treasury.place_vessel_item(vessel, form.cleaned_data["coach"], actor=request.user)
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal))
    return _board(request, warband)
