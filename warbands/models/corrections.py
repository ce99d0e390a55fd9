"""Corrections made by hand: a warband changed outside the rules, and the record of it.

An owner or an organiser may set a warrior's experience or a characteristic, or add or take
away an injury, a skill, a spell or an item, when the table and the app disagree. Nothing of
the rules checks such a change, so each one leaves a ``Correction``: who, when, what changed
from what to what, and why. The record is shown to the warband's owner and the campaign's
organisers (``warbands.corrections``); it never holds treasury values, since corrections do
not touch the treasury (its own ledger corrects it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.versions import VersionedQuerySet
from warbands.models.roster import Warband, Warrior


class CorrectionQuerySet(VersionedQuerySet):
    def of_warband(self, warband: Warband) -> CorrectionQuerySet:
        """The warband's corrections, newest first, with who made them (one query)."""
        return (
            self.filter(warband=warband)
            .select_related("actor")
            .only(*Correction.SHOWN, "actor__username")
            .order_by("-created_at", "-pk")
        )


class Correction(models.Model):
    """One change made by hand to a warband's roster, outside the rules. Append-only in
    spirit: a correction is put right by another correction, which says why."""

    CAMPAIGN_PATH = "warband__campaign"  # campaign.versions

    class Kind(models.TextChoices):
        EXPERIENCE = "experience", "Experience"
        CHARACTERISTIC = "characteristic", "Characteristic"
        INJURY_ADDED = "injury_added", "Injury added"
        INJURY_REMOVED = "injury_removed", "Injury removed"
        SKILL_ADDED = "skill_added", "Skill added"
        SKILL_REMOVED = "skill_removed", "Skill removed"
        SPELL_ADDED = "spell_added", "Spell added"
        SPELL_REMOVED = "spell_removed", "Spell removed"
        ITEM_ADDED = "item_added", "Item added"
        ITEM_REMOVED = "item_removed", "Item removed"

    # The fields the history shows (``CorrectionQuerySet.of_warband``).
    SHOWN = (
        "warband", "warrior_name", "actor", "kind", "what", "old_value", "new_value", "reason",
        "created_at",
    )  # fmt: skip

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="corrections")
    warrior = models.ForeignKey(
        Warrior, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections"
    )
    # The warrior's name when he was corrected: the history reads as it was written.
    warrior_name = models.CharField(max_length=100, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    what = models.CharField(max_length=100, help_text="The characteristic, skill, item … changed.")
    old_value = models.CharField(max_length=200, blank=True)
    new_value = models.CharField(max_length=200, blank=True)
    reason = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CorrectionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["warband", "-created_at", "-id"], name="corrections_recent")
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="correction_has_a_reason")
        ]

    def __str__(self) -> str:
        who = self.warrior_name or self.warband_id
        return f"{who}: {self.what} {self.old_value or '—'} → {self.new_value or '—'}"
