"""Campaigns and who takes part in them."""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from campaign.cache import Versioned
from campaign.rules import standings as standings_rules

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(10))


def _default_tie_breakers() -> str:
    return ",".join(standings_rules.DEFAULT_TIE_BREAKERS)


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user) -> CampaignQuerySet:
        """Campaigns the user is an active member of (as player or organiser)."""
        return self.filter(memberships__user=user, memberships__is_active=True)


class Campaign(Versioned):
    """A league: a group of warbands fighting each other over a season.

    The options mirror the choices a group makes before its first game.
    """

    KIND = "campaign"  # campaign.cache
    CAMPAIGN_PATH = "pk"  # league.backup

    class Challenges(models.TextChoices):
        FORBIDDEN = "forbidden", "Forbidden: the organisers plan every game"
        ALLOWED = "allowed", "Allowed: players may also challenge each other"
        REQUIRED = "required", "Required: a battle is reported only from a planned game"

    class CarriedTreasury(models.TextChoices):
        STARTING_GOLD = (
            "starting_gold",
            "Starts with the campaign's starting gold, as a new warband would",
        )
        KEPT = (
            "kept",
            "Keeps its treasury (a carried warband only: an imported file never brings gold, "
            "since a file can be forged)",
        )
        NONE = "none", "No treasury: only warriors and equipment"

    class Status(models.TextChoices):
        OPEN = "open", "Running"
        CLOSED = "closed", "Closed"
        ARCHIVED = "archived", "Archived"

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
        help_text="Organisers with no warband in play may see the contents of every "
        "warband's storage containers (one who plays sees only his own).",
    )
    max_warbands_per_player = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1)]
    )
    challenge_policy = models.CharField(
        "challenges between players",
        max_length=10,
        choices=Challenges.choices,
        default=Challenges.ALLOWED,
        help_text="Whether players challenge each other to games (battles.schedule); "
        "“required”: every battle is played from a round's game or an accepted challenge.",
    )
    # A warband that outlived another campaign (``warbands.transfer``).
    carrying_allowed = models.BooleanField(
        "warbands may be carried in from other campaigns",
        default=False,
        help_text="A member copies a warband of his from another campaign into this one.",
    )
    imports_allowed = models.BooleanField(
        "warband files may be imported",
        default=False,
        help_text="A member uploads a warband file exported from this app, checked against "
        "the house rules.",
    )
    carried_treasury = models.CharField(
        "treasury of a carried or imported warband",
        max_length=15,
        choices=CarriedTreasury.choices,
        default=CarriedTreasury.STARTING_GOLD,
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    join_code = models.CharField(max_length=12, unique=True, default=new_join_code)
    joining_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # How the league table ranks (``campaign.rules.standings``; set by ``campaign.standings``).
    # On the campaign's own row, so that ranking the table costs no query of its own.
    win_points = models.PositiveSmallIntegerField("points for a win", default=3)
    draw_points = models.PositiveSmallIntegerField("points for a draw", default=1)
    loss_points = models.PositiveSmallIntegerField("points for a loss", default=0)
    played_points = models.PositiveSmallIntegerField(
        "points for playing at all", default=0, help_text="Added to every result's points."
    )
    tie_breakers = models.CharField(
        max_length=100,
        default=_default_tie_breakers,
        blank=True,
        help_text="Keys of campaign.rules.standings.TIE_BREAKERS, in order, comma-separated.",
    )

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

    @property
    def is_open(self) -> bool:
        """Closed and archived campaigns are read-only."""
        return self.status == self.Status.OPEN

    @property
    def scoring(self) -> standings_rules.Scoring:
        """The league table's points for each result."""
        return standings_rules.Scoring(
            win=self.win_points,
            draw=self.draw_points,
            loss=self.loss_points,
            played=self.played_points,
        )

    @property
    def tie_breaker_order(self) -> tuple[str, ...]:
        """The league table's tie-breakers, in the organiser's order."""
        return standings_rules.parse_tie_breakers(self.tie_breakers)


class MembershipQuerySet(models.QuerySet):
    def active(self) -> MembershipQuerySet:
        return self.filter(is_active=True)

    def organisers(self) -> MembershipQuerySet:
        return self.active().filter(is_organiser=True)


class Membership(models.Model):
    """A user in a campaign. Organisers run it; anybody may also play with their warbands."""

    CAMPAIGN_PATH = "campaign"  # league.backup

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    is_organiser = models.BooleanField(default=False)
    is_active = models.BooleanField(
        default=True, help_text="Off when an organiser removed the player (kept for history)."
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        ordering = ["campaign_id", "-is_organiser", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_once_per_user"),
        ]

    def __str__(self) -> str:
        role = "organiser" if self.is_organiser else "player"
        return f"{self.user} ({role}) in {self.campaign}"


class OrganiserInvitationQuerySet(models.QuerySet):
    def pending(self) -> OrganiserInvitationQuerySet:
        return self.filter(status=OrganiserInvitation.Status.PENDING)

    def addressed_to(self, user) -> OrganiserInvitationQuerySet:
        """The invitations to ``user``'s username (as typed, in any case: sign-up refuses a
        name that differs from another only in case)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(username__iexact=user.username)


class OrganiserInvitation(models.Model):
    """An organiser's invitation to co-organise the campaign, addressed to a username, that
    its holder accepts or declines on his dashboard (``campaign.co_organisers``). It names a
    username rather than an account: an invitation to a name nobody holds is made, listed
    and withdrawn exactly like one to an existing account, so the form tells nobody which
    names exist."""

    CAMPAIGN_PATH = "campaign"  # league.backup

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="organiser_invitations"
    )
    username = models.CharField(max_length=150)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who accepted or declined it, or the organiser who withdrew it.",
    )

    objects = OrganiserInvitationQuerySet.as_manager()

    class Meta:
        ordering = ["campaign_id", "-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                "campaign",
                condition=Q(status="pending"),
                name="organiser_invitation_one_pending_per_name",
            ),
            models.CheckConstraint(
                condition=Q(status="pending", answered_at__isnull=True)
                | (~Q(status="pending") & Q(answered_at__isnull=False)),
                name="organiser_invitation_answered_when_not_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.username} invited to co-organise {self.campaign}"


class CampaignEvent(models.Model):
    """One line of the campaign feed. The message is written when the event happens, from
    public facts only: never gold, wyrdstone or what a container held."""

    CAMPAIGN_PATH = "campaign"  # league.backup

    class Kind(models.TextChoices):
        JOINED = "joined", "Joined"
        MUSTERED = "mustered", "Warband mustered"
        BATTLE = "battle", "Battle fought"
        DEATH = "death", "Warrior died"
        CAPTURED = "captured", "Warrior captured"
        ADVANCE = "advance", "Advance"
        HIRE = "hire", "New hire"
        CONTAINER = "container", "Container captured"
        CAMPAIGN = "campaign", "Campaign news"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    message = models.CharField(max_length=300)
    warband = models.ForeignKey(
        "warbands.Warband", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    battle = models.ForeignKey(
        "battles.Battle", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.message


class RandomFortuneEntry(models.Model):
    """A row of the campaign's random fortune table (Mayhem in Mordheim's D66/D100 tables are
    not in our rule texts: organisers enter the table their campaign uses)."""

    CAMPAIGN_PATH = "campaign"  # league.backup

    class Table(models.TextChoices):
        D66 = "d66", "D66"
        D100 = "d100", "D100"

    class Kind(models.TextChoices):
        CARRIED_ITEM = "carried_item", "Carried item (1 stored item)"
        ANIMAL = "animal", "Animal or mount"
        CART = "cart", "Cart"
        COACH = "coach", "Opulent coach"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="fortune_entries")
    table = models.CharField(max_length=4, choices=Table.choices, default=Table.D66)
    low = models.PositiveSmallIntegerField()
    high = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=200)
    kind = models.CharField(max_length=15, choices=Kind.choices, default=Kind.CARRIED_ITEM)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["campaign_id", "table", "low"]
        verbose_name_plural = "random fortune entries"
        constraints = [
            models.CheckConstraint(condition=Q(low__lte=models.F("high")), name="fortune_range")
        ]

    def __str__(self) -> str:
        return f"{self.low}-{self.high}: {self.result}"
