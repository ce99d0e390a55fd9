"""Battles: who fought, how it ended, what each warrior did, the dice rolled, what was found
and carried, and who was taken captive.

A battle is reported by a participant (or recorded by an organiser), confirmed or disputed by
the other participants, and only a confirmed battle counts in the league table and starts the
post-battle sequences.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

from battles.rules import scenarios
from campaign.cache import Versioned
from campaign.models import RandomFortuneEntry


class BattleQuerySet(models.QuerySet):
    def confirmed(self) -> BattleQuerySet:
        return self.filter(status=Battle.Status.CONFIRMED)

    def in_campaign(self, campaign) -> BattleQuerySet:
        return self.filter(campaign=campaign)


class Battle(Versioned):
    KIND = "battle"  # campaign.cache: its board and its sequences' panels
    CAMPAIGN_PATH = "campaign"  # league.backup

    class Status(models.TextChoices):
        PLAYING = "playing", "Being played"
        REPORTED = "reported", "Waiting for confirmation"
        DISPUTED = "disputed", "Disputed"
        CONFIRMED = "confirmed", "Confirmed"

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.PROTECT, related_name="battles"
    )
    fought_on = models.DateField(default=datetime.date.today)
    scenario = models.CharField(max_length=100)
    scenario_key = models.CharField(
        max_length=40,
        blank=True,
        help_text="One of the chapter's scenarios (battles/data/scenarios, read by "
        "battles.rules.scenarios); blank for another, whose experience awards are typed in.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REPORTED)
    random_fortune = models.BooleanField(default=False)
    fortune_table = models.CharField(
        max_length=4,
        choices=RandomFortuneEntry.Table.choices,
        default=RandomFortuneEntry.Table.D66,
        help_text="The random fortune table the scenario names.",
    )
    fortune_markers = models.PositiveSmallIntegerField(null=True, blank=True)
    notes = models.TextField(blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    carried_items_done_at = models.DateTimeField(
        null=True, blank=True, help_text="Step 0 of the post-battle sequence is over."
    )
    choosing_order = models.JSONField(
        default=list, blank=True, help_text="Warband ids, in the order they choose items."
    )
    choosing_turn = models.PositiveSmallIntegerField(default=0)

    objects = BattleQuerySet.as_manager()

    class Meta:
        ordering = ["-fought_on", "-pk"]

    @property
    def played(self) -> scenarios.Scenario:
        """The scenario's data (``OTHER`` for one named by the players)."""
        return scenarios.scenario(self.scenario_key)

    def __str__(self) -> str:
        return f"{self.scenario} ({self.fought_on:%d %b %Y})"

    @property
    def is_confirmed(self) -> bool:
        return self.status == self.Status.CONFIRMED


