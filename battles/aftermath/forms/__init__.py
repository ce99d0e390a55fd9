"""The forms every post of the post-battle sequence is read through.

A step's action, its completion and a roll are posted by the step's template; the view cleans
the post with the form this module registers for it (``clean_action``, ``clean_completion``,
``clean_roll``) and hands the services only the cleaned values: whole numbers within their
bounds, keys of the warband's things, short texts, and the warband's containers (the
treasury's ``ContainerField``: ``pile`` where the unstored pile may be meant). What a key
points at (a warrior on its roster) is the step's to check, under its lock; the treasury's
services read again, under their locks, what a container field chose: a form cannot know what
another tab changed meanwhile. The moves of the treasury (step 9, and storing what lies
unstored in every treasury step) are the treasury page's own forms (``warbands.treasury.forms``),
which the step applies in its journal. Input that does not read is refused with the step's
own words (``RuleViolation``; ``Refused`` keeps the form, whose messages go beside its
fields), and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django import forms
from django.urls import reverse
from django.utils.html import format_html

from battles.aftermath.dramatis_personae import DramatisPersonae
from battles.aftermath.experience import Experience
from battles.aftermath.forms.actions import (
    AddModelsForm,
    BuyForm,
    BuyRareForm,
    BuyStashForm,
    HireForm,
    HireSwordForm,
    NoInput,
    SeekPersonaForm,
    SellItemForm,
    SellWyrdstoneForm,
    TreatForm,
    UpkeepForm,
)
from battles.aftermath.forms.fields import Text
from battles.aftermath.rare_items import RareItems
from battles.aftermath.reallocation import Reallocate
from battles.aftermath.recruits import Recruits
from battles.aftermath.registry import STEPS, handler
from battles.aftermath.treasury_steps import TreasuryStep
from battles.aftermath.veterans import Veterans
from battles.aftermath.wyrdstone import SellWyrdstone
from battles.dice import parse_faces
from battles.forms import DiceField
from core.dice import split_digits
from core.errors import RuleViolation
from warbands.treasury import forms as treasury_forms
from warbands.treasury.board import FORMS as BOARD_FORMS
from warbands.treasury.board import Post
from warbands.treasury.forms import TreasuryForm

#: The form that reads each action of the steps, keyed by the action itself: a step's method
#: marked ``@action``, whose name is what the page posts (``Step.handlers``). A step's own
#: actions and the ones it inherits (``TreasuryStep.store``) are all its ``handlers``; this is
#: the one place that says which form reads each, and nothing else names them.
ACTION_FORMS: dict[Callable, type[forms.Form]] = {
    Experience.award: NoInput,  # 2
    # Storing what lies unstored, in every treasury step but the last (3 to 9): step 10 only
    # counts what is left unstored, which is lost as it ends.
    TreasuryStep.store: treasury_forms.StorePileForm,
    SellWyrdstone.sell: SellWyrdstoneForm,  # 4
    Veterans.add_veterans: AddModelsForm,  # 5
    RareItems.buy_rare: BuyRareForm,  # 6
    RareItems.seek_persona: SeekPersonaForm,
    RareItems.treat: TreatForm,  # Sawbones, when the campaign plays it
    DramatisPersonae.hire_sword: HireSwordForm,  # 7
    DramatisPersonae.upkeep: UpkeepForm,
    Recruits.hire: HireForm,  # 8
    Recruits.add_models: AddModelsForm,
    Recruits.buy: BuyForm,
    Recruits.buy_stash: BuyStashForm,
    Recruits.sell: SellItemForm,
    # 9: the treasury page's forms (``warbands.treasury.forms``; the board draws them).
    Reallocate.move: treasury_forms.MoveTreasureForm,
    Reallocate.move_item: treasury_forms.MoveItemForm,
    Reallocate.equip: treasury_forms.EquipForm,
    Reallocate.unequip: treasury_forms.StoreItemForm,
    Reallocate.buy_container: treasury_forms.BuyContainerForm,
    Reallocate.sell_container: treasury_forms.SellContainerForm,
    Reallocate.place: treasury_forms.PlaceContainerForm,
}

#: The treasury board's name of each of its forms (``TreasuryBoard.forms``), which a step's
#: action posts under when its form is one of them.
BOARD_NAMES: dict[type[forms.Form], str] = {
    form: name for name, (form, _view) in BOARD_FORMS.items()
}


def action_forms(step: int) -> dict[str, type[forms.Form]]:
    """The actions of ``step`` by the names the page posts, each with the form that reads it."""
    return {name: ACTION_FORMS[method] for name, method in handler(step).handlers.items()}


def board_posts(sequence) -> dict[str, Post]:
    """Where the treasury's forms that the current step offers post: to the sequence, with the
    step and the step's action that the form reads, by the board's name of the form."""
    url = reverse("sequence_act", args=[sequence.pk])
    step = sequence.current_step
    return {
        BOARD_NAMES[form]: Post(url, format_html(HIDDEN, step, name))
        for name, form in action_forms(step).items()
        if form in BOARD_NAMES
    }


# What a step's form of the board posts besides its fields: the step, and its action.
HIDDEN = (
    '<input type="hidden" name="step" value="{}"><input type="hidden" name="action" value="{}">'
)


class CompletionForm(forms.Form):
    """Ending a step; step 3 asks to confirm that its notes were carried out on the table."""

    notes_confirmed = forms.BooleanField(required=False)

    def __init__(self, *args, notes: bool = False, **kwargs) -> None:
        super().__init__(*args, auto_id=False, **kwargs)
        if notes:  # the page asks for the confirmation: the browser asks for the tick
            self.fields["notes_confirmed"].widget.attrs["required"] = True


class PostedStepForm(forms.Form):
    """What every post of the sequence carries: the step it was drawn for, physical dice
    (empty: the server rolls) and, for a roll that asked, the answer."""

    step = forms.IntegerField(
        min_value=0,
        max_value=10,
        error_messages=dict.fromkeys(
            ("required", "invalid", "min_value", "max_value"),
            "The form is out of date: reload the page.",
        ),
    )
    action = Text(max_length=40)
    dice = DiceField()
    answer = Text(max_length=200)
    reason = Text(max_length=300, label="Why (shown in the battle's history)")
    # The current step the page showed (reopening: nothing happens when it has moved on).
    current = forms.IntegerField(required=False, min_value=0, max_value=11)
    # Reopening: the organiser saw which later steps it undoes, and confirmed.
    confirmed = forms.BooleanField(required=False)


class AnswerWidget(forms.RadioSelect):
    """A question's choices, each with the rule's summary (a skill's) for its label
    (``radio.data.summary``: the page draws each radio with it, in ``_tasks.html``)."""

    def __init__(self, attrs=None) -> None:
        super().__init__(attrs)
        self.summaries: dict[str, str] = {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["summary"] = self.summaries.get(str(value), "")
        return option


class AnswerForm(forms.Form):
    """The player's answer to a task's question (``task.question``): one of its options. The
    options are the question's, which the task keeps, so reading a post needs no query."""

    answer = forms.ChoiceField(
        widget=AnswerWidget, error_messages={"required": "Choose one.",
                                             "invalid_choice": "Choose one of the options."}
    )  # fmt: skip

    def __init__(self, *args, task, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        question = task.question or {}
        rows = getattr(task, "option_rows", None) or question.get("options", ())
        field = self.fields["answer"]
        field.choices = [(row[0], row[1]) for row in rows]
        field.widget.summaries = {str(row[0]): row[2] for row in rows if len(row) > 2}
        field.label = question.get("text", "")


class Refused(RuleViolation):
    """A post whose form does not read: its first message, and the form (``form``) with all
    of them, for a page that draws it again with each message beside its field."""

    def __init__(self, form: forms.Form) -> None:
        super().__init__(treasury_forms.first_error(form))
        self.form = form


def _cleaned(form: forms.Form) -> dict:
    if form.is_valid():
        return form.cleaned_data
    raise Refused(form)


def clean_posted(data: Mapping) -> dict:
    """The step, action, dice, answer and reason of a post (``PostedStepForm``)."""
    return _cleaned(PostedStepForm(data))


def clean_action(step: int, action: str, data: Mapping, *, warband=None):
    """The cleaned values of ``action`` in ``step``, or ``RuleViolation``: for a form of the
    treasury (which chooses among ``warband``'s things), the form itself, whose ``apply``
    makes the change. Only an action whose form has a dice field takes typed dice; any other
    rolls what it needs by the server (a hired wizard's spells), and dice typed for it are
    refused rather than ignored."""
    if step not in STEPS:
        raise RuleViolation("The form is out of date: reload the page.")
    form = action_forms(step).get(action)
    if form is None:
        raise RuleViolation(handler(step).no_such_action())
    if "dice" not in form.base_fields:
        typed = split_digits(parse_faces(str(data.get("dice") or "")[:120]), 6)
        if typed:
            raise RuleViolation(
                f"This takes no typed dice (the server rolls anything it needs); you typed "
                f"{len(typed)}."
            )
    if not issubclass(form, TreasuryForm):
        return _cleaned(form(data))
    if warband is None:
        raise TypeError(f"The form of {action!r} chooses among a warband's things: give it.")
    bound = form(data, warband=warband)
    values = _cleaned(bound)
    return bound if hasattr(bound, "apply") else values


def refused_beside(step, action, data: Mapping, refusal: RuleViolation, *, warband, values=None):
    """The form of ``action`` in ``step`` bound to the refused post ``data``, with what
    ``refusal`` said beside the field it names: the post's envelope (``PostedStepForm``,
    dice typed too long) refused by its fields, a step's rule by its ``field``; ``values``:
    the form already bound, when the post read. None when the action has no such form or no
    such field (the message then stays above the step)."""
    form_class = action_forms(step).get(action) if step in STEPS else None
    if form_class is None:
        return None
    if isinstance(values, form_class):
        form = values
    else:
        form = form_class(
            data, **({"warband": warband} if issubclass(form_class, TreasuryForm) else {})
        )
        form.is_valid()
    envelope = getattr(refusal, "form", None)
    if isinstance(envelope, PostedStepForm):
        for name, messages in envelope.errors.items():
            for message in messages:
                form.add_error(name if name in form.fields else None, message)
        return form
    field = getattr(refusal, "field", "")
    if field not in form.fields:
        return None
    form.add_error(field, str(refusal))
    return form


def clean_completion(data: Mapping) -> dict:
    return _cleaned(CompletionForm(data))
