"""Battles: who fought, how it ended, and what each warrior did.

A battle is reported by a participant (or recorded by an organiser), confirmed or disputed by
the other participants, and only a confirmed battle counts in the league table and starts the
post-battle sequences.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q


class BattleQuerySet(models.QuerySet):
    def confirmed(self) -> BattleQuerySet:
        return self.filter(status=Battle.Status.CONFIRMED)

    def in_campaign(self, campaign) -> BattleQuerySet:
        return self.filter(campaign=campaign)


class Battle(models.Model):
    class Status(models.TextChoices):
        REPORTED = "reported", "Waiting for confirmation"
        DISPUTED = "disputed", "Disputed"
        CONFIRMED = "confirmed", "Confirmed"

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.PROTECT, related_name="battles"
    )
    fought_on = models.DateField(default=datetime.date.today)
    scenario = models.CharField(max_length=100)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REPORTED)
    random_fortune = models.BooleanField(default=False)
    notes = models.TextField(blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    objects = BattleQuerySet.as_manager()

    class Meta:
        ordering = ["-fought_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.scenario} ({self.fought_on:%d %b %Y})"

    @property
    def is_confirmed(self) -> bool:
        return self.status == self.Status.CONFIRMED


class Participant(models.Model):
    """A warband's part in a battle, with its rating as it was that day."""

    class Result(models.TextChoices):
        WON = "won", "Won"
        DRAW = "draw", "Draw"
        LOST = "lost", "Lost"

    class Confirmation(models.TextChoices):
        PENDING = "pending", "Waiting"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="participants")
    warband = models.ForeignKey(
        "warbands.Warband", on_delete=models.PROTECT, related_name="participations"
    )
    result = models.CharField(max_length=5, choices=Result.choices)
    routed = models.BooleanField(default=False)
    rout_order = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 for the first warband to rout, 2 for the next …"
    )
    rating_before = models.PositiveIntegerField(default=0)
    confirmation = models.CharField(
        max_length=10, choices=Confirmation.choices, default=Confirmation.PENDING
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    dispute_reason = models.TextField(blank=True)
    experience_gained = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["battle", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "warband"], name="warband_once_per_battle"),
            models.CheckConstraint(
                condition=Q(routed=True) | Q(rout_order__isnull=True),
                name="rout_order_only_for_routers",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.warband} ({self.get_result_display()})"


class WarriorOutcome(models.Model):
    """What one warrior (or henchman group) did in a battle."""

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="outcomes")
    warrior = models.ForeignKey("warbands.Warrior", on_delete=models.PROTECT, related_name="+")
    out_of_action = models.BooleanField(default=False)
    enemies_out_of_action = models.PositiveSmallIntegerField(default=0)
    scenario_experience = models.PositiveSmallIntegerField(default=0)
    taken_out_by = models.ForeignKey(
        "warbands.Warrior",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The enemy who put this warrior out of action, when known.",
    )

    class Meta:
        ordering = ["participant", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "warrior"], name="warrior_once_per_battle"
            )
        ]

    def __str__(self) -> str:
        return f"{self.warrior} in {self.participant.battle}"
