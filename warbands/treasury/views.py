"""The treasury page: the owner's containers, their contents and the ledger.

Only the warband's owner (read-only once the campaign is closed or archived) and an organiser
(read-only, when the campaign lets organisers see secrets) open it; everything it shows comes
through ``warbands.permissions``. Every form swaps ``#treasury-board``; a refusal comes back as
the same partial with its reason, status 422. A move of gold or wyrdstone answers with only
what it changed (``_moved``): the board is the page's heaviest part to draw.
"""

from __future__ import annotations

from functools import cached_property

from django.contrib import messages
from django.core.cache import caches
from django.core.paginator import Page, Paginator
from django.db.models import Count, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from core.options import Choices
from warbands import permissions, treasury
from warbands.models import (
    LedgerEntry,
    StorageContainer,
    VesselItem,
    Warband,
    Warrior,
)
from warbands.rules import RuleViolation
from warbands.rules import containers as container_rules
from warbands.treasury.forms import (
    BuyContainerForm,
    EquipForm,
    LedgerFilterForm,
    LedgerPageForm,
    MoveItemForm,
    MoveTreasureForm,
    NameContainerForm,
    PlaceContainerForm,
    SellContainerForm,
    StoreItemForm,
    VesselForm,
)

LEDGER_FIELDS = tuple(f.name for f in LedgerEntry._meta.concrete_fields)
LEDGER_PAGE = 30  # rows per page of the ledger


