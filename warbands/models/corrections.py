"""Corrections made by hand: a warband changed outside the rules, and the record of it.

An owner or an organiser may set a warrior's experience or a characteristic, or add or take
away an injury, a skill, a spell or an item, when the table and the app disagree. Nothing of
the rules makes such a change, so each one leaves a ``Correction``: who asked, when, what
changes from what to what, why, and what became of it. A correction that could give the
warband something is a request (``Status.PENDING``) until an organiser approves it
(``warbands.corrections``); the fields under "what the request names" let it be applied
later exactly as asked, and refused when the roster has moved on since.

The record is shown to the warband's owner and the campaign's organisers; it never holds
treasury values, since corrections do not touch the treasury (its own ledger corrects it).
An item a correction added names it (``WarriorItem.correction``, ``StoredItem.correction``,
``LedgerEntry.correction``): it was never paid for, and sells for nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from warbands.models.reference import Item, Skill, Spell
from warbands.models.roster import Injury, Warband, Warrior


class CorrectionQuerySet(models.QuerySet):
    def of_warband(self, warband: Warband) -> CorrectionQuerySet:
        """The warband's corrections, newest first, with who asked and who decided (one
        query)."""
        return (
            self.filter(warband=warband)
            .select_related("actor", "decided_by")
            .only(*Correction.SHOWN, "actor__username", "decided_by__username")
            .order_by("-created_at", "-pk")
        )

    def pending(self) -> CorrectionQuerySet:
        return self.filter(status=Correction.Status.PENDING)


class Correction(models.Model):
    """One change made by hand to a warband's roster, outside the rules, or asked for.
    Append-only in spirit: a correction is put right by another correction, which says why."""

    CAMPAIGN_PATH = "warband__campaign"  # league.backup

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

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an organiser"
        APPLIED = "applied", "Applied"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"
        LAPSED = "lapsed", "No longer applies"

    # The fields the history shows (``CorrectionQuerySet.of_warband``).
    SHOWN = (
        "warband", "warrior_name", "actor", "kind", "what", "old_value", "new_value", "reason",
        "created_at", "status", "breaks", "announced", "decided_by", "decided_at", "decision",
    )  # fmt: skip

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="corrections")
    warrior = models.ForeignKey(
        Warrior, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections"
    )
    # The warrior's name when he was corrected: the history reads as it was written.
    warrior_name = models.CharField(max_length=100, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who made the correction, or asked for it.",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    what = models.CharField(max_length=100, help_text="The characteristic, skill, item … changed.")
    old_value = models.CharField(max_length=200, blank=True)
    new_value = models.CharField(max_length=200, blank=True)
    reason = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.APPLIED)
    breaks = models.CharField(
        max_length=200,
        blank=True,
        help_text="How the change breaks the warband's list, said plainly (empty: it does not).",
    )
    announced = models.BooleanField(
        default=False,
        help_text="Applied on its asker's own warband with no other organiser to approve it: "
        "the campaign feed told every player what changed.",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The organiser who approved or refused it (or before whom it lapsed).",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision = models.CharField(
        max_length=300, blank=True, help_text="Why it was refused, or why it no longer applies."
    )

    # What the request names, so that it is applied later exactly as asked.
    item = models.ForeignKey(
        Item, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    skill = models.ForeignKey(
        Skill, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    spell = models.ForeignKey(
        Spell, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    injury = models.ForeignKey(
        Injury,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The injury to take away.",
    )
    injury_name = models.CharField(max_length=100, blank=True)
    injury_effect = models.CharField(max_length=200, blank=True)
    characteristic = models.CharField(max_length=2, blank=True)
    value = models.SmallIntegerField(
        null=True, blank=True, help_text="The experience or characteristic asked for."
    )
    before = models.SmallIntegerField(
        null=True,
        blank=True,
        help_text="What the warrior had when it was asked: his experience or characteristic, "
        "or how many of the item or injury he had. Applied only while it still is.",
    )

    objects = CorrectionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["warband", "-created_at", "-id"], name="corrections_recent"),
            models.Index(
                fields=["warband"], condition=Q(status="pending"), name="corrections_pending"
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="correction_has_a_reason"),
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | Q(decided_at__isnull=False),
                name="correction_decided_with_a_date",
            ),
            models.CheckConstraint(
                condition=~Q(status="pending") | Q(decided_by__isnull=True),
                name="correction_pending_undecided",
            ),
        ]

    def __str__(self) -> str:
        who = self.warrior_name or self.warband_id
        return f"{who}: {self.what} {self.old_value or '—'} → {self.new_value or '—'}"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def change(self) -> str:
        """What it changes, in words for the campaign feed: "Brandt: experience 8 → 12",
        "Brandt: item Halberd added" (roster facts, public to the campaign's members; the
        reason is not among them: it is for the owner and the organisers)."""
        who = self.warrior_name or "the warband"
        if self.kind == self.Kind.EXPERIENCE:
            said = f"{who}: experience {self.old_value} → {self.new_value}"
        elif self.kind == self.Kind.CHARACTERISTIC:
            said = f"{who}: {self.what} {self.old_value} → {self.new_value}"
        else:
            noun, done = _CHANGES[self.kind]
            said = f"{who}: {noun} {self.new_value or self.old_value} {done}"
        return f"{said}, breaking the list ({self.breaks.rstrip('.')})" if self.breaks else said


_CHANGES = {
    Correction.Kind.INJURY_ADDED: ("injury", "written down"),
    Correction.Kind.INJURY_REMOVED: ("injury", "taken away"),
    Correction.Kind.SKILL_ADDED: ("skill", "added"),
    Correction.Kind.SKILL_REMOVED: ("skill", "taken away"),
    Correction.Kind.SPELL_ADDED: ("spell", "added"),
    Correction.Kind.SPELL_REMOVED: ("spell", "taken away"),
    Correction.Kind.ITEM_ADDED: ("item", "added"),
    Correction.Kind.ITEM_REMOVED: ("item", "taken away"),
}
