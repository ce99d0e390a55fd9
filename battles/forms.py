"""Fields and forms every part of a battle shares: the battle's scenario, date and notes
(reported, recorded or started in the helper), and physical dice as typed."""

from django import forms

from battles.dice import parse_faces
from battles.rules import scenarios
from core.dice import DiceError


class BattleForm(forms.Form):
    """The battle's scenario (one of the rulebook's, whose experience awards the app knows, or
    another named by the players), its date and notes."""

    scenario_key = forms.ChoiceField(
        label="Scenario",
        required=False,
        choices=[
            *((s.key, s.title) for s in scenarios.SCENARIOS),
            ("", "Other scenario (name it below)"),
        ],
        help_text="The rulebook's scenarios bring their own experience awards and income.",
    )
    scenario = forms.CharField(
        max_length=100,
        required=False,
        label="Other scenario's name",
        help_text="Only for another scenario: its experience awards are typed per warrior.",
    )
    fought_on = forms.DateField(
        label="Date", widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    random_fortune = forms.BooleanField(required=False, label="Random fortune was in play")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean(self):
        data = super().clean()
        if not data.get("scenario_key") and not (data.get("scenario") or "").strip():
            self.add_error("scenario", "Pick a scenario from the list, or name the other one.")
        return data


class DiceField(forms.CharField):
    """Physical dice as typed ("3 5", or "35" for dice under ten sides); empty means the server
    rolls. The page labels each such field with what its roll takes (``core.dice.Need``), and
    the service that rolls refuses any other count."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 120)
        kwargs.setdefault("label", "Dice you rolled")
        kwargs.setdefault("help_text", "Leave empty and the server rolls, in front of everybody.")
        super().__init__(**kwargs)


class FurtherDiceField(forms.Field):
    """The dice of each further roll asked for so far (one ``then`` input each, in order): a
    list of faces per roll, empty for a roll left to the server."""

    widget = forms.MultipleHiddenInput
    MOST = 30  # more further rolls than any recovery asks for

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("label", "Further rolls")
        super().__init__(**kwargs)

    def to_python(self, value):
        values = value if isinstance(value, list | tuple) else [value] if value else []
        if len(values) > self.MOST:
            raise forms.ValidationError("That is more rolls than any recovery needs.")
        try:
            return [parse_faces(str(text)[:120]) for text in values]
        except DiceError as refusal:
            raise forms.ValidationError(str(refusal)) from None


class DiceForm(forms.Form):
    dice = DiceField()
