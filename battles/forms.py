"""Forms of battle reports. Each lists its fields explicitly."""

from django import forms

from battles.models import Participant
from battles.rules import ReportedResult


class BattleForm(forms.Form):
    scenario = forms.CharField(max_length=100)
    fought_on = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}))
    random_fortune = forms.BooleanField(required=False, label="Random fortune was in play")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class ParticipantRowForm(forms.Form):
    """One line per warband of the campaign: did it fight, and how did it end?"""

    took_part = forms.BooleanField(required=False)
    result = forms.ChoiceField(choices=Participant.Result.choices, required=False)
    routed = forms.BooleanField(required=False)
    rout_order = forms.IntegerField(min_value=1, max_value=20, required=False)


def participant_rows(data, warbands, *, initial=None):
    """A ``ParticipantRowForm`` per warband, prefixed by its id."""
    initial = initial or {}
    return [
        (
            warband,
            ParticipantRowForm(data, prefix=f"w{warband.pk}", initial=initial.get(warband.pk)),
        )
        for warband in warbands
    ]


def reported_results(rows) -> tuple[list[ReportedResult], list[str]]:
    """The results of the rows that took part, or the rows' form errors."""
    results, errors = [], []
    for warband, form in rows:
        if not form.is_valid():
            errors.append(f"{warband.name}: {next(iter(form.errors.values()))[0]}")
            continue
        data = form.cleaned_data
        if not data["took_part"]:
            continue
        if not data["result"]:
            errors.append(f"{warband.name}: say whether it won, drew or lost.")
            continue
        results.append(
            ReportedResult(
                warband_id=warband.pk,
                result=data["result"],
                routed=data["routed"],
                rout_order=data["rout_order"] if data["routed"] else None,
            )
        )
    return results, errors
