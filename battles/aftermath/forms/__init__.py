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

import re
from collections.abc import Callable, Mapping

from django import forms
from django.urls import reverse
from django.utils.html import format_html

from battles.aftermath.dramatis_personae import DramatisPersonae
from battles.aftermath.experience import Experience
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
from warbands.models import HiredSword, StorageContainer
from warbands.treasury import forms as treasury_forms
from warbands.treasury.board import FORMS as BOARD_FORMS
from warbands.treasury.board import Post
from warbands.treasury.forms import ContainerField, TreasuryForm

LARGEST_KEY = 2**63 - 1  # a bigint primary key
WHOLE = re.compile(r"-?[0-9]{1,12}")  # longer is out of every bound anyway
KEY = re.compile(r"[0-9]{1,19}")


def as_key(raw: str) -> int | None:
    """``raw`` as a primary key (ASCII digits, within a bigint), else None."""
    return int(raw) if KEY.fullmatch(raw) and int(raw) <= LARGEST_KEY else None


class Whole(forms.IntegerField):
    """A whole number from ``minimum`` to ``maximum``; blank means 0. ``attrs``: what its input
    asks for beyond those bounds (a group's usual size: ``max`` 5 where the rules allow 20)."""

    def __init__(
        self, label: str, *, minimum: int = 0, maximum: int = 10_000, attrs=None, **kwargs
    ) -> None:
        bounds = f"{label}: give a number from {minimum} to {maximum}."
        super().__init__(
            label=label,
            required=False,
            min_value=minimum,
            max_value=maximum,
            error_messages={
                "invalid": f"{label}: give a whole number.",
                "min_value": bounds,
                "max_value": bounds,
            },
            **kwargs,
        )
        self.widget.attrs.update(attrs or {})

    def to_python(self, value):
        raw = str(value if value is not None else "").strip()
        if not raw:
            return 0
        if not WHOLE.fullmatch(raw):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return int(raw)


