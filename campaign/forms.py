"""Forms of campaigns. Each lists its fields explicitly."""

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MinValueValidator

from campaign.models import Campaign


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = [
            "name",
            "description",
            "start_date",
            "mim_carried_items",
            "quartermaster_skill",
            "organiser_sees_secrets",
            "max_warbands_per_player",
        ]
        widgets = {
            "start_date": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
            "description": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The browser refuses what the server refuses: at least one warband per player (the
        # database's constraint), so 0 is never offered and then turned down.
        most = self.fields["max_warbands_per_player"]
        most.validators.append(MinValueValidator(1))
        most.widget.attrs["min"] = 1


class JoinForm(forms.Form):
    code = forms.CharField(max_length=20, label="Join code")


class CoOrganiserForm(forms.Form):
    """A username to invite: checked as sign-up checks one, never against the accounts."""

    username = forms.CharField(
        max_length=150, label="Username", validators=[UnicodeUsernameValidator()]
    )


class CampaignStatusForm(forms.Form):
    status = forms.ChoiceField(choices=Campaign.Status.choices)
