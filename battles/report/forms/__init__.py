"""Forms of a battle's report, random fortune and step 0's carried items (a side's warriors:
``side``). Each lists its fields explicitly."""

from __future__ import annotations

import itertools

from django import forms

from battles.aftermath.carried_items import Declaration
from battles.forms import BattleForm, DiceField, FurtherDiceField
from battles.models import Participant
from battles.report import at_the_end
from battles.rules import ReportedResult
from campaign.models import RandomFortuneEntry
from core.htmx import relabel


class RecordForm(BattleForm):
    """An organiser's record: each side then enters its warriors (the organiser may, for an
    absent player) and the players confirm, or the organiser confirms for them."""


class ParticipantRowForm(forms.Form):
    """One line per warband of the campaign: did it fight, and how did it end?"""

    took_part = forms.BooleanField(required=False)
    result = forms.ChoiceField(choices=[("", "—"), *Participant.Result.choices], required=False)
    routed = forms.BooleanField(required=False)
    rout_order = forms.IntegerField(min_value=1, max_value=20, required=False)

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, **kwargs)
        name = warband.name
        for field, label in (
            ("took_part", f"{name} took part"),
            ("result", f"Result of {name}"),
            ("routed", f"{name} routed"),
            ("rout_order", f"Rout order of {name}"),
        ):
            self.fields[field].widget.attrs["aria-label"] = label


def participant_rows(data, warbands, *, initial=None):
    """A ``ParticipantRowForm`` per warband, prefixed by its id."""
    initial = initial or {}
    return [
        (
            warband,
            ParticipantRowForm(
                data, prefix=f"w{warband.pk}", initial=initial.get(warband.pk), warband=warband
            ),
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
    exposed = forms.BooleanField(
        required=False,
        label="held by routers of Strength under 6 in sight and charge range of a standing enemy",
    )

    def __init__(self, *args, enemies, item=None, **kwargs):
        if item is not None:
            kwargs.setdefault("prefix", f"i{item.pk}")
            enemy = item.state == "enemy" and item.controlled_by_id
            state = f"enemy-{item.controlled_by_id}" if enemy else item.state
            kwargs.setdefault("initial", {"state": state, "exposed": item.exposed})
        super().__init__(*args, **kwargs)
        if item is not None:
            self.fields["state"].widget.attrs["aria-label"] = f"Where the {item.label} ended"
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

    securers = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=50,
        label="Warriors still on the table who can secure items",
        widget=forms.NumberInput(attrs={"required": True}),
    )
    pitters = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=2,
        label="Band of Pitters",
        widget=forms.Select(choices=[(0, "None"), (1, "±1"), (2, "±2")]),
    )
    quartermasters = forms.IntegerField(
        required=False, min_value=0, max_value=10, label="Standing Quartermasters"
    )
    # An organiser's override: a declaration that lets a player's items leave his warband
    # applies without waiting for the player (battles.aftermath.carried_items).
    override = forms.BooleanField(
        required=False,
        label="Apply it now without waiting for the player (the campaign feed names you)",
    )

    NUMBERS = ("securers", "pitters", "quartermasters")
    # Why each question is asked, in a sentence beside it; then where its starting value
    # comes from (``battles.report.at_the_end``).
    WHY = {
        "securers": "Each warrior who secures an item leaves the fight with it, so the "
        "recovery rolls need to know how many you had left to send.",
        "pitters": "A Band of Pitters that fought for you moves every recovery roll one (or "
        "two) your way.",
        "quartermasters": "The warband with more Quartermasters still on their feet moves every "
        "recovery roll one its way.",
    }
    SOURCES = {
        at_the_end.DECLARED: "As you declared it.",
        at_the_end.HELPER: "From the battle helper's table at the end of the game.",
        at_the_end.REPORT: "From the report's side: those not out of action.",
    }

    def __init__(self, *args, start: at_the_end.AtTheEnd | None = None, **kwargs):
        """``start``: what the report or the helper recorded (``at_the_end.recorded``)."""
        start = start or at_the_end.AtTheEnd()
        kwargs.setdefault("initial", {key: getattr(start, key) for key in self.NUMBERS})
        super().__init__(*args, **kwargs)
        for key in self.NUMBERS:
            known = getattr(start, key) is not None and start.source
            said = self.SOURCES[start.source] if known else "Not recorded: count them."
            if key == "pitters" and not known:
                said = "Not recorded: choose it if a Band of Pitters fought with you."
            self.fields[key].help_text = f"{self.WHY[key]} {said}"

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        return {**{key: data.get(key) or 0 for key in self.NUMBERS}, "override": data["override"]}


def carried_item_rows(data, items, enemies) -> list[tuple[object, CarriedItemForm]]:
    """A ``CarriedItemForm`` per carried item, showing where it was said to end."""
    return [(item, CarriedItemForm(data, enemies=enemies, item=item)) for item in items]


def carried_item_declarations(rows) -> tuple[list[Declaration], list[str]]:
    """A declaration per carried item from the posted rows, or a message per item that does
    not read (also beside its field)."""
    declarations, errors = [], []
    for item, form in rows:
        if form.is_valid():
            declarations.append(form.declaration(item.pk))
        else:
            errors.append(f"{item.label}: {next(iter(form.errors.values()))[0]}")
    return declarations, errors


