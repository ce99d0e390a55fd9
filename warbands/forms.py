"""Forms of the roster pages. Each lists its fields explicitly; the muster board draws one
form per row it offers (a warrior type to hire, a warrior's group, his purchases), so a form
drawn for a row takes that row and sets its widgets' attributes from it, and its own ids
(``auto_id``) so that the rows' fields stay apart."""

from dataclasses import dataclass

from django import forms
from django.forms.boundfield import BoundWidget

from core.htmx import relabel
from warbands import heirlooms, treasury
from warbands.models import WarbandType, Warrior, WarriorType
from warbands.models.lists import GRADE_NOTES
from warbands.rules import containers as container_rules


def row_ids(row: str) -> str:
    """The ``auto_id`` of a row's form: ``id_group_size_12`` for warrior 12's group."""
    return f"id_%s_{row}"


class WarbandListSearchForm(forms.Form):
    """The new-warband page's filter: the lists whose name holds the text. A GET form, so it
    works without a script; htmx draws the lists again as the player types."""

    q = forms.CharField(
        max_length=60,
        required=False,
        label="Find a warband list by name",
        widget=forms.SearchInput(attrs={"placeholder": "e.g. Skaven", "autocomplete": "off"}),
        error_messages={
            "max_length": "No list's name is that long: search for at most 60 characters of "
            "it (you sent %(show_value)d). Every list is shown meanwhile."
        },
    )

    def text(self) -> str:
        """The text to look for; "" (every list) when there is none or it does not read."""
        return self.cleaned_data["q"] if self.is_valid() else ""


@dataclass
class GradeGroup:
    """The lists of one grade as the page draws them: each with its radio button."""

    grade: str
    label: str
    note: str
    rows: list[tuple[WarbandType, BoundWidget, str | None]]


class ListRadios(forms.RadioSelect):
    """Radio buttons of warband lists, those the campaign's house rules refuse drawn disabled.
    ``refused`` is assigned per form (never changed in place: a copied widget shares it)."""

    refused: dict[str, str] = {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if str(value) in self.refused:
            option["attrs"] = {**option["attrs"], "disabled": True}
        return option


class WarbandCreateForm(forms.Form):
    """A warband's name and its list, chosen among ``lists`` (the page's, read once with
    their leaders: ``WarbandType.objects.with_leader()``); any list may be posted, whatever
    the page showed."""

    name = forms.CharField(max_length=100, label="Warband name")
    warband_type = forms.ModelChoiceField(
        queryset=WarbandType.objects.all(),
        label="Warband list",
        widget=ListRadios,
        error_messages={
            "required": "Choose a warband list.",
            "invalid_choice": "That warband list is no longer offered: choose another.",
        },
    )

    def __init__(
        self, *args, lists: list[WarbandType], refused: dict[int, str] | None = None, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lists = lists
        # The page's lists as the choices, so drawing the radios reads nothing more.
        self.fields["warband_type"].choices = [(row.pk, row.name) for row in lists]
        # Why the campaign's house rules refuse a list, by its pk (the service refuses it too).
        self.refused = {str(pk): reason for pk, reason in (refused or {}).items()}
        self.fields["warband_type"].widget.refused = self.refused

    def grade_groups(self) -> list[GradeGroup]:
        """The lists by grade, 1a first; a list of no known grade (made in the admin without
        one) last, so that none is left out."""
        radios = {str(radio.data["value"]): radio for radio in self["warband_type"]}
        grades = [*WarbandType.Grade.choices, ("", "Other lists")]
        known = set(WarbandType.Grade.values)
        groups = []
        for grade, label in grades:
            rows = [
                (row, radios[str(row.pk)], self.refused.get(str(row.pk)))
                for row in self.lists
                if row.grade == grade or (not grade and row.grade not in known)
            ]
            if rows:
                groups.append(GradeGroup(grade, label, GRADE_NOTES.get(grade, ""), rows))
        return groups


class HireForm(forms.Form):
    """Hire a warrior type of the warband's list. Drawn for one type (``warrior_type``): a
    hero's group size is 1, unasked; a spellcaster's starting spell is asked only of him."""

    warrior_type = forms.ModelChoiceField(
        queryset=WarriorType.objects.none(), widget=forms.HiddenInput
    )
    name = forms.CharField(
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "Name (optional)"}),
    )
    group_size = forms.IntegerField(
        min_value=1, max_value=20, initial=1, widget=forms.NumberInput(attrs={"required": True})
    )
    spell_roll = forms.IntegerField(
        min_value=1,
        max_value=6,
        required=False,
        label="Starting spell (D6 you rolled)",
        widget=forms.NumberInput(
            attrs={
                "placeholder": "D6",
                "aria-label": "Starting spell: the D6 you rolled (empty: the server rolls)",
                "title": "Starting spell: the D6 you rolled, or leave empty for a server roll",
            }
        ),
    )

    def __init__(self, *args, warband, warrior_type: WarriorType | None = None, **kwargs):
        if warrior_type is not None:
            kwargs.setdefault("initial", {"warrior_type": warrior_type.pk})
        super().__init__(*args, **kwargs)
        self.fields["warrior_type"].queryset = WarriorType.objects.filter(
            warband_type=warband.warband_type
        )
        if warrior_type is not None:
            self.drawn_for(warrior_type)

    def drawn_for(self, warrior_type: WarriorType) -> "HireForm":
        """The form as its type's row draws it (the posted one too, after a refusal)."""
        self.auto_id = row_ids(f"type_{warrior_type.pk}")
        name = warrior_type.name
        self.fields["name"].widget.attrs["aria-label"] = f"Name of the new {name}"
        size = self.fields["group_size"]
        if warrior_type.is_hero:
            size.widget = forms.HiddenInput()
        else:
            size.widget.attrs["max"] = warrior_type.group_max
            size.widget.attrs["aria-label"] = f"How many {name}"
        self.asks_spell = bool(warrior_type.spell_list_id and warrior_type.starting_spells)
        return self


