"""Fields and forms every part of a battle shares: the battle's scenario, date and notes
(reported, recorded or started in the helper), and physical dice as typed."""

from functools import lru_cache

from django import forms
from django.template.loader import render_to_string

from battles.dice import parse_faces
from battles.rules import scenarios
from core.dice import DiceError
from warbands.models import Warband


def scenario_choices(shown=None) -> list:
    """The scenarios as choices grouped by source, ``shown`` only when given (a picker's
    filter), then "Other"."""
    shown = scenarios.SCENARIOS if shown is None else shown
    groups = [
        (source, [(s.key, s.title) for s in shown if s.source == source])
        for source in scenarios.SOURCES
    ]
    return [*(group for group in groups if group[1]), ("", "Other scenario (name it below)")]


class BattleForm(forms.Form):
    """The battle's scenario (one of the chapter's, whose experience awards the app knows, or
    another named by the players), its date and notes. ``shown``: the scenarios a picker's
    filter leaves, offered on a page drawn afresh (a posted form takes any of them)."""

    scenario_key = forms.ChoiceField(
        label="Scenario",
        required=False,
        choices=scenario_choices,
        help_text="A listed scenario brings its own experience awards and income.",
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

    def __init__(self, *args, shown=None, **kwargs):
        super().__init__(*args, **kwargs)
        if shown is not None and not self.is_bound:
            picked = scenarios.scenario(self.initial.get("scenario_key", ""))
            keep = [*shown, picked] if picked.key and picked not in shown else shown
            self.fields["scenario_key"].choices = scenario_choices(keep)

    def clean(self):
        data = super().clean()
        if not data.get("scenario_key") and not (data.get("scenario") or "").strip():
            self.add_error("scenario", "Pick a scenario from the list, or name the other one.")
        return data


FILTERS = ("warbands", "setting", "source", "words")


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


class ScenarioFilterForm(forms.Form):
    """The scenario picker's filter, sent by GET: how many warbands, the setting, the source
    and words of the name. A value that does not read filters nothing."""

    warbands = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label="Warbands",
        choices=[("", "Any number"), *((n, str(n)) for n in range(2, 7))],
    )
    setting = forms.ChoiceField(required=False, label="Setting")
    source = forms.ChoiceField(
        required=False,
        label="Source",
        choices=[("", "Any source"), *((s, s) for s in scenarios.SOURCES)],
    )
    words = forms.CharField(required=False, max_length=60, label="Name")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["setting"].choices = [
            ("", "Any setting"),
            *((s, s) for s in scenarios.settings()),
        ]

    def shown(self) -> list:
        if not self.is_bound:
            return scenarios.matching(warbands=self.initial.get("warbands"))
        self.is_valid()
        values = self.cleaned_data  # the fields that read
        warbands = values.get("warbands")
        return scenarios.matching(
            warbands=warbands, setting=values.get("setting", ""),
            source=values.get("source", ""), words=values.get("words", ""),
        )  # fmt: skip


class ScenarioRollForm(forms.Form):
    """Rolling for the scenario: who plays (the table and the lowest-rated player follow)
    and the 2D6, typed or left to the server; ``back``: the page to return to."""

    warbands = forms.TypedMultipleChoiceField(
        coerce=int,
        label="Who plays",
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Tick the warbands that play."},
    )
    dice = DiceField(label="The 2D6 for the scenario")
    back = forms.ChoiceField(
        choices=[("report", "report"), ("record", "record"), ("play", "play")],
        widget=forms.HiddenInput,
        initial="report",
    )

    def __init__(self, *args, warbands=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["warbands"].choices = [(w.pk, w.name) for w in warbands]
        self.fields["dice"].widget.attrs.update({"placeholder": "server rolls", "maxlength": 20})


@lru_cache(maxsize=64)
def scenario_list(keys: tuple[str, ...]) -> str:
    """The picker's list of these scenarios, drawn once per process for each set a filter
    leaves: it shows only the scenarios' own data, which is loaded from the rules' files at
    import and never changes while the process runs. About a hundred scenarios took 20 ms
    to draw on every report, record and helper page. A filter's free words can ask for many
    sets; the cache keeps the 64 last asked. An edit of the list's template shows once the
    process restarts (``make run``'s server reloads on Python files, not templates)."""
    shown = [scenarios.scenario(key) for key in keys]
    return render_to_string("battles/_scenario_list.html", {"shown": shown})


def scenario_picker(request, campaign, *, back: str) -> dict:
    """What a page with the scenario picker draws: the filter (by GET; two warbands unless
    asked otherwise), the scenarios it leaves, and the roll's form."""
    asked = {k: request.GET[k] for k in FILTERS if k in request.GET}
    filtering = ScenarioFilterForm(asked or None, initial={"warbands": 2})
    shown = filtering.shown()
    warbands = Warband.objects.in_campaign(campaign).playing().order_by("name")
    return {
        "filter_form": filtering,
        "shown": shown,
        "scenario_list": scenario_list(tuple(s.key for s in shown)),
        "roll_form": ScenarioRollForm(warbands=warbands, initial={"back": back}),
    }


def rolled_key(request) -> str:
    """The scenario a roll chose, to preselect (``?scenario=``)."""
    return str(request.GET.get("scenario", ""))[:60]
