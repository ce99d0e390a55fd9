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
            "challenge_policy",
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
        # A form posted without the policy (a page or a script from before it) keeps it as it is.
        self.fields["challenge_policy"].required = False

    def clean_challenge_policy(self) -> str:
        return self.cleaned_data["challenge_policy"] or self.instance.challenge_policy


class JoinForm(forms.Form):
    code = forms.CharField(
        max_length=20,
        label="Join code",
        widget=forms.TextInput(attrs={"placeholder": "Join code", "aria-label": "Join code"}),
    )


class CoOrganiserForm(forms.Form):
    """A username to invite: checked as sign-up checks one, never against the accounts."""

    username = forms.CharField(
        max_length=150,
        label="Invite a co-organiser (username)",
        validators=[UnicodeUsernameValidator()],
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_co_%s")
        super().__init__(*args, **kwargs)


class CampaignStatusForm(forms.Form):
    status = forms.ChoiceField(
        choices=Campaign.Status.choices,
        widget=forms.Select(attrs={"aria-label": "Campaign status"}),
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_status_%s")
        super().__init__(*args, **kwargs)
