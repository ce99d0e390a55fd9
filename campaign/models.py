"""Campaigns and who takes part in them."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user) -> CampaignQuerySet:
        """Campaigns the user is a member of (as player or organiser)."""
        return self.filter(memberships__user=user)


class Campaign(models.Model):
    """A league: a group of warbands fighting each other over a season.

    The options mirror the choices a group makes before its first game.
    """

    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    start_date = models.DateField(default=datetime.date.today)
    mim_carried_items = models.BooleanField(
        "Mayhem in Mordheim carried items",
        default=True,
        help_text="Treasuries live in storage containers that can be captured.",
    )
    quartermaster_skill = models.BooleanField(
        "optional Quartermaster skill",
        default=False,
        help_text="Mayhem in Mordheim's optional Academic skill, with its recovery modifier.",
    )
    organiser_sees_secrets = models.BooleanField(
        default=False,
        help_text="Organisers may see the contents of every warband's storage containers.",
    )
    max_warbands_per_player = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_warbands_per_player__gte=1),
                name="campaign_max_warbands_at_least_one",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class MembershipQuerySet(models.QuerySet):
    def organisers(self) -> MembershipQuerySet:
        return self.filter(is_organiser=True)


class Membership(models.Model):
    """A user in a campaign. Organisers run it; anybody may also play with their warbands."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    is_organiser = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        ordering = ["campaign", "-is_organiser", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_once_per_user"),
        ]

    def __str__(self) -> str:
        role = "organiser" if self.is_organiser else "player"
        return f"{self.user} ({role}) in {self.campaign}"
