"""``manage.py reset_link <username> --by <admin>``: a one-time password reset link for a
user who cannot use the e-mail reset, made by a site admin and handed over by him.

It is Django's own reset link (``default_token_generator``): it works until the password
changes or the user logs in, and for ``PASSWORD_RESET_TIMEOUT`` at most. Whoever holds it
takes the account, so it is the one credential for an account that someone other than its
owner can obtain, and it leaves a trace where the site's admins look:

- The admin names himself (``--by``): shell access to the server says nothing of which
  person used it, since a deployment's account is often shared. The name must be an active
  staff or superuser account, so the trace points at someone who answers for the site.
- The link is written in the target user's history in Django's admin (a ``LogEntry`` by
  that admin, "Changed", with the message below), the page an admin opens to look into an
  account, and in the server's log as a WARNING, which the default ``LOG_LEVEL`` keeps. The
  link itself is written nowhere but on the standard output.

Campaign organisers have no such power: a player who forgot his password uses the e-mail
reset, or asks a site admin.
"""

import logging

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

logger = logging.getLogger(__name__)

#: What the target user's admin history says (never the link itself).
HISTORY = "Made a one-time password reset link (manage.py reset_link)."


class Command(BaseCommand):
    help = "Print a one-time password reset link for a user, recorded under the admin's name."

    def add_arguments(self, parser):
        parser.add_argument("username", help="the account to reset")
        parser.add_argument(
            "--by",
            required=True,
            metavar="ADMIN",
            help="your own username: an active staff or superuser account",
        )
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="the site's address, put before the link's path",
        )

    @transaction.atomic
    def handle(self, *args, username: str, by: str, base_url: str, **options):
        User = get_user_model()
        admin = (
            User.objects.filter(username=by, is_active=True)
            .filter(Q(is_staff=True) | Q(is_superuser=True))
            .first()
        )
        if admin is None:
            raise CommandError(
                f"{by!r} is not an active staff or superuser account: name yourself with "
                "--by <your admin username>."
            )
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user called {username!r}.")
        if not user.is_active:
            raise CommandError(f"{username!r} is inactive: make the account active first.")
        LogEntry.objects.log_actions(
            admin.pk, User.objects.filter(pk=user.pk), CHANGE, HISTORY, single_object=True
        )
        logger.warning(
            "%s made a password reset link for %s (manage.py reset_link).",
            admin.username,
            user.username,
        )
        path = reverse(
            "password_reset_confirm",
            args=[
                urlsafe_base64_encode(force_bytes(user.pk)),
                default_token_generator.make_token(user),
            ],
        )
        self.stdout.write(base_url.rstrip("/") + path)
