"""The infrastructure's tables: one-time form tokens, and each account's choice of e-mails."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FormToken(models.Model):
    """A one-time token carried by a form (``{% form_token %}``): the first POST with it is
    applied and its answer kept; a replay (a double click, the browser re-sending) gets that
    same answer and changes nothing. The unique constraint on ``token`` decides, also between
    two requests at the same moment (see ``core.once``)."""

    token = models.UUIDField(unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    path = models.CharField(max_length=300)
    status = models.PositiveSmallIntegerField(null=True)
    content = models.BinaryField(blank=True, default=b"")  # the answer's bytes, as sent
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.token} {self.path}"


class NoticePreference(models.Model):
    """How an account wants to be told what waits for it (``core.notices``): no mail, a daily
    digest (the default, also for an account with no row), or a mail for each event.
    ``last_digest_on``: the day the latest digest went out, so that one goes out at most
    once a calendar day whoever runs ``send_digests`` and how often."""

    class Choice(models.TextChoices):
        NONE = "none", "No mail"
        DIGEST = "digest", "A daily digest"
        EACH = "each", "A mail for each event"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preference"
    )
    choice = models.CharField(max_length=6, choices=Choice.choices, default=Choice.DIGEST)
    last_digest_on = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.get_choice_display()}"
