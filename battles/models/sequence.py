"""The post-battle sequence as it is stored: each warband's walk through steps 0 to 10 of one
battle (``PostBattleSequence``), each step as it was done (``StepRecord``) with its actions
and their journals (``StepAction``), and the rolls a step holds (``SequenceTask``). The
sequence itself is played by ``battles.aftermath``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from battles.models.battle import Participant


class PostBattleSequence(models.Model):
    """One warband's walk through the post-battle sequence of one battle, step by step.

    ``current_step`` is the step to do now (0-10); 11 means the sequence is complete. Every
    change a step makes to the roster or the treasury is written in the journal of its
    ``StepRecord``'s actions, so the step can be undone exactly.
    """

    CAMPAIGN_PATH = "participant__battle__campaign"  # league.backup

    STEPS = (
        (0, "Carried items"),
        (1, "Injuries"),
        (2, "Experience"),
        (3, "Exploration"),
        (4, "Sell wyrdstone"),
        (5, "Veterans"),
        (6, "Rare items"),
        (7, "Dramatis personae and hired swords"),
        (8, "Hire recruits and buy common items"),
        (9, "Reallocate equipment and treasure"),
        (10, "Update rating"),
    )
    COMPLETE = 11

    participant = models.OneToOneField(
        Participant, on_delete=models.CASCADE, related_name="sequence"
    )
    current_step = models.PositiveSmallIntegerField(default=0)
    state = models.JSONField(default=dict, blank=True, help_text="What later steps need to know.")
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["participant_id"]
        constraints = [
            models.CheckConstraint(condition=Q(current_step__lte=11), name="sequence_step_in_range")
        ]

    def __str__(self) -> str:
        return f"Post-battle sequence of {self.participant}"

    @property
    def is_complete(self) -> bool:
        return self.current_step >= self.COMPLETE

    @property
    def step_name(self) -> str:
        return dict(self.STEPS).get(self.current_step, "Complete")

    def refresh_progress(self) -> None:
        """Re-read where the sequence is, keeping the participant, battle and warband loaded
        (``refresh_from_db()`` would drop them, and the page would read them again)."""
        self.refresh_from_db(fields=["current_step", "state", "completed_at"])


class StepRecord(models.Model):
    """A step as it was done: who finished it and when, or who undid it. What it changed (the
    journal, for undo) and what it decided (the summary) are its actions' (``StepAction``)."""

    CAMPAIGN_PATH = "sequence__participant__battle__campaign"  # league.backup

    sequence = models.ForeignKey(
        PostBattleSequence, on_delete=models.CASCADE, related_name="records"
    )
    step = models.PositiveSmallIntegerField()
    changes = models.PositiveIntegerField(
        default=0, help_text="How many changes its actions' journals hold."
    )
    started_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    completed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(
        max_length=300, blank=True, help_text="Why an organiser reopened the step."
    )

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["sequence_id", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["sequence", "step"],
                condition=Q(undone_at__isnull=True),
                name="one_live_record_per_step",
            )
        ]

    def __str__(self) -> str:
        return f"Step {self.step} of {self.sequence}"

    def journal(self) -> list[dict]:
        """Every change of the step, oldest first (for undo)."""
        return [op for action in self.actions.order_by("pk") for op in action.journal]


class StepAction(models.Model):
    """One action of a step (a task rolled, a sale, a move, the step finished): the changes it
    made, for undo, and its summary lines. Each action is a row of its own, so that an action
    costs the same however many came before it in the step."""

    CAMPAIGN_PATH = "record__sequence__participant__battle__campaign"  # league.backup

    record = models.ForeignKey(StepRecord, on_delete=models.CASCADE, related_name="actions")
    journal = models.JSONField(default=list, blank=True)
    summary = models.TextField(blank=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["record_id", "pk"]

    def __str__(self) -> str:
        return f"Action {self.pk} of {self.record}"


class SequenceTask(models.Model):
    """A roll to make within a step (a hero's injury, an advance …): the dice it rolled and
    the player's answers, so that it can be replayed after a question is answered."""

    CAMPAIGN_PATH = "sequence__participant__battle__campaign"  # league.backup

    sequence = models.ForeignKey(PostBattleSequence, on_delete=models.CASCADE, related_name="tasks")
    step = models.PositiveSmallIntegerField()
    order = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=30)
    warrior = models.ForeignKey(
        "warbands.Warrior", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    label = models.CharField(max_length=200)
    data = models.JSONField(default=dict, blank=True, help_text="What the rule needs.")
    faces = models.JSONField(default=list, blank=True)
    answers = models.JSONField(default=dict, blank=True)
    question = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    summary = models.CharField(max_length=500, blank=True)
    done = models.BooleanField(default=False)
    void = models.BooleanField(default=False, help_text="Reopened by an organiser.")

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["sequence_id", "step", "order", "pk"]

    def __str__(self) -> str:
        return self.label
