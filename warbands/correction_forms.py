"""Forms of the manual corrections page, one per kind of correction, and the organiser's
answer to a request (``DecisionForm``). Each lists its fields; every choice is limited to the
warband's own warriors (and their items, skills, spells and injuries), so a posted id of
somebody else's row is simply invalid. The page draws its
selects from the rows it read once (``correction_views.CorrectionsBoard``): these forms only
check what comes back.
"""

from __future__ import annotations

from django import forms

from core.options import OptionsSelect
from warbands import corrections, rules
from warbands.models import (
    Correction,
    Injury,
    Item,
    Skill,
    Spell,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)

Kind = Correction.Kind
PROFILE = rules.CHARACTERISTICS
REASON_REQUIRED = "Say why: every correction is recorded with its reason."


class _RowChoice(forms.ModelChoiceField):
    """A row of the warband, named in an error by what it is."""

    def __init__(self, *, label: str, **kwargs):
        super().__init__(
            queryset=kwargs.pop("queryset", Warrior.objects.none()),
            label=label,
            widget=OptionsSelect,
            error_messages={
                "required": f"Choose the {label.lower()}.",
                "invalid_choice": f"That {label.lower()} is not this warband's any more: "
                "reload the page.",
            },
            **kwargs,
        )


class CorrectionForm(forms.Form):
    """The fields every correction has: who it is for (or which of his rows), and why.
    ``makes``: the kind of correction; ``service``: the function of ``warbands.corrections``
    that applies it, called with ``target`` and ``values``."""

    makes: str = ""
    title: str = ""
    # field: the name of the page's options it draws (``correction_views.CorrectionsBoard``)
    options: dict[str, str] = {}
    reason = forms.CharField(
        max_length=300,
        label="Why",
        error_messages={"required": REASON_REQUIRED},
        widget=forms.TextInput(attrs={"placeholder": "recorded for the owner and the organisers"}),
    )

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.warband = warband
        on_roster = {"warrior__warband": warband, "warrior__status__in": Warrior.ON_ROSTER}
        querysets = {
            Warrior: Warrior.objects.on_roster().filter(warband=warband),
            WarriorItem: WarriorItem.objects.filter(**on_roster).select_related("item"),
            WarriorSkill: WarriorSkill.objects.filter(**on_roster).select_related("skill"),
            WarriorSpell: WarriorSpell.objects.filter(**on_roster).select_related("spell"),
            Injury: Injury.objects.filter(**on_roster),
            Skill: corrections.skills_for(warband),
            Spell: corrections.spells_for(warband),
            Item: corrections.items_for(warband),
        }
        for field in self.fields.values():
            if isinstance(field, forms.ModelChoiceField):
                field.queryset = querysets[field.queryset.model]

    def drawn_for(self, board) -> CorrectionForm:
        """The form as the page draws it: its selects offer the rows ``board`` read once, and
        its ids are its own among the page's forms."""
        self.auto_id = f"id_{self.makes}_%s"
        for name, source in self.options.items():
            self.fields[name].widget.source = lambda source=source: getattr(board, source)
        return self

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError(REASON_REQUIRED)
        return reason

    @staticmethod
    def service(target, **values):  # pragma: no cover - every form names its own
        raise NotImplementedError

    def target(self):
        return self.cleaned_data["warrior"]

    def values(self) -> dict:
        """The service's keyword arguments besides the target and the actor."""
        return {"reason": self.cleaned_data["reason"]}


class ExperienceForm(CorrectionForm):
    makes, title = Kind.EXPERIENCE, "Set experience"
    service = staticmethod(corrections.set_experience)
    warrior = _RowChoice(label="Warrior")
    experience = forms.IntegerField(
        min_value=0, max_value=corrections.MAX_EXPERIENCE, label="New experience"
    )
    field_order = ["warrior", "experience", "reason"]
    options = {"warrior": "experience_options"}

    def values(self) -> dict:
        return {**super().values(), "experience": self.cleaned_data["experience"]}


class CharacteristicForm(CorrectionForm):
    makes, title = Kind.CHARACTERISTIC, "Set a characteristic"
    service = staticmethod(corrections.set_characteristic)
    warrior = _RowChoice(label="Warrior")
    characteristic = forms.ChoiceField(
        choices=[(name, f"{name} ({rules.CHARACTERISTIC_NAMES[name]})") for name in PROFILE],
        label="Characteristic",
    )
    value = forms.IntegerField(
        min_value=0, max_value=corrections.MAX_CHARACTERISTIC, label="New value"
    )
    field_order = ["warrior", "characteristic", "value", "reason"]
    options = {"warrior": "profile_options"}

    def values(self) -> dict:
        data = self.cleaned_data
        return {
            **super().values(),
            "characteristic": data["characteristic"],
            "value": data["value"],
        }


