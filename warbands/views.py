"""Roster pages: muster a warband, read its roster, export it.

Thin views: parse the form, call one service, render the page or, for htmx, the partial that
changed. The muster page's forms all swap ``#muster-board``; a refusal comes back as the same
partial with the reason, status 422.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaign.permissions import get_campaign_for_user
from core.dice import DiceError, EnteredDice, ServerDice
from core.errors import RuleViolation
from core.htmx import Refusal, first_message, refuse, with_refusal
from core.offline import keep_offline
from warbands import equipment, hired_swords, leadership, permissions, services, treasury
from warbands.export import warband_as_json
from warbands.forms import (
    BuyItemForm,
    GroupSizeForm,
    HireForm,
    HireSwordForm,
    MusterContainerForm,
    RenameForm,
    WarbandCreateForm,
    WarbandListSearchForm,
)
from warbands.house_rules import allowed
from warbands.models import StorageContainer, Warband, WarbandType, Warrior, WarriorItem
from warbands.transfer.permissions import may_offer_carry


def _redirect(request: HttpRequest, to: str, *args) -> HttpResponse:
    url = reverse(to, args=args)
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_http_methods(["GET", "POST"])
def warband_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Choose a list and a name. The lists are filtered by ``?q=`` (the search form), and an
    htmx search draws only them again (``#warband-lists``)."""
    campaign = get_campaign_for_user(request, campaign_id)
    search = WarbandListSearchForm(request.GET)
    lists = list(WarbandType.objects.named_like(search.text()).with_leader().order_by("name"))
    house = allowed.rules_of(campaign)
    refused = allowed.list_refusals(campaign, lists, house)
    form = WarbandCreateForm(request.POST or None, lists=lists, refused=refused)
    if request.method == "POST" and form.is_valid():
        try:
            warband = services.create_warband(
                actor=request.user,
                campaign=campaign,
                warband_type=form.cleaned_data["warband_type"],
                name=form.cleaned_data["name"],
            )
        except RuleViolation as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, f"{warband.name} is mustering: hire a leader first.")
            return redirect("warband_muster", warband.pk)
    context = {
        "form": form,
        "search": search,
        "query": search.text(),
        "campaign": campaign,
        "house": None if house is None else allowed.summary(house),
        "gold_override": house.starting_gold if house is not None else None,
    }
    if request.method == "GET" and request.htmx and request.htmx.target == "warband-lists":
        return render(request, "warbands/warband_create.html#warband-lists", context)
    status = 422 if form.errors else 200
    return render(request, "warbands/warband_create.html", context, status=status)


@dataclass
class WarriorCard:
    """A warrior on the muster board, with the forms his card draws."""

    warrior: Warrior
    choices: list
    size: GroupSizeForm | None
    buy: BuyItemForm | None
    may_lead: bool = False  # a hero the player may name leader (a list that chooses him)


def _placed(refused, at, kind: type, fresh: Callable[[], forms.Form]):
    """The form drawn at ``at``: the refused one, when it was posted there, or ``fresh()``."""
    if refused is not None and refused[0] == at and isinstance(refused[1], kind):
        return refused[1]
    return fresh()


def _posted_row(refused, at: str, field: str, rows: list, key) -> str | None:
    """The row key a refused form of ``at`` was posted for, when the board offers that row."""
    if refused is None or refused[0] != at:
        return None
    posted = str(refused[1].data.get(field, ""))
    return next((posted for row in rows if str(key(row[0])) == posted), None)


