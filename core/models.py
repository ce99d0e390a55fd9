"""The infrastructure's one table: one-time form tokens."""

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