class AddInjuryForm(CorrectionForm):
    makes, title = Kind.INJURY_ADDED, "Add an injury"
    service = staticmethod(corrections.add_injury)
    warrior = _RowChoice(label="Warrior")
    name = forms.CharField(max_length=100, label="Injury")
    effect = forms.CharField(max_length=200, required=False, label="Effect")
    field_order = ["warrior", "name", "effect", "reason"]
    options = {"warrior": "warrior_options"}

    def values(self) -> dict:
        data = self.cleaned_data
        return {**super().values(), "name": data["name"], "effect": data["effect"]}


class RemoveInjuryForm(CorrectionForm):
    makes, title = Kind.INJURY_REMOVED, "Remove an injury"
    service = staticmethod(corrections.remove_injury)
    injury = _RowChoice(label="Injury", queryset=Injury.objects.none())
    options = {"injury": "injury_options"}

    def target(self):
        return self.cleaned_data["injury"]


class AddSkillForm(CorrectionForm):
    makes, title = Kind.SKILL_ADDED, "Add a skill"
    service = staticmethod(corrections.add_skill)
    warrior = _RowChoice(label="Warrior")
    skill = _RowChoice(label="Skill", queryset=Skill.objects.none())
    options = {"warrior": "warrior_options", "skill": "skill_options"}

    def values(self) -> dict:
        return {**super().values(), "skill": self.cleaned_data["skill"]}


class RemoveSkillForm(CorrectionForm):
    makes, title = Kind.SKILL_REMOVED, "Remove a skill"
    service = staticmethod(corrections.remove_skill)
    known = _RowChoice(label="Skill known", queryset=WarriorSkill.objects.none())
    options = {"known": "known_skill_options"}

    def target(self):
        return self.cleaned_data["known"]


class AddSpellForm(CorrectionForm):
    makes, title = Kind.SPELL_ADDED, "Add a spell"
    service = staticmethod(corrections.add_spell)
    warrior = _RowChoice(label="Warrior")
    spell = _RowChoice(label="Spell", queryset=Spell.objects.none())
    options = {"warrior": "warrior_options", "spell": "spell_options"}

    def values(self) -> dict:
        return {**super().values(), "spell": self.cleaned_data["spell"]}


class RemoveSpellForm(CorrectionForm):
    makes, title = Kind.SPELL_REMOVED, "Remove a spell"
    service = staticmethod(corrections.remove_spell)
    known = _RowChoice(label="Spell known", queryset=WarriorSpell.objects.none())
    options = {"known": "known_spell_options"}

    def target(self):
        return self.cleaned_data["known"]


class AddItemForm(CorrectionForm):
    makes, title = Kind.ITEM_ADDED, "Add an item"
    service = staticmethod(corrections.add_item)
    warrior = _RowChoice(label="Warrior")
    item = _RowChoice(label="Item", queryset=Item.objects.none())
    options = {"warrior": "warrior_options", "item": "item_options"}

    def values(self) -> dict:
        return {**super().values(), "item": self.cleaned_data["item"]}


class RemoveItemForm(CorrectionForm):
    makes, title = Kind.ITEM_REMOVED, "Remove an item"
    service = staticmethod(corrections.remove_item)
    owned = _RowChoice(label="Item carried", queryset=WarriorItem.objects.none())
    options = {"owned": "owned_options"}

    def target(self):
        return self.cleaned_data["owned"]


FORMS: dict[str, type[CorrectionForm]] = {
    form.makes: form
    for form in (
        ExperienceForm,
        CharacteristicForm,
        AddInjuryForm,
        RemoveInjuryForm,
        AddSkillForm,
        RemoveSkillForm,
        AddSpellForm,
        RemoveSpellForm,
        AddItemForm,
        RemoveItemForm,
    )
}


class KindForm(forms.Form):
    """Which correction was posted (each form sends its ``kind``)."""

    kind = forms.ChoiceField(
        choices=[(kind, form.title) for kind, form in FORMS.items()],
        error_messages={
            "required": "Choose what to correct.",
            "invalid_choice": "Choose what to correct.",
        },
    )


class DecisionForm(forms.Form):
    """An organiser's answer to a request: approve it, or refuse it saying why."""

    decision = forms.ChoiceField(
        choices=[("approve", "Approve"), ("refuse", "Refuse")],
        error_messages={
            "required": "Approve or refuse the request.",
            "invalid_choice": "Approve or refuse the request.",
        },
    )
    reason = forms.CharField(
        max_length=300,
        required=False,
        label="Why not",
        widget=forms.TextInput(attrs={"placeholder": "the player reads it", "required": True}),
    )

    def drawn_for(self, correction) -> DecisionForm:
        """The refusal's form of one request (the button to approve posts no reason)."""
        self.auto_id = f"id_decide_{correction.pk}_%s"
        return self

    def clean(self):
        data = super().clean()
        reason = " ".join(data.get("reason", "").split())
        data["reason"] = reason
        if data.get("decision") == "refuse" and not reason:
            self.add_error("reason", "Say why it is refused: the player reads it.")
        return data


def posted(data, *, warband) -> forms.Form:
    """The bound form of the kind posted; a ``KindForm`` (invalid) when the kind is unknown."""
    kind = KindForm(data)
    if not kind.is_valid():
        return kind
    return FORMS[kind.cleaned_data["kind"]](data, warband=warband)
