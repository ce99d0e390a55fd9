"""The schedule's forms: a round, its pairing, a game by hand, a challenge and its answer.
The warbands offered are the campaign's active ones, read once by the page and given to the
form (``warbands``); a posted id that is not among them is refused beside its field."""

from __future__ import annotations

from django import forms

from battles.forms import scenario_choices
from battles.schedule.services import METHODS

DATE = {"format": "%Y-%m-%d", "attrs": {"type": "date"}}
# the scenarios by source, without "Other" (whose name a planned game does not keep)
SCENARIOS = [("", "The players choose"), *scenario_choices()[:-1]]


def _choices(warbands) -> list[tuple[int, str]]:
    return [(w.pk, f"{w.name} ({w.owner.username})") for w in warbands]


class RoundForm(forms.Form):
    number = forms.IntegerField(min_value=1, max_value=999)
    name = forms.CharField(max_length=100, required=False, help_text="Optional, e.g. “Autumn”.")
    starts_on = forms.DateField(label="From", widget=forms.DateInput(**DATE))
    ends_on = forms.DateField(label="To", widget=forms.DateInput(**DATE))

    def clean(self):
        data = super().clean()
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", "The round ends on or after the day it starts.")
        return data


class PairForm(forms.Form):
    method = forms.ChoiceField(label="Pair by", choices=list(METHODS.items()))
    left_out = forms.TypedMultipleChoiceField(
        coerce=int, required=False, label="Leave out", widget=forms.CheckboxSelectMultiple,
        help_text="Warbands that sit this round out.",
    )  # fmt: skip
    three_way = forms.BooleanField(
        required=False, label="With an odd number, one game of three instead of a bye"
    )
    scenario_key = forms.ChoiceField(label="Scenario", choices=SCENARIOS, required=False)
    replace = forms.BooleanField(
        required=False,
        label="Replace this round's games (they cannot be brought back)",
    )

    def __init__(self, *args, warbands, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["left_out"].choices = _choices(warbands)


class FixtureForm(forms.Form):
    warbands = forms.TypedMultipleChoiceField(
        coerce=int, label="Warbands of the game", widget=forms.CheckboxSelectMultiple,
        help_text="Two to four.",
    )  # fmt: skip
    scenario_key = forms.ChoiceField(label="Scenario", choices=SCENARIOS, required=False)
    planned_on = forms.DateField(label="Date", required=False, widget=forms.DateInput(**DATE))

    def __init__(self, *args, warbands, **kwargs):
        super().__init__(*args, **kwargs)
        self.auto_id = "id_fixture_%s"
        self.fields["warbands"].choices = _choices(warbands)

    def clean_warbands(self):
        chosen = self.cleaned_data["warbands"]
        if not 2 <= len(chosen) <= 4:
            raise forms.ValidationError("Choose two to four warbands.")
        return chosen


class ClearForm(forms.Form):
    sure = forms.BooleanField(label="Yes, delete this round's games (they cannot be brought back)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.auto_id = "id_clear_%s"


class ChallengeForm(forms.Form):
    challenger = forms.TypedChoiceField(coerce=int, label="Your warband")
    opponents = forms.TypedMultipleChoiceField(
        coerce=int, label="Challenge", widget=forms.CheckboxSelectMultiple,
        help_text="One to three warbands of other players.",
    )  # fmt: skip
    scenario_key = forms.ChoiceField(label="Scenario", choices=SCENARIOS, required=False)
    planned_on = forms.DateField(label="Date", required=False, widget=forms.DateInput(**DATE))

    def __init__(self, *args, own, others, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["challenger"].choices = _choices(own)
        self.fields["opponents"].choices = _choices(others)

    def clean_opponents(self):
        chosen = self.cleaned_data["opponents"]
        if not 1 <= len(chosen) <= 3:
            raise forms.ValidationError("Challenge one to three warbands.")
        return chosen


class AnswerForm(forms.Form):
    answer = forms.ChoiceField(choices=[("accept", "Accept"), ("decline", "Decline")])
