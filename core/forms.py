"""Forms of accounts."""

from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    """A new account: a username, an optional e-mail address (where a forgotten password's
    reset link goes, issue 30 point 1) and a password twice, checked by the validators."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"email": "Optional: where a link to reset a forgotten password is sent."}
