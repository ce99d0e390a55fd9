"""Warbands and everything on their roster."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class WarbandQuerySet(models.QuerySet):
    def owned_by(self, user) -> WarbandQuerySet:
        return self.filter(owner=user)

    def in_campaign(self, campaign) -> WarbandQuerySet:
        return self.filter(campaign=campaign)


class Warband(models.Model):
    """A player's warband in one campaign."""

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="warbands"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="warbands"
    )
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = WarbandQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
