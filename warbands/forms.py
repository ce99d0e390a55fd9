"""Forms of the roster pages. Each lists its fields explicitly."""

from django import forms

from warbands import treasury
from warbands.models import WarbandType, Warrior, WarriorType


class WarbandCreateForm(forms.Form):
    name = forms.CharField(max_length=100, label="Warband name")
    warband_type = forms.ModelChoiceField(
        queryset=WarbandType.objects.order_by("name"),
        label="Warband list",
        empty_label="Choose a warband list…",
    )


class HireForm(forms.Form):
    warrior_type = forms.ModelChoiceField(queryset=WarriorType.objects.none())
    name = forms.CharField(max_length=100, required=False)
    group_size = forms.IntegerField(min_value=1, max_value=20, initial=1)
    spell_roll = forms.IntegerField(
        min_value=1,
        max_value=6,
        required=False,
        label="Starting spell (D6 you rolled)",
        help_text="Leave empty and the server rolls it.",
    )

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["warrior_type"].queryset = WarriorType.objects.filter(
            warband_type=warband.warband_type
        )


class HireSwordForm(forms.Form):
    sword = forms.SlugField(max_length=60)
    name = forms.CharField(max_length=100, required=False)


class BuyItemForm(forms.Form):
    item = forms.SlugField(max_length=60)


class GroupSizeForm(forms.Form):
    group_size = forms.IntegerField(min_value=1, max_value=20)


class RenameForm(forms.Form):
    name = forms.CharField(max_length=100)


class MusterContainerForm(forms.Form):
    kind = forms.ChoiceField(choices=[(kind, kind) for kind in treasury.BUYABLE_CONTAINERS])
    holder = forms.ModelChoiceField(queryset=Warrior.objects.none(), required=False)

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["holder"].queryset = Warrior.objects.fighting().filter(warband=warband)
