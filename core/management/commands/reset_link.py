"""``manage.py reset_link <username>``: a one-time password reset link, for a site admin to
hand a user when the app sends no e-mail (issue 30, point 1). It is Django's own reset link
(``default_token_generator``): it works until the password changes or the user logs in, and
for ``PASSWORD_RESET_TIMEOUT`` at most."""

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode


class Command(BaseCommand):
    help = "Print a one-time password reset link for a user."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="the site's address, put before the link's path",
        )

    def handle(self, *args, username: str, base_url: str, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user called {username!r}.")
        path = reverse(
            "password_reset_confirm",
            args=[
                urlsafe_base64_encode(force_bytes(user.pk)),
                default_token_generator.make_token(user),
            ],
        )
        self.stdout.write(base_url.rstrip("/") + path)
