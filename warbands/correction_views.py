"""The manual corrections page: a warband changed by hand, outside the rules, the requests
waiting for an organiser, and the record of every correction.

Only the warband's owner and the campaign's organisers open it (404 for strangers, 403 for
the other players, as for the treasury). Every form swaps ``#corrections-board``; a refusal
comes back as the same partial with its reason, status 422, and changes nothing.
"""

from __future__ import annotations

from functools import cached_property

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaign.permissions import is_organiser
from core.errors import RuleViolation
from core.options import OptionList
from warbands import correction_forms, corrections, permissions, rules
from warbands.models import Correction, Warband

HISTORY_PAGE = 50  # corrections per page of the history
CHARACTERISTICS = [
    (name, f"{name} ({rules.CHARACTERISTIC_NAMES[name]})") for name in rules.CHARACTERISTICS
]


class CorrectionsBoard:
    """What the page shows, read when the page draws it: the warriors with everything a
    correction may remove, the catalogues a correction may add from, the requests waiting and
    a page of the history. A fixed number of queries, whatever the roster or the history
    holds."""

    def __init__(self, request: HttpRequest, warband: Warband) -> None:
        self.request, self.warband = request, warband

    @cached_property
    def warriors(self) -> OptionList:
        return OptionList(corrections.warriors_of(self.warband))

    @cached_property
    def injuries(self) -> bool:
        """Somebody has an injury to remove (and so on below)."""
        return any(w.injury_list for w in self.warriors)

    @cached_property
    def skills_known(self) -> bool:
        return any(w.skill_list for w in self.warriors)

    @cached_property
    def spells_known(self) -> bool:
        return any(w.spell_list for w in self.warriors)

    @cached_property
    def items_carried(self) -> bool:
        return any(w.item_list for w in self.warriors)

    @cached_property
    def skills(self) -> list:
        return list(corrections.skills_for(self.warband))

    @cached_property
    def spells(self) -> list:
        return list(corrections.spells_for(self.warband))

    @cached_property
    def items(self) -> list:
        return list(corrections.items_for(self.warband))

    @cached_property
    def approves(self) -> bool:
        """The user approves the warband's corrections: his own apply at once, and he
        answers the requests."""
        return permissions.approves_corrections(self.request.user, self.warband)

    @cached_property
    def organises(self) -> bool:
        return is_organiser(self.request.user, self.warband.campaign)

    @cached_property
    def pending(self) -> list[Correction]:
        return corrections.pending(self.warband)

    @cached_property
    def history(self):
        paginator = Paginator(corrections.history(self.warband), HISTORY_PAGE)
        return paginator.get_page(self.request.GET.get("page"))


def _context(request: HttpRequest, warband: Warband, **extra) -> dict:
    return {
        "warband": warband,
        "board": CorrectionsBoard(request, warband),
        "can_correct": corrections.can_correct(request.user, warband),
        "sees_treasury": permissions.can_see_treasury(request.user, warband),
        "characteristics": CHARACTERISTICS,
        "error": "",
        "done": "",
        "failed": None,
        **extra,
    }


def _board(request: HttpRequest, warband: Warband, *, error="", done="", failed=None):
    """The board after a post: the partial for htmx (422 with the reason when refused, the
    refused form's values kept), the page again otherwise."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif done:
            messages.success(request, done)
        return redirect("warband_corrections", warband.pk)
    return render(
        request,
        "warbands/warband_corrections.html#corrections-board",
        _context(request, warband, error=error, done=done, failed=failed),
        status=422 if error else 200,
    )


def _said(correction: Correction) -> str:
    """What the page says of a correction just made, applied or asked for."""
    if correction.is_pending:
        said = f"Asked: {correction}. It waits for an organiser's approval."
    else:
        said = f"Recorded: {correction}."
    if correction.breaks:
        said += f" It breaks the list: {correction.breaks}"
    return said


@require_GET
def warband_corrections(request: HttpRequest, pk: int) -> HttpResponse:
    warband = permissions.get_corrections_for_user(request, pk)
    return render(request, "warbands/warband_corrections.html", _context(request, warband))


@require_POST
def warband_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Make one correction, or ask for it (the posted ``kind`` says which form it is)."""
    warband = permissions.get_corrections_for_user(request, pk, write=True)
    form = correction_forms.posted(request.POST, warband=warband)
    if not form.is_valid():
        error = correction_forms.first_error(form)
        return _board(request, warband, error=error, failed=form)
    try:
        correction = form.service(form.target(), actor=request.user, **form.values())
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal), failed=form)
    return _board(request, warband, done=_said(correction))


@require_POST
def correction_decide(request: HttpRequest, pk: int, correction_pk: int) -> HttpResponse:
    """An organiser approves a request (it applies, or lapses saying why) or refuses it."""
    correction = permissions.get_correction_for_user(request, pk, correction_pk, decide=True)
    warband = correction.warband
    form = correction_forms.DecisionForm(request.POST)
    if not form.is_valid():
        return _board(request, warband, error=correction_forms.first_error(form))
    try:
        if form.cleaned_data["decision"] == "approve":
            decided = corrections.approve(correction, actor=request.user)
        else:
            decided = corrections.refuse(
                correction, actor=request.user, reason=form.cleaned_data["reason"]
            )
    except RuleViolation as refusal:
        return _board(request, warband, error=str(refusal))
    if decided.status == Correction.Status.APPLIED:
        done = f"Approved and applied: {decided}."
    elif decided.status == Correction.Status.LAPSED:
        done = f"That request no longer applies: {decided.decision} It is closed, nothing changed."
    else:
        done = f"Refused: {decided}."
    return _board(request, warband, done=done)


@require_POST
def correction_withdraw(request: HttpRequest, pk: int, correction_pk: int) -> HttpResponse:
    """Whoever asked takes his request back while it waits."""
    correction = permissions.get_correction_for_user(request, pk, correction_pk)
    try:
        corrections.withdraw(correction, actor=request.user)
    except RuleViolation as refusal:
        return _board(request, correction.warband, error=str(refusal))
    return _board(request, correction.warband, done=f"Withdrawn: {correction}.")
