"""The sequence page's forms as it draws them: each step's action forms (``StepForms``), a
task's roll (``roll_form``) and an organiser's reopening (``reopen_form``; a step's completion
is ``CompletionForm``), drawn field by field
from the form classes of ``battles.aftermath.forms``, so that a refused post comes back with
each message beside its field. What a field asks for that depends on the page (the shards
held, a task's dice) is set here, as the form is made."""

from __future__ import annotations

from django import forms

from battles.aftermath.forms import AnswerForm, PostedStepForm, action_forms
from battles.aftermath.forms.fields import Shown
from warbands.treasury.forms import TreasuryForm


class StepForms:
    """The forms of the current step's actions by action (``step_forms.sell``), each made when
    first drawn: the one a refused post sent back (``refused``: the action and its bound form),
    else a fresh one. An action drawn once per row (``Shown.row``) is a mapping of rows
    (``step_forms.buy|get_item:warrior.pk``) whose refused row alone is the bound form."""

    def __init__(self, sequence, page: dict, refused: tuple[str, forms.Form] | None = None):
        self.warband = sequence.participant.warband
        self.classes = action_forms(sequence.current_step)
        self.page, self.refused, self.made = page, refused, {}

    def __getitem__(self, action: str):
        form_class = self.classes[action]
        if issubclass(form_class, Shown) and form_class.row:
            return Rows(self, action)
        return self.form(action, "")

    def form(self, action: str, row: str) -> forms.Form:
        if (action, row) in self.made:
            return self.made[action, row]
        form_class = self.classes[action]
        refused = self.refused
        if refused and refused[0] == action and _row_of(refused[1]) == row:
            form = refused[1]
        elif issubclass(form_class, TreasuryForm):
            form = form_class(warband=self.warband)
        else:
            form = form_class(auto_id=False)
        if isinstance(form, Shown):
            if form.row:
                form.initial[form.row] = row
            form.show(self.page, row)
        self.made[action, row] = form
        return form


class Rows:
    """The forms of one action drawn once per row, by the row's key (``get_item``)."""

    def __init__(self, step_forms: StepForms, action: str) -> None:
        self.step_forms, self.action = step_forms, action

    def get(self, key) -> forms.Form:
        form_class = self.step_forms.classes[self.action]
        return self.step_forms.form(self.action, form_class.row_key(key))


def _row_of(form: forms.Form) -> str:
    return form.posted_row() if isinstance(form, Shown) else ""


def refused_at_its_fields(form: forms.Form) -> forms.Form:
    """``form``, refused, with the messages of the fields its page does not draw (a choice
    among the page's own lists) moved to the form's own, drawn at its top."""
    drawn = getattr(form, "drawn", ())
    for name in [name for name in form.errors if name and name not in drawn]:
        for message in form.errors.pop(name):
            form.add_error(None, message)
    return form


def roll_form(task, posted=None, refusal: str = "") -> PostedStepForm:
    """The dice field of a task's roll: as many dice as it takes (``task.dice_entry``), named
    for the task. ``posted`` and ``refusal``: its post that was refused, and why, beside the
    field."""
    form = PostedStepForm(posted, auto_id=False)
    need = task.dice_entry
    what = task.question["text"] if task.question else task.label
    form.fields["dice"].widget.attrs.update({
        "placeholder": "server rolls", "maxlength": 60, "data-dice": need.count if need else 0,
        "aria-label": f"Dice rolled for {what}: {need.label if need else ''}",
    })  # fmt: skip
    if posted is not None:
        form.is_valid()
        form.add_error("dice", refusal)
    return form


def reopen_form(steps) -> PostedStepForm:
    """The step an organiser reopens, among the ``steps`` done (the page's (number, name,
    status, record) rows; step 0 is the battle's, reopened on its own), and the reason, which
    the history shows."""
    form = PostedStepForm(auto_id=False)
    form.fields["step"].widget = forms.Select(
        choices=[(n, f"{n}: {name}") for n, name, status, _ in steps if status == "done" and n]
    )
    form.fields["reason"].widget.attrs["required"] = True
    return form


def answer_form(task, posted=None, refusal: str = "") -> AnswerForm:
    """The choices of a task's question, each with its summary (``task.option_rows``, when the
    page read them). ``posted`` and ``refusal``: its post that was refused, and why, beside
    the choices."""
    form = AnswerForm(posted, auto_id=False, task=task)
    if posted is not None:
        form.is_valid()
        if refusal:
            form.add_error("answer", refusal)
    return form
