"""Forms of the captives page. Each lists its fields; a container or a captive posted must be
one the acting warband may choose, else the form is invalid."""

from django import forms

from battles.captives.holding import fates_for
from battles.forms import DiceField
from battles.models import Captive
from warbands.models import StorageContainer, Warband


def _containers(warband: Warband):
    """The warband's own containers (the unstored pile aside)."""
    return StorageContainer.objects.real().filter(warband=warband)


class RansomForm(forms.Form):
    """The captor asks a ransom, into one of his containers; empty withdraws it."""

    ransom = forms.IntegerField(min_value=1, max_value=10_000, required=False, label="Ransom (gc)")
    into = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(), required=False, label="Paid into"
    )

    def __init__(self, *args, warband: Warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["into"].queryset = _containers(warband)

    def clean(self):
        data = super().clean()
        if data.get("ransom") and not data.get("into"):
            self.add_error("into", "Choose the container the ransom goes into.")
        return data


class ExchangeForm(forms.Form):
    """The captor offers the captive for one of his own warriors held by the captive's
    warband; empty withdraws the offer."""

    for_captive = forms.ModelChoiceField(
        queryset=Captive.objects.none(), required=False, label="In exchange for"
    )

    def __init__(self, *args, captive: Captive, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["for_captive"].queryset = Captive.objects.filter(
            status=Captive.Status.HELD,
            captor=captive.warrior.warband_id,
            warrior__warband=captive.captor_id,
        )


class AcceptForm(forms.Form):
    """The owner accepts the exchange his page showed (the captive of his own he gives up)."""

    offered = forms.IntegerField(min_value=1)


class PayForm(forms.Form):
    """The owner pays the ransom his page showed, from one of his containers."""

    amount = forms.IntegerField(min_value=1, max_value=10_000)
    pay_from = forms.ModelChoiceField(queryset=StorageContainer.objects.none(), label="Pay from")

    def __init__(self, *args, warband: Warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pay_from"].queryset = _containers(warband)


class FateForm(forms.Form):
    """Sell, raise as a Zombie or sacrifice: the captor's warband decides which it may."""

    fate = forms.ChoiceField(choices=())
    into = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(), required=False, label="Into"
    )
    dice = DiceField(label="If sold to the slavers, the D6")

    def __init__(self, *args, warband: Warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fate"].choices = fates_for(warband)
        self.fields["into"].queryset = _containers(warband)
