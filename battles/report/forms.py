"""Forms of a battle's report, its sides, random fortune and step 0's carried items. Each
lists its fields explicitly.

A side's form (``battles.report.sides``) has a row per warrior free to fight (prefix
``o<pk>``), the warband's leader in the battle and the scenario's wyrdstone. A row's fields
depend on the warrior and the scenario: a hero goes out of action or not, a henchman group
counts its models out of action; a listed scenario's own awards are offered (heroes-only
awards to heroes), another scenario's experience is typed as a number.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from django import forms
from django.core.validators import MaxValueValidator

from battles.aftermath.carried_items import Declaration
from battles.forms import BattleForm, DiceField, FurtherDiceField
from battles.models import Participant
from battles.report.sides import Outcome
from battles.rules import ReportedResult
from battles.rules.scenarios import Scenario
from core.htmx import relabel
from core.options import OptionsSelect


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
        choices=[("d66", "D66"), ("d100", "D100")], label="Random fortune table", required=False
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


class WarriorSideForm(forms.Form):
    """One warrior's row. The bounds are the table's: a skirmish puts no more than 50 enemies
    out of action and a scenario gives no more than 20 experience. Its cells have no visible
    labels: each widget's aria-label names the warrior and the column."""

    took_part = forms.BooleanField(required=False)
    ooa = forms.BooleanField(required=False)
    models = forms.IntegerField(required=False, min_value=0, initial=0)
    by = forms.IntegerField(required=False, min_value=1, widget=OptionsSelect)
    enemies = forms.IntegerField(required=False, min_value=0, max_value=50, initial=0)
    experience = forms.IntegerField(required=False, min_value=0, max_value=20, initial=0)

    LABELS = {
        "models": "models out of action",
        "by": "taken out by",
        "enemies": "enemies put out of action",
        "experience": "scenario experience",
    }

    def __init__(self, *args, warrior, played: Scenario, **kwargs):
        super().__init__(*args, **kwargs)
        self.warrior = warrior
        self.fields["models"].max_value = warrior.group_size
        self.fields["models"].validators.append(MaxValueValidator(warrior.group_size))
        self.played = played
        self.award_fields = []
        for award in played.awards:
            if award.heroes_only and not warrior.is_hero:
                continue
            name = f"award_{award.key}"
            self.fields[name] = (
                forms.BooleanField(required=False, label=award.label)
                if award.most == 1
                else forms.IntegerField(
                    required=False, min_value=0, max_value=award.most, label=award.label, initial=0
                )
            )
            self.LABELS = {**self.LABELS, name: award.label}
            self.award_fields.append((award, name))
        who = warrior.name
        named = {
            "took_part": f"{who} took part",
            "ooa": f"{who} out of action",
            "models": f"How many of {who} went out of action",
            "by": f"Who took {who} out",
            "enemies": f"Enemies {who} put out of action",
            "experience": f"Scenario experience of {who}",
            **{name: f"{who}: {award.label}" for award, name in self.award_fields},
        }
        for name, label in named.items():
            self.fields[name].widget.attrs["aria-label"] = label
        self.fields["models"].widget.attrs["max"] = warrior.group_size
        self.fields["by"].widget.blank = "—"

    def drawn_for(self, enemies: Callable[[], str]) -> WarriorSideForm:
        """``enemies``: the options of the warriors who may have taken him out, built once for
        every row."""
        self.fields["by"].widget.source = enemies
        return self

    @property
    def award_cells(self):
        """A cell per award of the scenario: its field, or None where he cannot earn it."""
        names = dict(self.award_fields)
        return [
            (award, self[names[award]] if award in names else None) for award in self.played.awards
        ]

    def outcome(self) -> Outcome | None:
        """The warrior's outcome, or None when he did not take part."""
        data = self.cleaned_data
        if not data["took_part"]:
            return None
        return Outcome(
            warrior_id=self.warrior.pk,
            out_of_action=data["ooa"],
            models_out_of_action=data["models"] or 0,
            enemies_out_of_action=data["enemies"] or 0,
            scenario_experience=data["experience"] or 0,
            taken_out_by_id=data["by"],
            awards={award.key: int(data[name] or 0) for award, name in self.award_fields},
        )


class SideForm(forms.Form):
    leader = forms.IntegerField(
        required=False,
        label="Led by",
        help_text="The hero who led the warband in this battle: he earns the winning leader's "
        "experience.",
        widget=forms.Select,
    )
    shards = forms.IntegerField(
        required=False,
        min_value=0,
        initial=0,
        label="Wyrdstone shards the scenario gives the warband",
    )

    def __init__(self, *args, played: Scenario, **kwargs):
        super().__init__(*args, **kwargs)
        most = played.most_shards
        self.fields["shards"].max_value = most
        self.fields["shards"].validators.append(MaxValueValidator(most))
        self.fields["shards"].widget.attrs["max"] = most
        given = played.income or "Only if the scenario gives wyrdstone of its own."
        self.fields["shards"].help_text = f"{given} Added in step 3."

    def drawn_for(self, heroes) -> SideForm:
        """The leader chosen among ``heroes``, the side's heroes free to fight."""
        self.fields["leader"].widget.choices = [
            (hero.pk, f"{hero.name} (the warband's leader)" if hero.is_leader else hero.name)
            for hero in heroes
        ]
        return self


def side_rows(data, warriors, played: Scenario, *, existing=None) -> list[WarriorSideForm]:
    """A row per warrior; before anything is posted, each shows what the side said (or, for
    a side not entered yet, that everybody took part and stood)."""
    existing = existing or {}
    rows = []
    for warrior in warriors:
        initial = {"took_part": not existing or warrior.pk in existing}
        if warrior.pk in existing:
            o = existing[warrior.pk]
            initial.update(
                ooa=o.out_of_action, models=o.models_out_of_action, by=o.taken_out_by_id,
                enemies=o.enemies_out_of_action, experience=o.scenario_experience,
                **{f"award_{key}": times for key, times in o.awards.items()},
            )  # fmt: skip
        rows.append(
            WarriorSideForm(
                data, prefix=f"o{warrior.pk}", warrior=warrior, played=played, initial=initial
            )
        )
    return rows


def side_outcomes(rows) -> list[Outcome] | None:
    """The outcomes of the warriors who took part, or None when a row does not read (its
    messages are beside its fields)."""
    if not all(row.is_valid() for row in rows):
        return None
    return [outcome for row in rows if (outcome := row.outcome()) is not None]