def muster_context(warband: Warband, *, refused=None) -> dict:
    """The muster board. ``refused``: (where, the posted form refused there), drawn in place
    of that form with its messages: "hire", "storage", "finish" or a warrior's pk (his card's
    forms and buttons). The hired swords are a page of their own (``warband_hire_sword``)."""
    warriors = list(services.roster(warband))
    entries = equipment.list_entries_by_type({w.warrior_type_id for w in warriors})
    cards, chooses = [], warband.warband_type.limits.leader_from is not None
    for w in warriors:
        choices = equipment.equipment_choices(w, entries.get(w.warrior_type_id, []))
        size = None if w.is_hero else _placed(refused, w.pk, GroupSizeForm, GroupSizeForm)
        buy = _placed(refused, w.pk, BuyItemForm, BuyItemForm) if choices else None
        cards.append(
            WarriorCard(
                w,
                choices,
                size.drawn_for(w) if size else None,
                buy.drawn_for(w, choices) if buy else None,
                chooses and leadership.leader_refusal(warband, w) is None,
            )
        )
    hireable = services.hireable_types(warband, warriors)
    hire_at = _posted_row(refused, "hire", "warrior_type", hireable, lambda t: t.pk)
    container = _placed(
        refused, "storage", MusterContainerForm, lambda: MusterContainerForm(warband=warband)
    )
    return {
        "containers": list(
            StorageContainer.objects.real().filter(warband=warband).select_related("holder")
        ),
        "container_form": container.drawn_for(warriors),
        "warband": warband,
        "cards": cards,
        "chooses_leader": chooses,
        "rating": services.rating(warriors),
        "models": sum(w.group_size for w in warriors if not w.hired_sword_id),
        "max_size": services.max_size(warband, warriors),
        "heroes": sum(1 for w in warriors if w.is_hero and not w.hired_sword_id),
        "hireable": [
            (
                wt,
                reason,
                refused[1].drawn_for(wt)
                if hire_at == str(wt.pk)
                else HireForm(warband=warband, warrior_type=wt),
            )
            for wt, reason in hireable
        ],
        "problems": services.muster_problems(warband, warriors),
        "refused_at": refused[0] if refused else None,
        "refusal": refused[1] if refused else None,
        # a hire refused for a row the board does not offer: its message above the list
        "unplaced": first_message(refused[1])
        if refused and refused[0] == "hire" and not hire_at
        else "",
    }


def _board(request: HttpRequest, warband: Warband, *, refused=None) -> HttpResponse:
    """The muster board after a POST: the partial for htmx, the page again otherwise.
    ``refused``: (where, the refused form), so that its messages show beside it, not at the
    top of a long page."""
    warband.refresh_from_db(fields=["gold_crowns", "status", "name"])
    if refused is not None:
        return refuse(
            request,
            refused[1],
            partial="warbands/warband_muster.html#muster-board",
            context=lambda: muster_context(warband, refused=refused),
            page=reverse("warband_muster", args=[warband.pk]),
        )
    if not request.htmx:
        return redirect("warband_muster", warband.pk)
    return render(request, "warbands/warband_muster.html#muster-board", muster_context(warband))


