"""Authentication backend that keeps the demo accounts local, and the names kept for closed
accounts."""

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.shortcuts import render

#: The password `seed_demo` gives its demo accounts. It is printed by `make run`, so it is public:
#: with DEBUG off nobody may log in with it, whatever the account.
DEMO_PASSWORD = "mordheim-demo"
#: How the placeholder of a closed account is named ("deleted-12": ``league.accounts``); sign-up
#: refuses it, so that nobody passes for one.
CLOSED_PREFIX = "deleted-"


class DemoPasswordRefusingBackend(ModelBackend):
    """Django's model backend, refusing the public demo password unless DEBUG is on."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if password == DEMO_PASSWORD and not settings.DEBUG:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def locked_out(request, response=None, credentials=None):
    """django-axes' answer to a locked-out log-in: our page, status 429 (Too Many Requests)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)
