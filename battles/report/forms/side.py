"""The form of a side (``battles.report.sides``): a row per warrior free to fight (prefix
``o<pk>``), the warband's leader in the battle and the scenario's wyrdstone. A row's fields
depend on the warrior and the scenario: a hero goes out of action or not, a henchman group
counts its models out of action; a listed scenario's own awards are offered (heroes-only
awards to heroes), another scenario's experience is typed as a number. A row's cells have no
visible labels: each widget's aria-label names the warrior and the column.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.core.validators import MaxValueValidator

from battles.report.sides import Outcome
from battles.rules.scenarios import Scenario
from core.options import OptionsSelect


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
        if played.roles:
            self.fields["role"] = forms.ChoiceField(
                required=False,
                label="Role in the scenario",
                choices=[("", "—"), *((role, role) for role in played.roles)],
                help_text="Only its warriors earn the awards of that role.",
            )
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


class AsRecordedForm(forms.Form):
    """Save a side as the battle helper wrote it, and confirm the battle, in one post
    (``services.confirm_side_as_recorded``): the side as the page showed it (``version``)."""

    version = forms.CharField(
        max_length=16,
        widget=forms.HiddenInput,
        error_messages={"required": "The page is out of date: open the battle again."},
    )
