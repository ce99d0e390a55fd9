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
    "state", "mark", "rally", "test", "fall", "rout_test", "reroll", "rout",
    "next_phase", "undo", "loot", "note", "end", "animosity", "wound",
)  # fmt: skip


class IdsField(forms.Field):
    """Rows named by their ids, as checkboxes of one name send them."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value) -> list[int]:
        values = value or []
        if not all(isinstance(v, str) and ROW_ID.fullmatch(v) for v in values):
            raise forms.ValidationError("Pick from the list.")
        return [int(v) for v in values]


class MoveForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    fighter = forms.IntegerField(required=False, min_value=1)
    side = forms.IntegerField(required=False, min_value=1)
    state = forms.ChoiceField(required=False, choices=[("", ""), *list(play.STATES.items())])
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
    spared = IdsField(required=False, label="Spared")

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


# The forms the page draws. Every move posts ``MoveForm`` (``action`` names it); these draw
# the fields a move asks for, with the attributes a phone needs. The page draws many of the
# same kind (a Rout test per side, a re-roll per skill), none bound: they carry no ids.


class DiceInput(forms.TextInput):
    """Dice typed on a phone; empty, the server rolls."""

    def __init__(self, testid: str = "", **attrs) -> None:
        attrs = {"inputmode": "numeric", "placeholder": "empty: the server rolls",
                 "autocomplete": "off", **attrs}  # fmt: skip
        if testid:
            attrs["data-testid"] = testid
        super().__init__(attrs)


class RollForm(forms.Form):
    """A Rout test or its re-roll: the dice."""

    dice = forms.CharField(required=False, max_length=40, label="Dice", widget=DiceInput())

    def __init__(self, *args, testid: str = "", **kwargs) -> None:
        kwargs.setdefault("auto_id", False)
        super().__init__(*args, **kwargs)
        if testid:
            self.fields["dice"].widget.attrs["data-testid"] = testid


class AnimosityForm(RollForm):
    """One side's Animosity rolls as drawn: the models spared (in hand-to-hand combat) and the
    dice. The move is read by ``MoveForm`` (its ``spared``)."""

    spared = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Spare those that do not roll (in hand-to-hand combat)",
    )

    def __init__(self, *args, fighters=(), **kwargs) -> None:
        super().__init__(*args, testid="animosity-dice", **kwargs)
        self.fields["spared"].choices = [(f.pk, f.name) for f in fighters]


class NoteForm(forms.Form):
    text = forms.CharField(
        max_length=250,
        label="A note for the log",
        widget=forms.TextInput(
            attrs={"placeholder": "A note for the log", "aria-label": "A note for the log"}
        ),
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_note_%s")
        super().__init__(*args, **kwargs)


class EndForm(forms.Form):
    """Who won, when the players end the game: a warband that has not routed, or a draw."""

    winner = forms.ChoiceField(
        label="Result", choices=(), widget=forms.Select(attrs={"data-testid": "winner"})
    )

    def __init__(self, *args, sides, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_end_%s")
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            ("", "Choose…"),
            *((s.warband.pk, f"{s.warband.name} won") for s in sides
              if not s.side.participant.routed),
            ("draw", "A draw"),
        ]  # fmt: skip


class FallForm(forms.Form):
    """A fall: its height (asked unless a failed test gave it) and the dice."""

    height = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=30,
        label="Height fallen, inches",
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "data-testid": "fall-height"}),
    )
    dice = forms.CharField(
        required=False,
        max_length=40,
        label="Dice: a D6 for the D3 hits, one per hit to wound, then any injury rolls",
        widget=DiceInput("fall-dice"),
    )


class RallyForm(forms.Form):
    nearest_is_enemy = forms.BooleanField(
        required=False,
        label="The closest model to him is an enemy (fleeing, stunned, knocked-down and hidden "
        "ones aside): he cannot rally",
        widget=forms.CheckboxInput(attrs={"data-testid": "nearest-enemy"}),
    )
    near_leader = forms.BooleanField(required=False)
    dice = forms.CharField(required=False, max_length=40, widget=DiceInput("rally-dice"))

    def __init__(self, *args, leadership: int, reach: int = play.LEADER_REACH, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dice"].label = f"Dice (2D6 against Ld {leadership})"
        self.fields[
            "near_leader"
        ].label = f"Within {reach}\" of his standing leader: use the leader's Leadership"


class OutOfActionForm(forms.Form):
    taken_out = forms.ChoiceField(
        label="What took him out",
        choices=(),
        widget=forms.Select(attrs={"data-testid": "taken-out"}),
    )

    def __init__(self, *args, enemies, causes, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["taken_out"].choices = [
            ("", "Choose…"),
            ("An enemy warrior", [(f"enemy-{e.pk}", f"{e.name} ({e.warband.name})")
                                  for e in enemies]),
            ("Something else", [(value, str(label).capitalize()) for value, label in causes]),
        ]  # fmt: skip


class WoundForm(OutOfActionForm):
    """A wound that may roll on the injury chart: what would take him out, and the die."""

    dice = forms.CharField(
        required=False, max_length=40, label="Dice (one D6)", widget=DiceInput("wound-dice")
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["taken_out"].label = "What wounded him (should it take him out)"
        self.fields["taken_out"].widget.attrs["data-testid"] = "wounded-by"


class TestForm(forms.Form):
    test = forms.ChoiceField(
        label="Which",
        choices=[("", "Choose…")] + [(t.key, t.label) for t in play.TESTS.values()],
        widget=forms.Select(attrs={"data-testid": "test-kind"}),
    )
    height = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=30,
        label="Height, inches",
        help_text="How far he climbs or would fall. A climb is no higher than his Move; "
        'jumping down: a test per full 2", 6" at most; a gap is 3" wide at most.',
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "data-testid": "test-height"}),
    )
    dice = forms.CharField(
        required=False, max_length=40, label="Dice", widget=DiceInput("test-dice")
    )


class LootForm(forms.Form):
    loot = forms.ChoiceField(
        label="What",
        choices=[("", "Choose…"), ("wyrdstone", "Wyrdstone shards"), ("gold", "Gold crowns"),
                 ("item", "An item"), ("container", "A carried container")],
    )  # fmt: skip
    amount = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=500,
        initial=1,
        label="How many",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    what = forms.CharField(
        required=False,
        max_length=100,
        label="Which item or container",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, fighter, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["what"].widget.attrs["list"] = f"carried-{fighter.pk}"


def panel_forms(fighter, *, enemies, causes, reach: int = play.LEADER_REACH) -> dict:
    """The forms of a warrior's panel, each with ids of its own; ``reach``: how far his
    leader's Leadership reaches (``battles.helper.checks.leader_reach``)."""

    def ids(kind: str) -> str:
        return f"id_{kind}_{fighter.pk}_%s"

    return {
        "fall": FallForm(auto_id=ids("fall")),
        "rally": RallyForm(auto_id=ids("rally"), leadership=fighter.warrior.Ld, reach=reach),
        "out": OutOfActionForm(auto_id=ids("out"), enemies=enemies, causes=causes),
        "wound": WoundForm(auto_id=ids("wound"), enemies=enemies, causes=causes),
        "test": TestForm(auto_id=ids("test")),
        "loot": LootForm(auto_id=ids("loot"), fighter=fighter),
    }