@require_GET
def warband_muster(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_warband_for_user(request, pk, write=True)
    if not warband.is_draft:
        return redirect("warband_roster", warband.pk)
    return render(request, "warbands/warband_muster.html", muster_context(warband))


@require_POST
def warband_hire(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_warband_for_user(request, pk, write=True)
    form = HireForm(request.POST, warband=warband)
    if not form.is_valid():
        return _board(request, warband, refused=("hire", form))
    roll = form.cleaned_data["spell_roll"]
    try:
        services.hire_warrior(
            warband,
            actor=request.user,
            warrior_type=form.cleaned_data["warrior_type"],
            name=form.cleaned_data["name"],
            group_size=form.cleaned_data["group_size"],
            dice=EnteredDice([roll]) if roll else ServerDice(),
        )
    except (RuleViolation, DiceError) as refusal:
        return _board(request, warband, refused=("hire", with_refusal(form, refusal)))
    return _board(request, warband)


def sword_context(warband: Warband, *, refused: HireSwordForm | None = None) -> dict:
    """The catalogue: each hired sword with why this warband may not hire him, or his form;
    ``refused``, the posted form, in its row (above the list when it has no such row)."""
    swords = hired_swords.hireable_swords(warband)
    posted = ("sword", refused) if refused is not None else None
    at = _posted_row(posted, "sword", "sword", swords, lambda sword: sword.key)
    return {
        "warband": warband,
        "sword_catalogue": [
            (sword, reason, (refused if at == sword.key else HireSwordForm()).drawn_for(sword))
            for sword, reason in swords
        ],
        "unplaced": first_message(refused) if refused is not None and not at else "",
    }


@require_http_methods(["GET", "POST"])
def warband_hire_sword(request: HttpRequest, pk: int) -> HttpResponse:
    """Hire from the catalogue while mustering (``hired_swords.hire_at_muster``), then back to
    the board. A page of its own: on the board its fifty-odd entries would triple every answer."""
    warband = permissions.get_warband_for_user(request, pk, write=True)
    if request.method == "GET":
        if not warband.is_draft:
            return redirect("warband_roster", warband.pk)
        return render(request, "warbands/warband_hire_sword.html", sword_context(warband))
    form = HireSwordForm(request.POST)
    if form.is_valid():
        try:
            hired = hired_swords.hire_at_muster(
                warband,
                actor=request.user,
                sword_key=form.cleaned_data["sword"],
                name=form.cleaned_data["name"],
                dice=ServerDice(),  # the Warlock's starting spells
            )
        except (RuleViolation, DiceError) as refusal:
            with_refusal(form, refusal)
        else:
            messages.success(request, f"{hired.name} is hired and on the roster.")
            return _redirect(request, "warband_muster", warband.pk)
    return refuse(
        request,
        form,
        partial="warbands/warband_hire_sword.html#sword-catalogue",
        context=lambda: sword_context(warband, refused=form),
        page=reverse("warband_hire_sword", args=[warband.pk]),
    )


@require_POST
def warrior_buy_item(request: HttpRequest, pk: int) -> HttpResponse:
    warrior = permissions.get_warrior_for_user(request, pk, write=True)
    form = BuyItemForm(request.POST)
    if not form.is_valid():
        return _board(request, warrior.warband, refused=(warrior.pk, form))
    try:
        services.buy_item(
            warrior,
            actor=request.user,
            item_key=form.cleaned_data["item"],
            heirloom=form.cleaned_data["heirloom"],
        )
    except RuleViolation as refusal:
        return _board(request, warrior.warband, refused=(warrior.pk, with_refusal(form, refusal)))
    return _board(request, warrior.warband)


@require_POST
def warrior_remove_item(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
    warrior = permissions.get_warrior_for_user(request, pk, write=True)
    owned = get_object_or_404(WarriorItem, pk=item_pk, warrior=warrior)
    try:
        services.remove_item(owned, actor=request.user)
    except RuleViolation as refusal:
        return _board(request, warrior.warband, refused=(warrior.pk, Refusal(str(refusal))))
    return _board(request, warrior.warband)


@require_POST
def warrior_lead(request: HttpRequest, pk: int) -> HttpResponse:
    """Name a hero the leader while mustering, for a list whose player chooses who leads."""
    warrior = permissions.get_warrior_for_user(request, pk, write=True)
    try:
        leadership.name_leader(warrior, actor=request.user)
    except RuleViolation as refusal:
        return _board(request, warrior.warband, refused=(warrior.pk, Refusal(str(refusal))))
    return _board(request, warrior.warband)


@require_POST
def warrior_group_size(request: HttpRequest, pk: int) -> HttpResponse:
    warrior = permissions.get_warrior_for_user(request, pk, write=True)
    form = GroupSizeForm(request.POST)
    if not form.is_valid():
        return _board(request, warrior.warband, refused=(warrior.pk, form))
    try:
        services.set_group_size(
            warrior, actor=request.user, group_size=form.cleaned_data["group_size"]
        )
    except RuleViolation as refusal:
        return _board(request, warrior.warband, refused=(warrior.pk, with_refusal(form, refusal)))
    return _board(request, warrior.warband)


@require_http_methods(["GET", "POST"])
def warrior_dismiss(request: HttpRequest, pk: int) -> HttpResponse:
    """While mustering a dismissal is an undo (no question asked); afterwards it cannot be
    undone, so the GET shows a confirmation page first."""
    warrior = permissions.get_warrior_for_user(request, pk, write=True)
    warband = warrior.warband
    if request.method == "GET":
        return render(request, "warbands/warrior_dismiss.html", {"warrior": warrior})
    try:
        services.dismiss_warrior(warrior, actor=request.user)
    except RuleViolation as refusal:
        if warband.is_draft:
            return _board(request, warband, refused=(warrior.pk, Refusal(str(refusal))))
        messages.error(request, str(refusal))
        return _redirect(request, "warband_roster", warband.pk)
    if warband.is_draft:
        return _board(request, warband)
    messages.success(request, f"{warrior.name} has left the warband.")
    return _redirect(request, "warband_roster", warband.pk)


@require_POST
def warband_buy_container(request: HttpRequest, pk: int) -> HttpResponse:
    """Buy a common storage container from the muster purse."""
    warband = permissions.get_warband_for_user(request, pk, write=True)
    form = MusterContainerForm(request.POST, warband=warband)
    if not form.is_valid():
        return _board(request, warband, refused=("storage", form))
    try:
        treasury.buy_container(
            warband,
            form.cleaned_data["kind"],
            actor=request.user,
            holder=form.cleaned_data["holder"],
        )
    except RuleViolation as refusal:
        return _board(request, warband, refused=("storage", with_refusal(form, refusal)))
    return _board(request, warband)


@require_POST
def warband_return_container(request: HttpRequest, pk: int, container_pk: int) -> HttpResponse:
    """Undo a container bought while mustering: its price comes back to the purse."""
    warband = permissions.get_warband_for_user(request, pk, write=True)
    container = get_object_or_404(StorageContainer.objects.real(), pk=container_pk, warband=warband)
    try:
        if not warband.is_draft:
            raise RuleViolation("Mustering is over: sell containers from the treasury page.")
        treasury.sell_container(container, actor=request.user, proceeds_to=None)
    except RuleViolation as refusal:
        return _board(request, warband, refused=("storage", Refusal(str(refusal))))
    return _board(request, warband)


@require_POST
def warband_finish(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_warband_for_user(request, pk, write=True)
    try:
        services.finish_muster(warband, actor=request.user)
    except RuleViolation as refusal:
        return _board(request, warband, refused=("finish", Refusal(str(refusal))))
    messages.success(request, f"{warband.name} is ready for battle.")
    return _redirect(request, "warband_roster", warband.pk)


class RosterSheet:
    """What the roster page shows of a warband, read when the page draws it: a fragment
    cached under the warband's version (``campaign.cache``) reads none of it."""

    def __init__(self, user, warband: Warband) -> None:
        self.user, self.warband = user, warband

    @cached_property
    def warriors(self) -> list:
        return list(services.roster(self.warband))

    @cached_property
    def rating(self) -> int:
        return services.rating(self.warriors)

    @cached_property
    def models(self) -> int:
        """The warband's size against its maximum: hired swords do not count (Hired Swords)."""
        return sum(w.group_size for w in self.warriors if not w.hired_sword_id)

    @cached_property
    def max_size(self) -> int:
        return services.max_size(self.warband, self.warriors)

    @cached_property
    def _held(self) -> list[StorageContainer]:
        return treasury.held_containers(self.warband)

    @cached_property
    def _views(self) -> list:
        return permissions.visible_containers(self.user, self._held)

    @cached_property
    def containers(self) -> list:
        return [v for v in self._views if v.kind != StorageContainer.LOOSE]

    @cached_property
    def pile(self):
        """The unstored treasure: not a container to list, but its owner is shown what is in
        it (it is lost at the end of the next post-battle sequence)."""
        return permissions.shown_pile(self._views)

    @cached_property
    def totals(self) -> dict[str, int]:
        return treasury.totals_of(self._held)


@require_GET
def warband_roster(request: HttpRequest, pk: int) -> HttpResponse:
    """The roster sheet, the same for every member who may see and do the same with it
    (``can_edit``, ``show_treasury``): cached under those and the campaign's version."""
    warband = permissions.get_warband_for_user(request, pk)
    page = render(
        request,
        "warbands/warband_roster.html",
        {
            "warband": warband,
            "sheet": RosterSheet(request.user, warband),
            "can_edit": permissions.can_edit_warband(request.user, warband),
            "show_treasury": permissions.can_see_treasury(request.user, warband),
            "reads_corrections": permissions.can_read_corrections(request.user, warband),
            "can_carry": may_offer_carry(request.user, warband),
        },
    )
    return keep_offline(request, page, permissions.may_keep_offline(request.user, warband))


@require_http_methods(["GET", "POST"])
def warband_rename(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_warband_for_user(request, pk, write=True)
    form = RenameForm(request.POST or None, initial={"name": warband.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.rename_warband(warband, actor=request.user, name=form.cleaned_data["name"])
        except RuleViolation as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(request, "Warband renamed.")
            return _redirect(request, "warband_roster", warband.pk)
    return render(
        request,
        "warbands/warband_rename.html",
        {"form": form, "warband": warband},
        status=422 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def warrior_rename(request: HttpRequest, pk: int) -> HttpResponse:
    warrior = permissions.get_warrior_for_user(request, pk, write=True)
    form = RenameForm(request.POST or None, initial={"name": warrior.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.rename_warrior(warrior, actor=request.user, name=form.cleaned_data["name"])
        except RuleViolation as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(request, "Warrior renamed.")
            if warrior.warband.is_draft:
                return _redirect(request, "warband_muster", warrior.warband_id)
            return _redirect(request, "warband_roster", warrior.warband_id)
    return render(
        request,
        "warbands/warrior_rename.html",
        {"form": form, "warrior": warrior},
        status=422 if form.errors else 200,
    )


@require_GET
def warband_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The public roster as JSON, for backup and sharing: never the treasury."""
    warband = permissions.get_warband_for_user(request, pk)
    response = JsonResponse(warband_as_json(warband), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="warband-{warband.pk}.json"'
    return response
