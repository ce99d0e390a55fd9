"""Forms of campaigns. Each lists its fields explicitly."""

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MinValueValidator

from campaign.models import Campaign
from campaign.rules import standings as standings_rules
from campaign.standings import MOST_POINTS


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
            "carrying_allowed",
            "imports_allowed",
            "carried_treasury",
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
        self.fields["carried_treasury"].required = False

    def clean_challenge_policy(self) -> str:
        return self.cleaned_data["challenge_policy"] or self.instance.challenge_policy

    def clean_carried_treasury(self) -> str:
        return self.cleaned_data["carried_treasury"] or self.instance.carried_treasury


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
    """Close, archive or reopen. Closing or archiving stops every change to the campaign, so it
    asks for a ticked box (a refusal the page shows by the box, not only a script's prompt)."""

    status = forms.ChoiceField(
        choices=Campaign.Status.choices,
        widget=forms.Select(attrs={"aria-label": "Campaign status"}),
    )
    confirm = forms.BooleanField(
        required=False,
        label="Yes: closing or archiving stops every change until it is reopened",
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_status_%s")
        super().__init__(*args, **kwargs)

    def clean(self):
        cleaned = super().clean()
        status = cleaned.get("status")
        if status and status != Campaign.Status.OPEN and not cleaned.get("confirm"):
            self.add_error("confirm", f"Tick the box to confirm: the campaign will be {status}.")
        return cleaned


TIE_BREAKER_SLOTS = len(standings_rules.TIE_BREAKERS)
_NO_TIE_BREAKER = [("", "(none)")]


class StandingsRulesForm(forms.Form):
    """The league table's points and its tie-breakers in order (``campaign.standings``). Each
    tie-breaker may be chosen once; blank slots are skipped, so "1st: rating, 2nd: (none),
    3rd: played" is rating then games played."""

    win_points = forms.IntegerField(label="Points for a win", min_value=0, max_value=MOST_POINTS)
    draw_points = forms.IntegerField(label="Points for a draw", min_value=0, max_value=MOST_POINTS)
    loss_points = forms.IntegerField(label="Points for a loss", min_value=0, max_value=MOST_POINTS)
    played_points = forms.IntegerField(
        label="Points for playing at all",
        min_value=0,
        max_value=MOST_POINTS,
        help_text="Added to the points of every result, a loss too.",
    )

    def __init__(self, *args, campaign: Campaign, **kwargs) -> None:
        order = campaign.tie_breaker_order
        kwargs.setdefault(
            "initial",
            {
                "win_points": campaign.win_points,
                "draw_points": campaign.draw_points,
                "loss_points": campaign.loss_points,
                "played_points": campaign.played_points,
                **{
                    f"tie_breaker_{n}": order[n - 1] if n <= len(order) else ""
                    for n in range(1, TIE_BREAKER_SLOTS + 1)
                },
            },
        )
        super().__init__(*args, **kwargs)
        for n in range(1, TIE_BREAKER_SLOTS + 1):
            self.fields[f"tie_breaker_{n}"] = forms.ChoiceField(
                label=f"Tie-breaker {n}",
                choices=_NO_TIE_BREAKER + list(standings_rules.TIE_BREAKERS.items()),
                required=False,
            )

    def clean(self):
        cleaned = super().clean()
        chosen: list[str] = []
        for n in range(1, TIE_BREAKER_SLOTS + 1):
            key = cleaned.get(f"tie_breaker_{n}")
            if not key:
                continue
            if key in chosen:
                self.add_error(f"tie_breaker_{n}", "This tie-breaker is already chosen above.")
                continue
            chosen.append(key)
        cleaned["tie_breakers"] = tuple(chosen)
        return cleaned

    def rules(self) -> dict:
        """The cleaned values, as ``set_standings_rules`` takes them."""
        names = ("win_points", "draw_points", "loss_points", "played_points", "tie_breakers")
        return {name: self.cleaned_data[name] for name in names}