def _ledger(request: HttpRequest, warband: Warband):
    form = LedgerFilterForm(request.GET or None, warband=warband)
    entries = (
        LedgerEntry.objects.filter(warband=warband)
        .select_related("container", "actor", "battle")
        # What a row shows of its container, player and battle (the ledger_rows tag).
        .only(
            *LEDGER_FIELDS,
            "container__kind",
            "container__label",
            "container__number",
            "container__warband",
            "actor__username",
            "battle__scenario",
        )
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
    return form, _page(entries, LedgerPageForm(request.GET).number())


def _page(entries, number: int) -> Page:
    """A page of the ledger in one query: each row carries the total (an uncorrelated
    subquery, counted once) that Django's paginator would otherwise count in a query of its
    own; the page is read newest first through the ``ledger_recent`` index. An empty ledger,
    or a page number past the end, falls back to the paginator (it counts, then shows the
    last page)."""
    start = (number - 1) * LEDGER_PAGE
    total = entries.order_by().values("warband").annotate(n=Count("pk")).values("n")[:1]
    rows = list(entries.annotate(total=Subquery(total))[start : start + LEDGER_PAGE])
    paginator = Paginator(entries, LEDGER_PAGE)
    if not rows:
        return paginator.get_page(number)
    paginator.count = rows[0].total  # a cached_property: the count is known
    return Page(rows, number, paginator)


class TreasuryBoard:
    """What the treasury page shows of a warband, read only when the page draws it: each of
    the page's fragments is cached under the warband and its campaign's version
    (``campaign.versions``), so a page whose fragments are all kept reads none of this. Whoever
    may open the page sees the same contents (``permissions.get_treasury_for_user``)."""

    def __init__(self, request: HttpRequest, warband: Warband) -> None:
        self.request, self.warband = request, warband

    @cached_property
    def held(self) -> list[StorageContainer]:
        return treasury.held_containers(self.warband)

    @cached_property
    def views(self) -> list:
        return permissions.visible_containers(self.request.user, self.held)

    @cached_property
    def containers(self) -> list:
        return [v for v in self.views if v.kind != StorageContainer.LOOSE]

    @cached_property
    def pile(self):
        """Treasure outside any container, when there is some."""
        return permissions.shown_pile(self.views)

    @cached_property
    def totals(self) -> dict[str, int]:
        return treasury.totals_of(self.held)

    @cached_property
    def _real(self) -> list[StorageContainer]:
        return [c for c in self.held if c.kind != StorageContainer.LOOSE]

    @cached_property
    def targets(self) -> Choices:
        return Choices(self._real)

    @cached_property
    def carriers(self) -> Choices:
        return Choices(c for c in self._real if c.kind in container_rules.CARRIERS)

    @cached_property
    def loadable(self) -> Choices:
        """Boxes to load on a carrier, when there is a carrier."""
        boxes = (c for c in self._real if c.kind in container_rules.BOXES)
        return Choices(boxes if self.carriers else ())

    @cached_property
    def sellable(self) -> Choices:
        """Empty containers carrying nothing, when another would take the money."""
        carrying = {c.parent_id for c in self.held if c.parent_id}
        if len(self._real) < 2:
            return Choices()
        return Choices(
            c
            for c in self._real
            if c.kind in treasury.SELLABLE_CONTAINERS and c.is_empty and c.pk not in carrying
        )

    @cached_property
    def warriors(self) -> Choices:
        return Choices(Warrior.objects.fighting().filter(warband=self.warband).for_forms())

    @cached_property
    def heroes(self) -> list[Warrior]:
        return [w for w in self.warriors if w.is_hero]

    @cached_property
    def stored_groups(self) -> list:
        """The stored items by container, for the item forms."""
        return [
            (view.name, [(stored.pk, stored.name) for stored in view.contents.items])
            for view in self.views
            if view.contents
        ]

    @cached_property
    def owned_groups(self) -> list:
        """What each warrior carries that may be stored, by warrior."""
        return [
            (warrior.name, storable)
            for warrior in self.warriors
            if (
                storable := [
                    (owned.pk, owned.item.name)
                    for owned in warrior.item_list
                    if owned.item.category not in treasury.NOT_STORABLE
                ]
            )
        ]

    @cached_property
    def vessels(self) -> list[VesselItem]:
        return list(VesselItem.objects.filter(warband=self.warband).select_related("coach"))

    @cached_property
    def coaches(self) -> list[StorageContainer]:
        return [c for c in self.held if c.kind == "opulent_coach"]

    @cached_property
    def buyable(self) -> list:
        return BuyContainerForm(warband=self.warband).fields["kind"].choices

    @cached_property
    def ledger(self):
        return _ledger(self.request, self.warband)

    def _kept(self, name: str, read) -> dict:
        """``read()``, kept with the page's fragments (``campaign.versions``)."""
        campaign = self.warband.campaign
        key = f"treasury-{name}:{self.warband.pk}:{campaign.fragment_version}"
        return caches["fragments"].get_or_set(key, read, campaign.fragment_seconds)

    @cached_property
    def shape(self) -> dict:
        """Which of the containers' forms have something to offer, kept with the fragments:
        the forms themselves carry one-time tokens and are drawn each time."""
        return self._kept(
            "shape",
            lambda: {
                "items": self.totals["items"],
                "targets": bool(self.targets),
                "sellable": bool(self.sellable),
                "loadable": bool(self.loadable),
            },
        )

    @cached_property
    def others(self) -> dict:
        """Whether the warriors carry anything to store, and whether there are vessels."""
        return self._kept(
            "others",
            lambda: {
                "owned": bool(self.owned_groups),
                "vessels": VesselItem.objects.filter(warband=self.warband).exists(),
            },
        )


def treasury_context(request: HttpRequest, warband: Warband, *, error: str = "") -> dict:
    """``read_only``: the campaign is closed or archived, and its owner reads the treasury
    with every form hidden (issue 30, point 7)."""
    can_edit = permissions.can_edit_warband(request.user, warband)
    return {
        "warband": warband,
        "can_edit": can_edit,
        "read_only": not can_edit and not warband.campaign.is_open,
        "organisers_see": permissions.organisers_see_treasuries(warband),
        "board": TreasuryBoard(request, warband),
        "error": error,
    }


def _board(request: HttpRequest, warband: Warband, *, error: str = "") -> HttpResponse:
    """The board after a post: with the refusal and status 422, or as the change left it;
    after a change the ledger, which is not part of the board, reloads itself."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("warband_treasury", warband.pk)
    response = render(
        request,
        "warbands/warband_treasury.html#treasury-board",
        treasury_context(request, warband, error=error),
        status=422 if error else 200,
    )
    if not error:
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
    one-time token for the move form (its lists of containers stay as they were), the cleared
    error notice and, when a container became empty or stopped being so, the list of
    containers to sell. ``before``: the two as the form read them; ``moved``: as they are now.
    A move out of the unstored pile can empty it, which changes more of the board: that
    redraws the board."""
    if before is None or any(c.kind == StorageContainer.LOOSE for c in moved):
        return _board(request, warband)
    earlier = {c.pk: c for c in before}
    for container in moved:
        container.holder = earlier[container.pk].holder
        container.parent = earlier[container.pk].parent
        container.warband = warband
    treasury.with_stored_items([c for c in moved if c.item_count])
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
    vessel = permissions.get_vessel_for_user(request, pk)
    warband = permissions.get_treasury_for_user(request, vessel.warband_id, write=True)
    return _changed(
        request,
        warband,
        VesselForm(request.POST, warband=warband),
        lambda data: treasury.place_vessel_item(vessel, data["coach"], actor=request.user),
    )