class Participant(models.Model):
    """A warband's part in a battle, with its rating as it was that day."""

    CAMPAIGN_PATH = "battle__campaign"  # league.backup

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
    result = models.CharField(
        max_length=5, choices=Result.choices, blank=True, help_text="Blank while being played."
    )
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
    # The side's own report: who took part and what each did (``WarriorOutcome``), entered by
    # the warband's player or, for him, an organiser.
    side_entered_at = models.DateTimeField(null=True, blank=True)
    side_entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    leader = models.ForeignKey(
        "warbands.Warrior",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who led the warband in this battle (the winning leader's experience).",
    )
    scenario_shards = models.PositiveSmallIntegerField(
        default=0, help_text="Wyrdstone shards the scenario itself gives the warband."
    )
    role = models.CharField(
        max_length=40,
        blank=True,
        help_text="The side's role in a scenario that has roles (attacker, defender …): only "
        "its warriors earn that role's awards.",
    )
    # What the warband declared for step 0 (carried items at the end of the game).
    carried_items_declared = models.BooleanField(default=False)
    declaration_proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="An organiser who declared the carried items for the warband's player: they "
        "wait for the player's confirmation.",
    )
    securers = models.PositiveSmallIntegerField(
        default=0, help_text="Warriors still on the table able to secure carried items."
    )
    pitters = models.PositiveSmallIntegerField(default=0, help_text="Band of Pitters: 0, 1 or 2.")
    quartermasters = models.PositiveSmallIntegerField(
        default=0, help_text="Standing Quartermasters at the end of the game."
    )

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["battle_id", "pk"]
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

    CAMPAIGN_PATH = "participant__battle__campaign"  # league.backup

    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="outcomes")
    warrior = models.ForeignKey("warbands.Warrior", on_delete=models.PROTECT, related_name="+")
    out_of_action = models.BooleanField(default=False)
    models_out_of_action = models.PositiveSmallIntegerField(
        default=0, help_text="For a henchman group: how many of its models were put out of action."
    )
    enemies_out_of_action = models.PositiveSmallIntegerField(default=0)
    scenario_experience = models.PositiveSmallIntegerField(
        default=0, help_text="Typed-in awards of a scenario the app does not list."
    )
    awards = models.JSONField(
        default=dict, blank=True, help_text="The listed scenario's own awards earned: key → times."
    )
    taken_out_by = models.ForeignKey(
        "warbands.Warrior",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The enemy who put this warrior out of action, when known.",
    )

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["participant_id", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "warrior"], name="warrior_once_per_battle"
            )
        ]

    def __str__(self) -> str:
        return f"{self.warrior} in {self.participant.battle}"

    @property
    def award_labels(self) -> list[str]:
        """The scenario's awards he earned, as read on the battle page."""
        played = scenarios.scenario(self.participant.battle.scenario_key)
        labels = {award.key: award.label for award in played.awards}
        return [
            labels.get(key, key) + (f" ×{times}" if times > 1 else "")
            for key, times in self.awards.items()
            if times
        ]


class DiceRoll(models.Model):
    """A roll made for a battle, shown to every participant and the organisers (campaigns
    text: "any dice rolls must be seen by both players or a neutral third party")."""

    CAMPAIGN_PATH = "battle__campaign"  # league.backup

    class Source(models.TextChoices):
        SERVER = "server", "Rolled by the server"
        ENTERED = "entered", "Physical dice, entered"

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="dice_rolls")
    warband = models.ForeignKey(
        "warbands.Warband", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    purpose = models.CharField(max_length=200)
    sides = models.PositiveSmallIntegerField()
    faces = models.JSONField()
    source = models.CharField(max_length=10, choices=Source.choices)
    result = models.CharField(max_length=300, blank=True, help_text="What the roll decided.")
    secret = models.BooleanField(
        default=False,
        help_text="Rolled for the warband's treasury (a treasury step, the slavers' price): its "
        "faces and result are shown only to those who may see the warband's treasury.",
    )
    public = models.CharField(
        max_length=200,
        blank=True,
        help_text="What a secret roll shows those who may not see the treasury, when it is not "
        "just a roll in a treasury step: “Brandt of the Reavers sold to the slavers”.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.purpose}: {self.faces}"

    @property
    def shown(self) -> str:
        dice = f"{len(self.faces)}D{self.sides}" if len(self.faces) > 1 else f"D{self.sides}"
        return f"{dice}: {' + '.join(str(face) for face in self.faces)}"


class Discovery(models.Model):
    """A random fortune marker investigated during the game (Mayhem in Mordheim)."""

    CAMPAIGN_PATH = "battle__campaign"  # league.backup

    class Kind(models.TextChoices):
        CARRIED_ITEM = "carried_item", "Carried item"
        ANIMAL = "animal", "Animal or mount"
        CART = "cart", "Cart"
        COACH = "coach", "Opulent coach"

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="discoveries")
    warband = models.ForeignKey(
        "warbands.Warband", on_delete=models.PROTECT, related_name="+", help_text="Found by."
    )
    test_roll = models.PositiveSmallIntegerField()
    discovered = models.BooleanField()
    cult_attack = models.BooleanField(default=False)
    table_roll = models.PositiveSmallIntegerField(null=True, blank=True)
    result = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=15, choices=Kind.choices, default=Kind.CARRIED_ITEM)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "discoveries"

    def __str__(self) -> str:
        return self.result or "nothing"


