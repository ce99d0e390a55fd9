"""Forms of accounts."""

from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator


class SignUpForm(UserCreationForm):
    """A new account: a username, an optional e-mail address (where a forgotten password's
    reset link goes) and a password twice, checked by the validators."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"email": "Optional: where a link to reset a forgotten password is sent."}


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
