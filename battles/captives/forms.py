"""Forms of the captives page. Each lists its fields; a container or a captive posted must be
one the acting warband may choose, else the form is invalid. The page draws a set of them for
each captive (``drawn_for``): their ids are the captive's, their selects offer the containers
the page read once (``containers``: the options' HTML)."""

from collections.abc import Callable

from django import forms

from battles.captives.fates import SLAVERS_ROLL
from battles.captives.holding import fates_for
from battles.forms import DiceField
from battles.models import Captive
from core.htmx import relabel
from core.options import OptionsSelect
from warbands.models import StorageContainer, Warband


def _ids(form: forms.Form, captive: Captive) -> None:
    form.auto_id = f"id_{type(form).__name__.lower()}_{captive.pk}_%s"


def _containers(warband: Warband):
    """The warband's own containers (the unstored pile aside)."""
    return StorageContainer.objects.real().filter(warband=warband)


class RansomForm(forms.Form):
    """The captor asks a ransom, into one of his containers; empty withdraws it."""

    ransom = forms.IntegerField(min_value=1, max_value=10_000, required=False, label="Ransom (gc)")
    into = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(),
        required=False,
        label="Paid into",
        widget=OptionsSelect,
    )

    def __init__(self, *args, warband: Warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["into"].queryset = _containers(warband)

    def drawn_for(self, captive: Captive, containers: Callable[[], str]) -> "RansomForm":
        _ids(self, captive)
        self.initial = {"ransom": captive.ransom, "into": captive.ransom_into_id}
        self.fields["into"].widget.source = containers
        return self

    def clean(self):
        data = super().clean()
        if data.get("ransom") and not data.get("into"):
            self.add_error("into", "Choose the container the ransom goes into.")
        return data


class ExchangeForm(forms.Form):
    """The captor offers the captive for one of his own warriors held by the captive's
    warband; empty withdraws the offer."""

    for_captive = forms.ModelChoiceField(
        queryset=Captive.objects.none(),
        required=False,
        label="Offer him in exchange for",
        empty_label="no exchange",
    )

    def __init__(self, *args, captive: Captive, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["for_captive"].queryset = Captive.objects.filter(
            status=Captive.Status.HELD,
            captor=captive.warrior.warband_id,
            warrior__warband=captive.captor_id,
        )

    def drawn_for(self, captive: Captive) -> "ExchangeForm":
        """Offered among ``captive.exchangeable`` (the page's list, read once)."""
        _ids(self, captive)
        self.initial = {"for_captive": captive.exchange_for_id}
        self.fields["for_captive"].choices = [("", "no exchange")] + [
            (mine.pk, mine.warrior.name) for mine in captive.exchangeable
        ]
        return self


class AcceptForm(forms.Form):
    """The owner accepts the exchange his page showed (the captive of his own he gives up)."""

    offered = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def drawn_for(self, captive: Captive) -> "AcceptForm":
        _ids(self, captive)
        self.initial = {"offered": captive.exchange_for_id}
        return self


class PayForm(forms.Form):
    """The owner pays the ransom his page showed, from one of his containers."""

    amount = forms.IntegerField(min_value=1, max_value=10_000, widget=forms.HiddenInput)
    pay_from = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(), label="Pay from", widget=OptionsSelect
    )

    def __init__(self, *args, warband: Warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pay_from"].queryset = _containers(warband)

    def drawn_for(self, captive: Captive, paying: Callable[[], str]) -> "PayForm":
        """Paid from ``paying``: the containers that hold gold."""
        _ids(self, captive)
        self.initial = {"amount": captive.ransom}
        relabel(self, "pay_from", f"Pay {captive.ransom} gc from")
        self.fields["pay_from"].widget.source = paying
        return self


class FateForm(forms.Form):
    """Sell, raise as a Zombie or sacrifice: the captor's warband decides which it may."""

    fate = forms.ChoiceField(choices=(), label="Or")
    into = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(),
        required=False,
        label="Into",
        widget=OptionsSelect,
    )
    dice = DiceField(
        label=f"If sold to the slavers. {SLAVERS_ROLL.label}",
        help_text="",
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "placeholder": "server rolls",
                "data-dice": SLAVERS_ROLL.count,
            }
        ),
    )

    def __init__(self, *args, warband: Warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fate"].choices = fates_for(warband)
        self.fields["into"].queryset = _containers(warband)
        self.fields["dice"].widget.attrs["maxlength"] = 3  # one D6: "6"; the field takes more

    def drawn_for(self, captive: Captive, containers: Callable[[], str]) -> "FateForm":
        _ids(self, captive)
        gold = " and the gold" if len(self.fields["fate"].choices) == 1 else ""
        relabel(self, "into", f"His equipment{gold} into")
        self.fields["into"].widget.source = containers
        return self
