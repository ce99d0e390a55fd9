"""Forms of the battle helper: starting a game, and each move made on its page (``action``
names the move; each move reads only the fields it needs)."""

from __future__ import annotations

import re

from django import forms

from battles.forms import BattleForm
from battles.helper.moves import LOOT_MOST
from battles.models import Fighter, GameEvent
from battles.rules import play

SEATS = ("first", "second", "third", "fourth")
# A row's id as a page writes it: ASCII digits ("³" and "٣" are digits to ``str.isdigit`` but
# not to ``int``), and no more than a bigint holds.
ROW_ID = re.compile(r"[0-9]{1,18}")


class StartForm(BattleForm):
    """The scenario and the warbands in the order they take their turns."""

    first = forms.TypedChoiceField(coerce=int, label="Takes the first turn")
    second = forms.TypedChoiceField(coerce=int, label="Takes the second turn")
    third = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Third")
    fourth = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Fourth")

    def __init__(self, *args, warbands, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["notes"]
        self.fields["random_fortune"].label = "Random fortune is in play (Mayhem in Mordheim)"
        choices = [("", "—")] + [(w.pk, f"{w.name} ({w.owner.username})") for w in warbands]
        for seat in SEATS:
            self.fields[seat].choices = choices

    def warband_ids(self) -> list[int]:
        return [self.cleaned_data[seat] for seat in SEATS if self.cleaned_data.get(seat)]

    def clean(self):
        data = super().clean()
        chosen = [data.get(seat) for seat in SEATS if data.get(seat)]
        if len(chosen) != len(set(chosen)):
            raise forms.ValidationError("Each warband takes one place in the turn order.")
        return data


ACTIONS = (
    "state", "fall_outcome", "mark", "rally", "test", "fall", "rout_test", "reroll", "rout",
    "next_phase", "undo", "loot", "note", "end",
)  # fmt: skip


class MoveForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    fighter = forms.IntegerField(required=False, min_value=1)
    side = forms.IntegerField(required=False, min_value=1)
    state = forms.ChoiceField(required=False, choices=[("", ""), *list(play.STATES.items())])
    outcome = forms.ChoiceField(
        required=False,
        choices=[("", ""), ("unhurt", "No harm"), (play.KNOCKED_DOWN, "Knocked down"),
                 (play.STUNNED, "Stunned"), (play.OUT_OF_ACTION, "Out of action")],
    )  # fmt: skip
    cause = forms.ChoiceField(required=False, choices=[("", ""), *Fighter.Cause.choices])
    by = forms.IntegerField(required=False, min_value=1)
    deed = forms.ChoiceField(required=False, choices=[("", ""), ("ran", "ran"), ("charged", "")])
    test = forms.ChoiceField(
        required=False, choices=[("", "")] + [(t.key, t.label) for t in play.TESTS.values()]
    )
    height = forms.IntegerField(required=False, min_value=1, max_value=30, label="Height")
    dice = forms.CharField(required=False, max_length=40, label="Dice")
    nearest_is_enemy = forms.BooleanField(required=False)
    near_leader = forms.BooleanField(required=False)
    reroll = forms.CharField(required=False, max_length=40)
    loot = forms.ChoiceField(required=False, choices=[("", ""), *GameEvent.Loot.choices])
    amount = forms.IntegerField(required=False, min_value=1, max_value=max(LOOT_MOST.values()))
    what = forms.CharField(required=False, max_length=100)
    text = forms.CharField(required=False, max_length=250)
    taken_out = forms.CharField(required=False, max_length=20)
    seen = forms.CharField(required=False, max_length=30)
    doing = forms.BooleanField(required=False)
    event = forms.IntegerField(required=False, min_value=1)
    winner = forms.CharField(required=False, max_length=20)
    shown = forms.IntegerField(required=False, min_value=0)  # the version the page shows

    def clean_winner(self) -> str:
        winner = self.cleaned_data["winner"]
        if winner and winner != "draw" and not ROW_ID.fullmatch(winner):
            raise forms.ValidationError("Pick the warband that won, or a draw.")
        return winner

    def what_took_out(self) -> tuple[str, int | None]:
        """What took a warrior out of action: "enemy-12" (that enemy warrior) or a cause."""
        data = self.cleaned_data
        taken_out = data["taken_out"]
        if taken_out.startswith("enemy-") and ROW_ID.fullmatch(taken_out[6:]):
            return "enemy", int(taken_out[6:])
        return taken_out or data["cause"], data["by"]

    def winner_id(self) -> int | None:
        """ "draw" or a warband's id."""
        winner = self.cleaned_data["winner"]
        return int(winner) if ROW_ID.fullmatch(winner) else None
