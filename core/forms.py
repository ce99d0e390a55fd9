"""Forms of accounts."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator

from core.auth import CLOSED_PREFIX
from core.models import NoticePreference

Choice = NoticePreference.Choice


class SignUpForm(UserCreationForm):
    """A new account: a username, an optional e-mail address (where a forgotten password's
    reset link goes) and a password twice, checked by the validators."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"email": "Optional: where a link to reset a forgotten password is sent."}

    def clean_username(self) -> str:
        """Names beginning "deleted-" are the placeholders of closed accounts: nobody may pass
        for one."""
        name = super().clean_username()
        if name and name.lower().startswith(CLOSED_PREFIX):
            raise forms.ValidationError(
                f"Names beginning “{CLOSED_PREFIX}” are kept for closed accounts: choose another."
            )
        return name


class LogInForm(AuthenticationForm):
    """Django's log-in form, with the username's length checked like any other field's.

    Django's own sets the username's ``max_length`` after the field is built, so the length
    is never validated and any username goes on to ``authenticate``; a failed log-in then
    has django-axes record that username in 255 characters, and a longer one was a server
    error. Refused here, beside the field, nobody is asked to authenticate."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))


class NoticeForm(forms.Form):
    """How the user wants to be told what waits for him, and where the mails go (and a
    forgotten password's reset link). The page explains the choices, beside the fields, so
    that each widget names only its own message."""

    choice = forms.ChoiceField(
        label="E-mails",
        choices=Choice.choices,
    )
    email = forms.EmailField(
        label="E-mail address",
        required=False,
        max_length=254,
    )

    def clean(self):
        cleaned = super().clean()
        mailed = cleaned.get("choice") in (Choice.DIGEST, Choice.EACH)
        if mailed and cleaned.get("email") == "":  # a refused address has its own message
            self.add_error("email", "Give an address for the mails, or choose no mail.")
        return cleaned
