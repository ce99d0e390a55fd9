"""The treasury page: the owner's containers, their contents and the ledger.

Only the warband's owner (and an organiser, read-only, when the campaign lets organisers see
secrets) opens it; everything it shows comes through ``campaign.permissions``. Every form swaps
``#treasury-board``; a refusal comes back as the same partial with its reason, status 422.
A move of gold or wyrdstone answers with only what it changed (``_moved``): the board is the
page's heaviest part to draw.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.db.models import Count, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaign import permissions
from campaign.options import Choices
from warbands import treasury
from warbands.models import (
    LedgerEntry,
    StorageContainer,
    VesselItem,
    Warband,
    Warrior,
)
from warbands.rules import RuleViolation
from warbands.rules import containers as container_rules
from warbands.treasury_forms import (
    BuyContainerForm,
    EquipForm,
    LedgerFilterForm,
    MoveItemForm,
    MoveTreasureForm,
    NameContainerForm,
    PlaceContainerForm,
    SellContainerForm,
    StoreItemForm,
    VesselForm,
)

LEDGER_PAGE = 30  # rows per page of the ledger: about a third of the treasury page


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


def _choices(request: HttpRequest, warband: Warband, held: list[StorageContainer]) -> dict:
    """What the page's forms choose from among the warband's held containers (``held``):
    targets, carriers and boxes to load on them, empty containers to sell; and whether the
    user may change them. Each list is drawn once per page, not once per container."""
    carrying = {c.parent_id for c in held if c.parent_id}
    real = [c for c in held if c.kind != StorageContainer.LOOSE]
    carriers = Choices(c for c in real if c.kind in container_rules.CARRIERS)
    return {
        "warband": warband,
        "can_edit": permissions.can_edit_warband(request.user, warband),
        "carriers": carriers,
        "loadable": Choices(c for c in real if c.kind in container_rules.BOXES) if carriers else [],
        "targets": Choices(real),
        "sellable": Choices(
            c
            for c in real
            if c.kind in treasury.SELLABLE_CONTAINERS and c.is_empty and c.pk not in carrying
        )
        if len(real) > 1
        else [],
    }


def treasury_context(request: HttpRequest, warband: Warband, *, error: str = "") -> dict:
    containers = treasury.held_containers(warband)
    views = permissions.visible_containers(request.user, containers)
    pile = permissions.shown_pile(views)  # treasure outside any container
    warriors = Choices(Warrior.objects.on_roster().filter(warband=warband).with_items())
    ledger_form, ledger_page = _ledger(request, warband)
    return {
        **_choices(request, warband, containers),
        "containers": [v for v in views if v.kind != StorageContainer.LOOSE],
        "pile": pile,
        "totals": treasury.totals_of(containers),
        "warriors": warriors,
        "heroes": [w for w in warriors if w.is_hero],
        # The page's item forms list the items by container, and each warrior's by warrior.
        "stored_groups": [
            (view.name, [(stored.pk, stored.name) for stored in view.contents.items])
            for view in views
            if view.contents
        ],
        "owned_groups": [
            (warrior.name, storable)
            for warrior in warriors
            if (
                storable := [
                    (owned.pk, owned.item.name)
                    for owned in warrior.item_list
                    if owned.item.category not in treasury.NOT_STORABLE
                ]
            )
        ],
        "vessels": list(VesselItem.objects.filter(warband=warband).select_related("coach")),
        "coaches": [c for c in containers if c.kind == "opulent_coach"],
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


def _moved(
    request: HttpRequest,
    warband: Warband,
    moved: tuple[StorageContainer, StorageContainer],
    held: list[StorageContainer] | None,
) -> HttpResponse:
    """After gold or wyrdstone moved between two containers: only the two cards, the move form
    (fresh one-time token) and the cleared error, swapped out of band; the ledger reloads
    itself (``ledger-changed``). The totals do not change. ``held``: the warband's held
    containers as the form read them; ``moved``: the two as they are now. A move out of the
    unstored pile can empty it, which changes more of the board: that redraws the board."""
    now = {c.pk: c for c in moved}
    if held is None or any(c.kind == StorageContainer.LOOSE for c in moved):
        return _board(request, warband)
    changed = [c for c in held if c.pk in now]
    for container in changed:
        for field in ("gold_crowns", "wyrdstone", "item_count"):
            setattr(container, field, getattr(now[container.pk], field))
    treasury.with_stored_items(changed)
    views = permissions.visible_containers(request.user, changed, among=held)
    pile = next((c for c in held if c.kind == StorageContainer.LOOSE and not c.is_empty), None)
    context = {
        **_choices(request, warband, held),
        "changed": views,
        "pile": pile,  # only its pk shows, in the move form
        # read only if a changed card lists stored items (its equip form names the warriors)
        "warriors": Warrior.objects.on_roster().filter(warband=warband),
        "error": "",
    }
    response = render(request, "warbands/_treasury_moved.html", context)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = "ledger-changed"
    return response


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        if field in form.fields:
            return f"{form.fields[field].label or field.capitalize()}: {errors[0]}"
        return errors[0]
    return "Please check the form."


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
        moved = treasury.move_treasure(
            form.cleaned_data["source"],
            form.cleaned_data["target"],
            actor=request.user,
            gold=form.cleaned_data["gold"],
            wyrdstone=form.cleaned_data["wyrdstone"],
        )
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal))
    if not request.htmx:
        return _board(request, warband)
    return _moved(request, warband, moved, form.held_containers)


def _changed(request: HttpRequest, warband: Warband, form, change) -> HttpResponse:
    """The board after a form that changes the treasury: the form's first error or the
    service's refusal (status 422, nothing changed), else the board as ``change`` (called with
    the form's cleaned data) left it."""
    if not form.is_valid():
        return _board(request, warband, error=_first_error(form))
    try:
        change(form.cleaned_data)
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal))
    return _board(request, warband)


