"""E-mails that tell a user something waits for him (``core.models.NoticePreference``).

``notify`` is what a service calls when it makes something wait for somebody else (a report
to confirm, a ransom or exchange offered, a sequence started, a correction to approve): one
mail to each of those users who chose a mail for each event, sent once the transaction
commits, and never if it rolls back. It lives at the bottom of the layers so that every app's
services may call it; it takes user ids, a kind, the campaign's name and a path, and the mail
says no more than that: what to do, where, and the link. Never a secret.

A mail that cannot be sent is logged, not raised: the change is committed by then, and the
user still finds it on his dashboard and in his digest."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.urls import reverse

from core.models import NoticePreference

logger = logging.getLogger(__name__)

# What each kind of event asks of the user, as its mail's subject says it.
KINDS = {
    "confirm": "A battle report waits for your confirmation",
    "ransom": "A ransom is asked for one of your heroes",
    "exchange": "An exchange of captives is offered to you",
    "sequence": "A post-battle sequence of your warband has started",
    "correction": "A correction waits for your approval",
    "challenge": "A challenge waits for your answer",
}

Choice = NoticePreference.Choice


def absolute(path: str) -> str:
    """The link a mail carries: the site's address (``SITE_URL``) and the page's path."""
    return settings.SITE_URL.rstrip("/") + path


def choices(user_ids: Iterable[int]) -> dict[int, str]:
    """Each user's choice; an account that never chose gets the daily digest."""
    ids = list(user_ids)
    chosen = dict(NoticePreference.objects.filter(user__in=ids).values_list("user", "choice"))
    return {pk: chosen.get(pk, Choice.DIGEST) for pk in ids}


def notify(user_ids: Iterable[int], *, kind: str, campaign: str, url: str) -> None:
    """Once the current transaction commits, mail each of ``user_ids`` who chose a mail for
    each event: what ``kind`` asks of him, in ``campaign`` (its name), and the link to
    ``url`` (a path). Outside a transaction it mails at once."""
    if kind not in KINDS:
        raise ValueError(f"Unknown notice kind {kind!r}.")
    ids = sorted({pk for pk in user_ids if pk is not None})
    if ids:
        transaction.on_commit(partial(_send, ids, kind, campaign, url))


def _send(user_ids: list[int], kind: str, campaign: str, url: str) -> None:
    each = [pk for pk, choice in choices(user_ids).items() if choice == Choice.EACH]
    users = get_user_model().objects.filter(pk__in=each, is_active=True).exclude(email="")
    subject = f"{KINDS[kind]} ({campaign})"
    body = (
        f"{KINDS[kind]} in the campaign {campaign}.\n\n"
        f"{absolute(url)}\n\n"
        f"You chose a mail for each event: {absolute(settings_path())} changes that."
    )
    mails = [EmailMessage(subject, body, to=[user.email]) for user in users]
    if not mails:
        return
    try:
        get_connection().send_messages(mails)
    except Exception:  # the change is committed: the dashboard and the digest still tell it
        logger.exception("Could not send %s notices for %s", kind, campaign)


def settings_path() -> str:
    """Where a user changes his choice."""
    return reverse("notice_settings")


def send(user, subject: str, body: str) -> None:
    """One mail to the user (the digest's), raised if it cannot be sent."""
    EmailMessage(subject, body, to=[user.email]).send()


def preference_of(user) -> str:
    """The user's choice (the digest until he chooses)."""
    return choices([user.pk])[user.pk]


@transaction.atomic
def set_preference(user, *, choice: str, email: str) -> None:
    """The user's own choice of mails and the address they go to; nobody sets another's."""
    if choice not in Choice.values:
        raise ValueError(f"Unknown choice {choice!r}.")
    NoticePreference.objects.update_or_create(user=user, defaults={"choice": choice})
    if user.email != email:
        user.email = email
        user.save(update_fields=["email"])
