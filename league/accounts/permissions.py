"""Whose account a page reads and changes: always the one logged in.

No address of this package names an account, so nobody reaches another's: not an organiser,
not the site's staff (who have the admin), not a script guessing ids. A second tab of a
closed account has no session left (``deletion``), so it is sent to log in.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


def own_account(request: HttpRequest):
    """The account logged in (the login wall has let only those through), refused if it was
    closed meanwhile."""
    user = request.user
    if not (user.is_authenticated and user.is_active):
        raise PermissionDenied("This account is closed.")
    return user