@require_POST
def treasury_buy(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    return _changed(
        request,
        warband,
        BuyContainerForm(request.POST, warband=warband),
        lambda data: treasury.buy_container(
            warband, data["kind"], actor=request.user, pay_from=data["pay_from"],
            holder=data["holder"],
        ),
    )  # fmt: skip


@require_POST
def treasury_sell(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    return _changed(
        request,
        warband,
        SellContainerForm(request.POST, warband=warband),
        lambda data: treasury.sell_container(
            data["container"], actor=request.user, proceeds_to=data["proceeds_to"]
        ),
    )


@require_POST
def treasury_place(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    return _changed(
        request,
        warband,
        PlaceContainerForm(request.POST, warband=warband),
        lambda data: treasury.place_container(
            data["container"], data["parent"], actor=request.user
        ),
    )


@require_POST
def treasury_name(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    return _changed(
        request,
        warband,
        NameContainerForm(request.POST, warband=warband),
        lambda data: treasury.name_container(data["container"], data["label"], actor=request.user),
    )


@require_POST
def treasury_move_item(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    return _changed(
        request,
        warband,
        MoveItemForm(request.POST, warband=warband),
        lambda data: treasury.move_stored_item(
            data["stored_item"], data["target"], actor=request.user
        ),
    )


@require_POST
def treasury_equip(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    return _changed(
        request,
        warband,
        EquipForm(request.POST, warband=warband),
        lambda data: treasury.equip_stored_item(
            data["stored_item"], data["warrior"], actor=request.user
        ),
    )


@require_POST
def treasury_store(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_treasury_for_user(request, pk, write=True)
    return _changed(
        request,
        warband,
        StoreItemForm(request.POST, warband=warband),
        lambda data: treasury.store_warrior_item(data["owned"], data["target"], actor=request.user),
    )


@require_POST
def vessel_place(request: HttpRequest, pk: int) -> HttpResponse:
    vessel = get_object_or_404(VesselItem, pk=pk)
    warband = permissions.get_treasury_for_user(request, vessel.warband_id, write=True)
    return _changed(
        request,
        warband,
        VesselForm(request.POST, warband=warband),
        lambda data: treasury.place_vessel_item(vessel, data["coach"], actor=request.user),
    )