class CarriedItemAtEnd(models.Model):
    """A carried item on the table when the game ended (step 0 of the post-battle sequence):
    who controlled it, and who secured it."""

    CAMPAIGN_PATH = "battle__campaign"  # league.backup

    class State(models.TextChoices):
        UNDECLARED = "undeclared", "Not declared yet"
        OWN = "own", "Controlled by its own warband"
        ENEMY = "enemy", "Controlled by an enemy"
        UNCONTROLLED = "uncontrolled", "Uncontrolled"

    class Outcome(models.TextChoices):
        PENDING = "pending", "To be resolved"
        SECURED = "secured", "Secured by its warband"
        CAPTURED = "captured", "Captured"
        RECOVERED = "recovered", "Recovered"
        HOME = "home", "Went home"
        LOST = "lost", "Left behind"

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="carried_items")
    owner = models.ForeignKey(
        "warbands.Warband",
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The warband that brought (or found) it.",
    )
    label = models.CharField(max_length=100, help_text="Public: what everybody sees on the table.")
    container = models.ForeignKey(
        "warbands.StorageContainer",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    vessel = models.ForeignKey(
        "warbands.VesselItem", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    discovery = models.ForeignKey(
        Discovery, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    heavy = models.BooleanField(default=False)
    is_warmount = models.BooleanField(default=False)
    is_mule = models.BooleanField(default=False)
    state = models.CharField(max_length=12, choices=State.choices, default=State.UNDECLARED)
    controlled_by = models.ForeignKey(
        "warbands.Warband", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    exposed = models.BooleanField(
        default=False,
        help_text="Heavy, held by routers of combined Strength under 6 in sight and charge "
        "range of a standing enemy: it becomes uncontrolled.",
    )
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    secured_by = models.ForeignKey(
        "warbands.Warband", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recovery = models.TextField(blank=True, help_text="The recovery rolls, as shown to all.")
    resolved_at = models.DateTimeField(null=True, blank=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["battle", "owner", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(container__isnull=False)
                | Q(vessel__isnull=False)
                | Q(discovery__isnull=False),
                name="carried_item_is_something",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def is_uncontrolled(self) -> bool:
        return self.state == self.State.UNCONTROLLED or self.exposed


class Captive(models.Model):
    """A hero held by another warband after a battle (serious injury 61, Captured)."""

    CAMPAIGN_PATH = "battle__campaign"  # league.backup

    class Status(models.TextChoices):
        HELD = "held", "Held captive"
        RANSOMED = "ransomed", "Ransomed"
        EXCHANGED = "exchanged", "Exchanged"
        SOLD = "sold", "Sold to the slavers"
        ZOMBIE = "zombie", "Killed and raised as a Zombie"
        SACRIFICED = "sacrificed", "Sacrificed"
        RELEASED = "released", "Released"

    warrior = models.ForeignKey("warbands.Warrior", on_delete=models.PROTECT, related_name="+")
    captor = models.ForeignKey(
        "warbands.Warband", on_delete=models.PROTECT, related_name="captives"
    )
    battle = models.ForeignKey(Battle, on_delete=models.PROTECT, related_name="captives")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    ransom = models.PositiveIntegerField(null=True, blank=True, help_text="Set by the captor.")
    ransom_into = models.ForeignKey(
        "warbands.StorageContainer",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The captor's container that receives the ransom (the captor's secret).",
    )
    exchange_for = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The captor offers to exchange this captive for that one, a warrior of his "
        "own held by this captive's warband.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.warrior} held by {self.captor}"