class Key(forms.Field):
    """The key of one of the warband's things. Blank or not a key: None (the step then asks
    to choose). Drawn by its page as a hidden input: a choice among the page's own lists is
    drawn with them (``core.options``)."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        return as_key(str(value or "").strip())


class Tagged(forms.CharField):
    """A choice written ``tag:rest`` ("stored:12", "container:cart"): the pair of its parts,
    the rest a key (an int, else None) when ``key``."""

    def __init__(self, *, key: bool = False, **kwargs) -> None:
        self.key = key
        super().__init__(required=False, max_length=100, **kwargs)

    def to_python(self, value):
        tag, _, rest = super().to_python(value).partition(":")
        if self.key:
            rest = as_key(rest)
        return tag, rest


class Text(forms.CharField):
    """A short text (a name, a choice among the step's own); longer input is cut at
    ``max_length``."""

    def __init__(self, *, max_length: int = 100, **kwargs) -> None:
        self.cut = max_length
        super().__init__(required=False, **kwargs)
        if isinstance(self.widget, forms.TextInput):
            self.widget.attrs.setdefault("maxlength", str(max_length))

    def to_python(self, value):
        return super().to_python(value)[: self.cut]


# --- The forms of the actions -------------------------------------------------------------


class Shown:
    """A step's form as its page draws it (``battles.aftermath.forms.page.StepForms``).
    ``drawn``: the fields the page draws from the form, each with its message beside it (a
    message of another field, a choice drawn from the page's own lists, is the form's own, at
    its top); ``row``: the field that tells apart the forms of an action drawn once per row
    (a warrior's purchases), drawn hidden; ``show``: what its fields ask for that depends on
    the page (the shards held)."""

    drawn: tuple[str, ...] = ()
    row = ""

    def show(self, page: dict, row: str = "") -> None:
        """Set what depends on ``page``, the step's page context (and on the ``row``)."""


class NoInput(forms.Form):
    pass


class SellWyrdstoneForm(Shown, TreasuryForm):
    shards = Whole("Shards to sell", minimum=1, maximum=1000, attrs={"required": True})
    into = ContainerField(label="Money into", pile=True)
    drawn = ("shards",)

    def show(self, page: dict, row: str = "") -> None:
        """All the shards held, and no more."""
        held = page.get("shards_held") or 0
        self.fields["shards"].widget.attrs["max"] = held
        self.initial.setdefault("shards", held)


class AddModelsForm(Shown, forms.Form):
    """More models for a henchman group (veterans in step 5, new recruits in step 8)."""

    group = Key()
    models = Whole("How many", minimum=1, maximum=20, initial=1,
                   attrs={"max": 5, "required": True})  # fmt: skip
    pay_from = Key()
    drawn = ("models",)


class BuyRareForm(Shown, TreasuryForm):
    """A rare item: its price dice, when its price has dice not rolled yet (the step checks
    their count: ``battles.aftermath.rare_items.price_roll``). ``to``: a warrior's key, or one
    of the warband's containers (None when it is not one: the step names the item it asks a
    container for)."""

    task = Key()
    goods = Tagged()
    to = Tagged(key=True)
    pay_from = Key()
    haggle = forms.BooleanField(required=False)  # Haggle: 2D6 off (``battles.aftermath.haggle``)
    dice = DiceField(
        label="Price dice", widget=forms.TextInput(attrs={"placeholder": "server rolls"})
    )
    drawn = ("haggle", "dice")
    row = "task"  # one form per rarity roll that succeeded

    def show(self, page: dict, row: str = "") -> None:
        self.fields["dice"].widget.attrs["maxlength"] = 20  # a price's dice and Haggle's

    def clean_to(self):
        where, pk = self.cleaned_data["to"]
        if where == "warrior":
            return where, pk
        held = StorageContainer.objects.held().filter(warband=self.warband, pk=pk)
        return where, held.first() if pk else None


class HireSwordForm(Shown, forms.Form):
    # A hired sword of the catalogue, by key (one form per row); blank: typed by hand.
    sword = Text(max_length=60, widget=forms.HiddenInput)
    name = Text(label="Name")
    kind = Text(label="Kind", widget=forms.Select(choices=HiredSword.Kind.choices))
    hire_fee = Whole("Hire fee", maximum=1000, initial=0)
    upkeep = Whole("Upkeep", maximum=1000, initial=0)
    pay_from = Key()
    drawn = ("name", "kind", "hire_fee", "upkeep")
    row = "sword"

    def show(self, page: dict, row: str = "") -> None:
        """A sword of the catalogue may be named; one typed by hand must be."""
        name = self.fields["name"].widget
        if not row:
            name.attrs["required"] = True
            return
        swords = {sword.key: sword.name for sword, _reason in page.get("sword_catalogue", ())}
        named = swords.get(row, "hired sword")
        name.attrs.update(
            {"placeholder": "Name (optional)", "aria-label": f"Name of the new {named}"}
        )


class UpkeepForm(forms.Form):
    hired_sword = Key()
    warrior = Key()  # a hired sword of the catalogue on the roster
    decision = Text()
    pay_from = Key()


class HireForm(Shown, forms.Form):
    warrior_type = Key()
    # Henchmen only: the step asks for 1 or more.
    group_size = Whole("Group size", maximum=20, initial=1, attrs={"min": 1, "max": 5})
    name = Text(label="Name", widget=forms.TextInput(attrs={"placeholder": "optional"}))
    pay_from = Key()
    drawn = ("name", "group_size")


class BuyForm(Shown, forms.Form):
    warrior = Key()
    item = Text()
    pay_from = Key()
    haggle = forms.BooleanField(required=False)
    drawn = ("haggle",)
    row = "warrior"  # one form per warrior


class BuyStashForm(Shown, TreasuryForm):
    item = Text()
    into = ContainerField(label="into")
    pay_from = Key()
    haggle = forms.BooleanField(required=False)
    drawn = ("haggle",)


class SellItemForm(TreasuryForm):
    what = Tagged(key=True)
    into = ContainerField(label="Money into", pile=True)


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


def clean_completion(data: Mapping) -> dict:
    return _cleaned(CompletionForm(data))