class ReportForm(BattleForm):
    fortune_table = forms.ChoiceField(
        choices=RandomFortuneEntry.Table.choices, label="Random fortune table", required=False
    )


class ConfirmOnceEntered(forms.RadioSelect):
    """Confirm or dispute; confirming is offered only once every side is entered."""

    waiting = False

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if self.waiting and value == "yes":
            option["attrs"]["disabled"] = True
        return option


class RespondForm(forms.Form):
    agree = forms.ChoiceField(
        choices=[("yes", "Confirm"), ("no", "Dispute")],
        widget=ConfirmOnceEntered,
        error_messages=dict.fromkeys(("required", "invalid_choice"), "Confirm or dispute."),
    )
    reason = forms.CharField(
        required=False,
        max_length=2000,
        label="What is wrong (when disputing)",
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def drawn_for(self, *, sides_missing: bool) -> RespondForm:
        self.fields["agree"].widget.waiting = sides_missing
        if not self.is_bound:
            self.initial = {"agree": "no" if sides_missing else "yes"}
        return self


def ask_dice(form: forms.Form, name: str, need, label: str, *, maxlength: int = 40) -> None:
    """A dice field as a page asks it: labelled with what its roll takes (``core.dice.Need``),
    empty for the server's roll."""
    relabel(form, name, f"{label}. {need.label}", help_text="")
    form.fields[name].widget.attrs.update(
        {"placeholder": "server rolls", "maxlength": maxlength, "data-dice": need.count}
    )


class MarkersForm(forms.Form):
    """Random fortune markers: the D3 (typed as a D6), and the placement roll-off when two
    warbands' ratings tie (``battles.report.fortune.placement_rolloff``)."""

    dice = DiceField(label="The D3 for the markers")
    rolloff = DiceField(label="Placement roll-off")

    def drawn_for(self, markers, rolloff) -> MarkersForm:
        ask_dice(self, "dice", markers, "The markers' D3", maxlength=20)
        ask_dice(self, "rolloff", rolloff, "Placement roll-off, as ratings tie")
        return self


class DiscoveryForm(forms.Form):
    """A discovery test's D6, then the random fortune table's dice when it finds something."""

    warband = forms.IntegerField(label="Warband that reached the marker", widget=forms.Select)
    dice = DiceField(label="Discovery test")
    table = DiceField(label="Random fortune table")
    result = forms.CharField(
        required=False,
        max_length=200,
        label="What was found (the campaign lists no random fortune table)",
    )

    def drawn_for(self, testers, test, table) -> DiscoveryForm:
        """``testers``: the participants this user may test a marker for."""
        self.fields["warband"].widget.choices = [(p.warband_id, p.warband.name) for p in testers]
        ask_dice(self, "dice", test, "Discovery test", maxlength=20)
        ask_dice(
            self, "table", table, "Random fortune table, only if the test finds something",
            maxlength=20,
        )  # fmt: skip
        return self


class ChoosingForm(forms.Form):
    """The roll-off for the order in which the warbands choose uncontrolled items."""

    dice = DiceField()

    def drawn_for(self, need) -> ChoosingForm:
        ask_dice(self, "dice", need, "Choosing order roll-off")
        return self


class RecoverForm(forms.Form):
    """An uncontrolled item's recovery: its first roll, then each further roll asked for."""

    item = forms.IntegerField(
        label="Item",
        widget=forms.Select(attrs={"aria-label": "Uncontrolled item to roll for"}),
    )
    majority = forms.IntegerField(
        required=False,
        label="Most warriors in sight and charge range of it",
        widget=forms.Select,
    )
    dice = DiceField(label="Recovery roll")
    then = FurtherDiceField()

    def drawn_for(self, items, participants, need, *, asking: bool) -> RecoverForm:
        """``items``: the uncontrolled ones; ``asking``: the form again for a further roll,
        the first roll's dice kept and no longer typed."""
        self.fields["item"].widget.choices = [
            (i.pk, f"{i.label} of {i.owner.name}{' (heavy)' if i.heavy else ''}") for i in items
        ]
        self.fields["majority"].widget.choices = [("", "Neither side")] + [
            (p.warband_id, p.warband.name) for p in participants
        ]
        ask_dice(self, "dice", need, "Recovery roll")
        if asking:
            widget = self.fields["dice"].widget
            widget.attrs = {"readonly": True, **widget.attrs}
        return self


class FurtherRollForm(forms.Form):
    """A further roll a recovery led to (posted as one more ``then`` of ``RecoverForm``)."""

    then = DiceField()

    def drawn_for(self, asking: dict) -> FurtherRollForm:
        ask_dice(self, "then", asking["need"], f"A further roll: {asking['purpose']}")
        self.fields["then"].widget.attrs["autofocus"] = True
        return self


class FortuneTableForm(forms.Form):
    """The campaign's random fortune table as lines "low-high | result | kind"."""

    table = forms.ChoiceField(choices=RandomFortuneEntry.Table.choices)
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
