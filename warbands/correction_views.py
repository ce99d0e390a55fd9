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
from django.urls import reverse
from django.utils.html import format_html_join
from django.views.decorators.http import require_GET, require_POST

from campaign.permissions import is_organiser
from core.errors import RuleViolation
from core.htmx import Refusal, first_message, refuse, with_refusal
from core.options import OptionList, render_groups, render_options
from warbands import correction_forms, corrections, permissions
from warbands.models import Correction, Warband

HISTORY_PAGE = 50  # corrections per page of the history


class CorrectionsBoard:
    """What the page shows, read when the page draws it: the warriors with everything a
    correction may remove, the catalogues a correction may add from, the requests waiting and
    a page of the history. A fixed number of queries, whatever the roster or the history
    holds."""

    def __init__(self, request: HttpRequest, warband: Warband, *, refused=None) -> None:
        """``refused``: (where, the posted form refused there): a kind of correction, or
        ("request", pk) for a request's answer, drawn in place of that form."""
        self.request, self.warband, self.refused = request, warband, refused

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

    # The forms, drawn from the rows read above.

    def _refused_at(self, at):
        return self.refused[1] if self.refused is not None and self.refused[0] == at else None

    @cached_property
    def forms(self) -> dict[str, correction_forms.CorrectionForm]:
        """Each kind's form, the refused one posted again with its messages."""
        return {
            kind: (self._refused_at(kind) or form(warband=self.warband)).drawn_for(self)
            for kind, form in correction_forms.FORMS.items()
        }

    @cached_property
    def requests(self) -> list[tuple[Correction, correction_forms.DecisionForm, object]]:
        """The requests waiting, each with its refusal's form and what was refused of it."""
        rows = []
        for c in self.pending:
            refused = self._refused_at(("request", c.pk))
            decision = refused if isinstance(refused, correction_forms.DecisionForm) else None
            rows.append((c, (decision or correction_forms.DecisionForm()).drawn_for(c), refused))
        return rows

    @cached_property
    def unplaced(self) -> str:
        """A refusal whose form the page does not draw (an unknown kind, a request no longer
        waiting, a warband that cannot be corrected now): its message above the board."""
        if self.refused is None:
            return ""
        at, form = self.refused
        drawn = {
            "experience",
            "characteristic",
            "injury_added",
            "skill_added",
            "spell_added",
            "item_added",
        }
        drawn |= {"injury_removed"} if self.injuries else set()
        drawn |= {"skill_removed"} if self.skills_known else set()
        drawn |= {"spell_removed"} if self.spells_known else set()
        drawn |= {"item_removed"} if self.items_carried else set()
        if not corrections.can_correct(self.request.user, self.warband):
            drawn = set()
        drawn |= {("request", c.pk) for c in self.pending}
        return "" if at in drawn else first_message(form)

    @cached_property
    def warrior_options(self) -> str:
        return render_options(self.warriors, "group")

    @cached_property
    def experience_options(self) -> str:
        return format_html_join(
            "",
            '<option value="{}">{}{}: {} xp</option>',
            ((w.pk, w.name, "" if w.is_hero else f" (×{w.group_size})", w.experience)
             for w in self.warriors),
        )  # fmt: skip

    @cached_property
    def profile_options(self) -> str:
        return format_html_join(
            "",
            '<option value="{}">{}{}: {}</option>',
            ((w.pk, w.name, "" if w.is_hero else f" (×{w.group_size})",
              ", ".join(f"{name} {value}" for name, value in w.profile_cells()))
             for w in self.warriors),
        )  # fmt: skip

    def _of_warriors(self, rows: str, label) -> str:
        return render_groups(
            (w.name, [(row.pk, label(row)) for row in getattr(w, rows)]) for w in self.warriors
        )

    @cached_property
    def injury_options(self) -> str:
        return self._of_warriors("injury_list", lambda injury: injury.name)

    @cached_property
    def known_skill_options(self) -> str:
        return self._of_warriors("skill_list", lambda known: known.skill.name)

    @cached_property
    def known_spell_options(self) -> str:
        return self._of_warriors("spell_list", lambda known: known.spell.name)

    @cached_property
    def owned_options(self) -> str:
        return self._of_warriors("item_list", lambda owned: owned.item.name)

    @staticmethod
    def _grouped(rows, group, label) -> str:
        groups: dict[str, list] = {}
        for row in rows:
            groups.setdefault(group(row), []).append((row.pk, label(row)))
        return render_groups(groups.items())

    @cached_property
    def skill_options(self) -> str:
        return self._grouped(self.skills, lambda s: s.skill_list.name, lambda s: s.name)

    @cached_property
    def spell_options(self) -> str:
        return self._grouped(
            self.spells, lambda s: s.spell_list.name, lambda s: f"{s.d6}. {s.name}"
        )

    @cached_property
    def item_options(self) -> str:
        return self._grouped(self.items, lambda i: i.get_category_display(), lambda i: i.name)

    @cached_property
    def history(self):
        paginator = Paginator(corrections.history(self.warband), HISTORY_PAGE)
        return paginator.get_page(self.request.GET.get("page"))


def _context(request: HttpRequest, warband: Warband, *, refused=None, done="") -> dict:
    return {
        "warband": warband,
        "board": CorrectionsBoard(request, warband, refused=refused),
        "can_correct": corrections.can_correct(request.user, warband),
        "sees_treasury": permissions.can_see_treasury(request.user, warband),
        "done": done,
    }


def _board(request: HttpRequest, warband: Warband, *, refused=None, done=""):
    """The board after a post: the partial for htmx (422 with the refused form drawn again
    with its messages), the page again otherwise."""
    if refused is not None:
        return refuse(
            request,
            refused[1],
            partial="warbands/warband_corrections.html#corrections-board",
            context=lambda: _context(request, warband, refused=refused),
            page=reverse("warband_corrections", args=[warband.pk]),
        )
    if not request.htmx:
        if done:
            messages.success(request, done)
        return redirect("warband_corrections", warband.pk)
    return render(
        request,
        "warbands/warband_corrections.html#corrections-board",
        _context(request, warband, done=done),
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
    at = getattr(form, "makes", "")
    if not form.is_valid():
        return _board(request, warband, refused=(at, form))
    try:
        correction = form.service(form.target(), actor=request.user, **form.values())
    except RuleViolation as refusal:
        return _board(request, warband, refused=(at, with_refusal(form, refusal)))
    return _board(request, warband, done=_said(correction))


@require_POST
def correction_decide(request: HttpRequest, pk: int, correction_pk: int) -> HttpResponse:
    """An organiser approves a request (it applies, or lapses saying why) or refuses it."""
    correction = permissions.get_correction_for_user(request, pk, correction_pk, decide=True)
    warband = correction.warband
    form = correction_forms.DecisionForm(request.POST)
    at = ("request", correction.pk)
    if not form.is_valid():
        return _board(request, warband, refused=(at, form))
    try:
        if form.cleaned_data["decision"] == "approve":
            decided = corrections.approve(correction, actor=request.user)
        else:
            decided = corrections.refuse(
                correction, actor=request.user, reason=form.cleaned_data["reason"]
            )
    except RuleViolation as refusal:
        return _board(request, warband, refused=(at, with_refusal(form, refusal)))
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
        refused = (("request", correction.pk), Refusal(str(refusal)))
        return _board(request, correction.warband, refused=refused)
    return _board(request, correction.warband, done=f"Withdrawn: {correction}.")
