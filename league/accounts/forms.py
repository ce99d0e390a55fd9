"""The form that closes an account: what becomes of each warband still playing, the password
and the box that says it cannot be undone."""

from __future__ import annotations

from django import forms

from league.accounts.deletion import HAND, RETIRE, Plan

PREFIX = "warband_"


class DeleteAccountForm(forms.Form):
    """One choice per warband of ``plan.deciding`` (hand it to one of its campaign's
    organisers, or retire it), then the password, checked against ``user``'s as Django's
    password change checks the old one, and the confirmation."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": "Type your password: it shows that you are you."},
    )
    confirm = forms.BooleanField(
        label="I understand that my account is closed for good: this cannot be undone.",
        error_messages={"required": "Tick the box to confirm: this cannot be undone."},
    )

    def __init__(self, *args, user, plan: Plan, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.plan = user, plan
        chosen = {}
        for warband in plan.deciding:
            choices = [
                (f"{HAND}{organiser.pk}", f"Hand it to {organiser.username}, who organises "
                 f"{warband.campaign.name}")
                for organiser in warband.organisers
            ]  # fmt: skip
            choices.append((RETIRE, "Retire it: the warband is disbanded"))
            chosen[f"{PREFIX}{warband.pk}"] = forms.ChoiceField(
                label=f"{warband.name} ({warband.campaign.name})",
                choices=choices,
                widget=forms.RadioSelect,
                error_messages=dict.fromkeys(
                    ("required", "invalid_choice"), f"Choose what becomes of {warband.name}."
                ),
            )
        # The warbands first, in the order the page lists them.
        self.fields = {**chosen, **self.fields}

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                "That is not your password. Nothing was changed: type it again."
            )
        return password

    def warband_fields(self):
        return [self[f"{PREFIX}{w.pk}"] for w in self.plan.deciding]

    def choices(self) -> dict[int, str]:
        """The cleaned choice for each warband, by its id (``deletion.delete_account``)."""
        return {w.pk: self.cleaned_data[f"{PREFIX}{w.pk}"] for w in self.plan.deciding}
