"""Forms of battle reports. Each lists its fields explicitly."""

import itertools

from django import forms

from battles.dice import parse_faces
from battles.models import Participant
from battles.rules import ReportedResult, scenarios
from battles.sequence.carried_items import Declaration
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


class RecordForm(BattleForm):
    """An organiser's record: each side then enters its warriors (the organiser may, for an
    absent player) and the players confirm, or the organiser confirms for them."""


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
        if not data["took_part"] and not data["result"]:
            continue  # a result given means the warband took part, ticked or not
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


class CarriedItemForm(forms.Form):
    """Where one carried item ended the game (MiM, carried items; prefix ``i<pk>``): with the
    warband's own warriors, with one of the enemy warbands, or uncontrolled."""

    state = forms.ChoiceField(error_messages={"required": "say where it ended the game."})
    exposed = forms.BooleanField(required=False)

    def __init__(self, *args, enemies, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["state"].choices = [
            ("own", "Controlled by our warriors"),
            *((f"enemy-{enemy.pk}", f"Controlled by {enemy.name}") for enemy in enemies),
            ("uncontrolled", "Uncontrolled"),
        ]

    def declaration(self, item_id: int) -> Declaration:
        state = self.cleaned_data["state"]
        enemy = state.removeprefix("enemy-") if state.startswith("enemy-") else ""
        return Declaration(
            item_id=item_id,
            state="enemy" if enemy else state,
            controlled_by_id=int(enemy) if enemy else None,
            exposed=self.cleaned_data["exposed"],
        )


class CarriedItemsForm(forms.Form):
    """Who can still secure items at the end of the game (MiM): warriors on the table, a Band
    of Pitters' modifier, standing Quartermasters (when the campaign uses that skill)."""

    securers = forms.IntegerField(required=False, min_value=0, max_value=50)
    pitters = forms.IntegerField(required=False, min_value=0, max_value=2)
    quartermasters = forms.IntegerField(required=False, min_value=0, max_value=10)
    # An organiser's override: a declaration that lets a player's items leave his warband
    # applies without waiting for the player (battles.sequence.carried_items).
    override = forms.BooleanField(required=False)

    NUMBERS = ("securers", "pitters", "quartermasters")

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        return {**{key: data.get(key) or 0 for key in self.NUMBERS}, "override": data["override"]}


def carried_item_declarations(data, items, enemies) -> tuple[list[Declaration], list[str]]:
    """A declaration per carried item from the posted form, or a message per item that does
    not read."""
    declarations, errors = [], []
    for item in items:
        form = CarriedItemForm(data, prefix=f"i{item.pk}", enemies=enemies)
        if form.is_valid():
            declarations.append(form.declaration(item.pk))
        else:
            errors.append(f"{item.label}: {next(iter(form.errors.values()))[0]}")
    return declarations, errors


class ReportForm(BattleForm):
    fortune_table = forms.ChoiceField(
        choices=[("d66", "D66"), ("d100", "D100")], label="Random fortune table", required=False
    )


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


class RespondForm(forms.Form):
    agree = forms.ChoiceField(choices=[("yes", "Confirm"), ("no", "Dispute")])
    reason = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


class DiceForm(forms.Form):
    dice = DiceField()


class MarkersForm(forms.Form):
    """Random fortune markers: the D3 (typed as a D6), and the placement roll-off when two
    warbands' ratings tie (``battles.fortune.placement_rolloff``)."""

    dice = DiceField(label="The D3 for the markers")
    rolloff = DiceField(label="Placement roll-off")


class DiscoveryForm(forms.Form):
    """A discovery test's D6, then the random fortune table's dice when it finds something."""

    warband = forms.IntegerField()
    dice = DiceField(label="Discovery test")
    table = DiceField(label="Random fortune table")
    result = forms.CharField(required=False, max_length=200, label="What was found")


class RecoverForm(forms.Form):
    """An uncontrolled item's recovery: its first roll, then each further roll asked for."""

    item = forms.IntegerField()
    majority = forms.IntegerField(required=False)
    dice = DiceField(label="Recovery roll")
    then = FurtherDiceField()


class FortuneTableForm(forms.Form):
    """The campaign's random fortune table as lines "low-high | result | kind"."""

    table = forms.ChoiceField(choices=[("d66", "D66"), ("d100", "D100")])
    lines = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 10}),
        required=False,
        help_text='One row a line: "11-16 | Silver goblet | carried_item". Kinds: carried_item, '
        "animal, cart, coach.",
    )

    KINDS = ("carried_item", "animal", "cart", "coach")

    def clean(self):
        data = super().clean()
        table = data.get("table")
        limit = 66 if table == "d66" else 100
        rows = []
        for number, line in enumerate((data.get("lines") or "").splitlines(), start=1):
            if not line.strip():
                continue
            parts = [part.strip() for part in line.split("|")]
            if len(parts) not in (2, 3):
                raise forms.ValidationError(f"Line {number}: write low-high | result | kind.")
            span, result = parts[0], parts[1]
            kind = parts[2] if len(parts) == 3 and parts[2] else "carried_item"
            low, _, high = span.partition("-")
            try:
                low, high = int(low), int(high or low)
            except ValueError:
                raise forms.ValidationError(f"Line {number}: {span!r} is not a range.") from None
            if not (1 <= low <= high <= limit) or not result:
                raise forms.ValidationError(f"Line {number}: the range must lie in 1-{limit}.")
            if kind not in self.KINDS:
                raise forms.ValidationError(
                    f"Line {number}: kind must be one of {', '.join(self.KINDS)}."
                )
            rows.append((low, high, result[:200], kind))
        rows.sort()
        for (_, high, *_), (low, *_) in itertools.pairwise(rows):
            if low <= high:
                raise forms.ValidationError("Two rows cover the same roll.")
        data["rows"] = rows
        return data
