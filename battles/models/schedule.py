"""The organiser's schedule: rounds of a campaign, the games planned in them (fixtures), and
the challenges players send each other, which become fixtures once every challenged player
accepts (``battles.schedule``).

A fixture names its warbands (``FixtureSide``, two to four) and, once one is reported or
started from it, its battle: the fixture's state is read off that battle's status.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from battles.models.battle import Battle
from battles.rules import scenarios


class Round(models.Model):
    """A numbered round of a campaign, with the dates its games are meant to be played."""

    CAMPAIGN_PATH = "campaign"  # league.backup, campaign.permissions.members_only

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100, blank=True)
    starts_on = models.DateField()
    ends_on = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["campaign_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="round_number_once"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="round_ends_after_it_starts"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}" + (f": {self.name}" if self.name else "")


class FixtureQuerySet(models.QuerySet):
    def unplayed(self) -> FixtureQuerySet:
        """Planned and not started: no battle yet."""
        return self.filter(battle__isnull=True)


class Fixture(models.Model):
    """A planned game: in a round, or agreed by a challenge (no round)."""

    CAMPAIGN_PATH = "campaign"  # league.backup, campaign.permissions.members_only

    class State(models.TextChoices):
        PLANNED = "planned", "Planned"
        PLAYING = "playing", "Being played"
        REPORTED = "reported", "Reported"
        CONFIRMED = "confirmed", "Confirmed"

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="fixtures"
    )
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures"
    )
    scenario_key = models.CharField(
        max_length=40, blank=True, help_text="A Battle.scenario_key; blank: the players choose."
    )
    planned_on = models.DateField(null=True, blank=True)
    battle = models.OneToOneField(
        Battle, null=True, blank=True, on_delete=models.SET_NULL, related_name="fixture"
    )
    repeat = models.BooleanField(
        default=False, help_text="Two of its warbands met before: no other pairing was found."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FixtureQuerySet.as_manager()

    class Meta:
        ordering = ["campaign_id", "round_id", "pk"]

    def __str__(self) -> str:
        return f"Fixture {self.pk}"

    @property
    def scenario_name(self) -> str:
        return scenarios.scenario(self.scenario_key).name if self.scenario_key else ""

    @property
    def state(self) -> str:
        """Planned, being played, reported (waiting or disputed) or confirmed, from its
        battle (which the caller loaded with it)."""
        if self.battle_id is None:
            return self.State.PLANNED
        status = self.battle.status
        if status == Battle.Status.PLAYING:
            return self.State.PLAYING
        if status == Battle.Status.CONFIRMED:
            return self.State.CONFIRMED
        return self.State.REPORTED

    def get_state_display(self) -> str:
        return self.State(self.state).label


class FixtureSide(models.Model):
    """One warband of a fixture."""

    CAMPAIGN_PATH = "fixture__campaign"  # league.backup

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="sides")
    warband = models.ForeignKey("warbands.Warband", on_delete=models.CASCADE, related_name="+")

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["fixture_id", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "warband"], name="warband_once_per_fixture")
        ]

    def __str__(self) -> str:
        return f"{self.warband} in {self.fixture}"


class Challenge(models.Model):
    """A player's warband challenges one or more others of the campaign. Each challenged
    player answers for his warband (``ChallengeAnswer``); once all accept, the game becomes a
    fixture; one refusal declines it; the challenger may withdraw it until then."""

    CAMPAIGN_PATH = "campaign"  # league.backup, campaign.permissions.members_only

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for answers"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="challenges"
    )
    challenger = models.ForeignKey(
        "warbands.Warband", on_delete=models.CASCADE, related_name="challenges_sent"
    )
    scenario_key = models.CharField(max_length=40, blank=True)
    planned_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    fixture = models.OneToOneField(
        Fixture, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["campaign_id", "-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Challenge {self.pk}"

    @property
    def scenario_name(self) -> str:
        return scenarios.scenario(self.scenario_key).name if self.scenario_key else ""


class ChallengeAnswer(models.Model):
    """A challenged warband's answer: waiting, accepted or declined."""

    CAMPAIGN_PATH = "challenge__campaign"  # league.backup

    class Answer(models.TextChoices):
        WAITING = "waiting", "Waiting"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="answers")
    warband = models.ForeignKey("warbands.Warband", on_delete=models.CASCADE, related_name="+")
    answer = models.CharField(max_length=10, choices=Answer.choices, default=Answer.WAITING)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["challenge_id", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "warband"], name="warband_challenged_once")
        ]

    def __str__(self) -> str:
        return f"{self.warband}: {self.get_answer_display()}"