class HireSwordForm(forms.Form):
    sword = forms.SlugField(
        max_length=60,
        widget=forms.HiddenInput,
        error_messages=dict.fromkeys(("required", "invalid"), "Choose a hired sword to hire."),
    )
    name = forms.CharField(
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "Name (optional)"}),
    )

    def drawn_for(self, sword) -> "HireSwordForm":
        self.auto_id = row_ids(f"sword_{sword.key}")
        if not self.is_bound:
            self.initial = {"sword": sword.key}
        self.fields["name"].widget.attrs["aria-label"] = f"Name of the new {sword.name}"
        return self


class BuyItemForm(forms.Form):
    """An item of the warrior's equipment list; whether it is on his list, the service says.
    Drawn for a warrior, the select offers his ``choices`` (entries and their prices)."""

    item = forms.SlugField(
        max_length=60,
        widget=forms.Select,
        error_messages=dict.fromkeys(("required", "invalid"), "Choose an item to buy."),
    )
    heirloom = forms.BooleanField(required=False, label="As his family heirloom, at half price")
    heirloom_offered = False  # drawn only while the warrior may still buy his heirloom

    def drawn_for(self, warrior, choices) -> "BuyItemForm":
        self.auto_id = row_ids(warrior.pk)
        relabel(self, "item", f"Buy for {warrior.name}")
        self.heirloom_offered = heirlooms.heirloom_open(warrior, [e for e, _ in choices])
        self.fields["item"].widget.choices = [("", "Choose an item…")] + [
            (entry.item.key, f"{entry.item.name} · {price} gc") for entry, price in choices
        ]
        return self


class GroupSizeForm(forms.Form):
    group_size = forms.IntegerField(min_value=1, max_value=20, label="Models in the group")

    def drawn_for(self, warrior) -> "GroupSizeForm":
        self.auto_id = row_ids(warrior.pk)
        if not self.is_bound:
            self.initial = {"group_size": warrior.group_size}
        self.fields["group_size"].widget.attrs["max"] = warrior.warrior_type.group_max
        return self


class RenameForm(forms.Form):
    name = forms.CharField(max_length=100)


class ConfirmForm(forms.Form):
    """An action that cannot be undone: done only with the box ticked, checked on the server
    (a page without JavaScript, or a replayed post, asks as well)."""

    confirm = forms.BooleanField(
        label="I understand this cannot be undone.",
        error_messages={"required": "Tick the box to confirm: this cannot be undone."},
    )


def _container_label(kind: str) -> str:
    spec = container_rules.spec(kind)
    return f"{spec.name} · {spec.price} gc · holds {spec.capacity.gold} gc"


class MusterContainerForm(forms.Form):
    kind = forms.ChoiceField(label="Buy a container", choices=())
    holder = forms.ModelChoiceField(
        queryset=Warrior.objects.none(),
        required=False,
        label="For the hero (a pouch)",
        empty_label="—",
    )

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [
            (kind, _container_label(kind)) for kind in treasury.BUYABLE_CONTAINERS
        ]
        self.fields["holder"].queryset = Warrior.objects.fighting().filter(warband=warband)
        self.fields["holder"].label_from_instance = lambda warrior: warrior.name

    def drawn_for(self, warriors) -> "MusterContainerForm":
        """The holder offered among ``warriors`` (the board's roster, read once): its heroes."""
        self.fields["holder"].choices = [("", "—")] + [
            (w.pk, w.name) for w in warriors if w.is_hero
        ]
        return self
