"""The house-rules form: grades and single entries for lists and hired swords, and the
starting gold. Single entries are offered grouped by grade; the form hands the service keys."""

from __future__ import annotations

from django import forms

from warbands.models import HiredSwordType, HouseRules, WarbandType
from warbands.models.house_rules import (
    GRADES,
    MOST_STARTING_GOLD,
    SWORD_GRADES,
    every_grade,
    every_sword_grade,
)


def _grouped(rows, grades) -> list:
    """(grade label, [(key, name), …]) groups in the order of ``grades``; rows of no known
    grade last."""
    groups = []
    known = {grade for grade, _ in grades}
    for grade, label in [*grades, ("", "Other")]:
        members = [
            (row.key, row.name)
            for row in rows
            if row.grade == grade or (not grade and row.grade not in known)
        ]
        if members:
            groups.append((label, members))
    return groups


class HouseRulesForm(forms.Form):
    list_grades = forms.MultipleChoiceField(
        choices=GRADES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Whole grades of warband lists",
        help_text="Every list of a ticked grade, also those the app adds later.",
    )
    list_keys = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Single warband lists",
        help_text="Allowed beside the grades above. To leave out one list of a grade, untick "
        "the grade and tick its other lists here.",
    )
    sword_grades = forms.MultipleChoiceField(
        choices=SWORD_GRADES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Whole grades of hired swords and dramatis personae",
    )
    sword_keys = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Single hired swords and dramatis personae",
        help_text="Allowed beside the grades above.",
    )
    starting_gold = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MOST_STARTING_GOLD,
        label="Starting gold (gc)",
        help_text="Blank: each list's own (500 gc for most).",
    )
    sawbones = forms.BooleanField(
        required=False,
        label="Sawbones",
        help_text="Optional rule (Town Cryer 8): after a battle a hero may see a physician "
        "about one lasting injury (20 gc, a roll on the surgery table) instead of looking for "
        "a rare item; post-battle step 6 offers it.",
    )

    def __init__(self, *args, house: HouseRules | None = None, **kwargs) -> None:
        if house is not None:
            kwargs.setdefault(
                "initial",
                {
                    "list_grades": house.list_grades,
                    "list_keys": house.list_keys,
                    "sword_grades": house.sword_grades,
                    "sword_keys": house.sword_keys,
                    "starting_gold": house.starting_gold,
                    "sawbones": house.sawbones,
                },
            )
        else:
            kwargs.setdefault(
                "initial", {"list_grades": every_grade(), "sword_grades": every_sword_grade()}
            )
        super().__init__(*args, **kwargs)
        self.fields["list_keys"].choices = _grouped(
            WarbandType.objects.only("key", "name", "grade").order_by("name"), GRADES
        )
        self.fields["sword_keys"].choices = _grouped(
            HiredSwordType.objects.only("key", "name", "grade").order_by("name"), SWORD_GRADES
        )

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("list_grades") and not cleaned.get("list_keys"):
            self.add_error(
                "list_grades",
                "Allow at least one grade or one list, or nobody can muster.",
            )
        return cleaned

    def grouped(self, name: str) -> list[tuple[str, list]]:
        """The checkboxes of ``name`` (``list_keys`` or ``sword_keys``) by grade, for the
        page to draw each grade under its heading."""
        boxes = {str(box.data["value"]): box for box in self[name]}
        return [
            (label, [boxes[key] for key, _ in members])
            for label, members in self.fields[name].choices
        ]

    def grouped_lists(self) -> list[tuple[str, list]]:
        return self.grouped("list_keys")

    def grouped_swords(self) -> list[tuple[str, list]]:
        return self.grouped("sword_keys")
