"""Forms of accounts."""

from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    """A new account: a username and a password twice, checked by the password validators."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)
