"""A battle played with the battle helper (``battles.helper``): the turn, each side, each model
on the table and what happened, in the order it happened.

``Game.version`` goes up with every change, under the game's row lock: the page polls with the
version it shows and gets an empty answer while nothing changed (``battles.helper.views``).
``Game.changes`` says, for the latest versions, what each change touched (fighters, sides, the
turn), and every line of the log carries the version that wrote it: a page a few changes
behind is sent only those (``battles.helper.delta``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from battles.models.battle import Battle, Participant
from battles.rules import animosity as animosity_rules
from battles.rules import play


class Game(models.Model):
    CAMPAIGN_PATH = "battle__campaign"  # league.backup
    VERSIONED_BY_GAME = True  # campaign.cache

    battle = models.OneToOneField(Battle, on_delete=models.CASCADE, related_name="game")
    turn = models.PositiveSmallIntegerField(default=1)
    player = models.PositiveSmallIntegerField(
        default=0, help_text="Whose turn: an index into the sides' order."
    )
    phase = models.CharField(
        max_length=10, choices=list(play.PHASES.items()), default=play.PHASE_ORDER[0]
    )
    version = models.PositiveIntegerField(default=1)
    changes = models.JSONField(
        default=list,
        blank=True,
        help_text="What the latest changes touched, one entry per version, oldest first.",
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = models.QuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.battle}, turn {self.turn}"

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None


class GameSide(models.Model):
    """A warband in the game: its place in the turn order and its Rout tests."""

    CAMPAIGN_PATH = "game__battle__campaign"  # league.backup
    VERSIONED_BY_GAME = True  # campaign.cache

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sides")
    participant = models.OneToOneField(
        Participant, on_delete=models.CASCADE, related_name="game_side"
    )
    position = models.PositiveSmallIntegerField()
    rout_tested_turn = models.PositiveSmallIntegerField(
        default=0, help_text="The turn of its latest Rout test (0: none yet)."
    )
    rout_failed = models.BooleanField(
        default=False, help_text="Its latest Rout test failed and a re-roll is still offered."
    )
    rerolls_used = models.JSONField(
        default=list, blank=True, help_text="Re-rolls taken: once-per-game ones stay here."
    )
    rerolls_this_test = models.JSONField(default=list, blank=True)
    animosity_turn = models.PositiveSmallIntegerField(
        default=0, help_text="The turn it last rolled for Animosity (0: never)."
    )

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_side_per_position")
        ]

    def __str__(self) -> str:
        return str(self.participant.warband)


class Fighter(models.Model):
    """One model on the table: a hero, or one model of a henchman group (``number``)."""

    CAMPAIGN_PATH = "game__battle__campaign"  # league.backup
    VERSIONED_BY_GAME = True  # campaign.cache

    class Cause(models.TextChoices):
        ENEMY = "enemy", "an enemy"
        FALL = "fall", "a fall"
        FLED = "fled", "fleeing off the table"
        OTHER = "other", "something else"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="fighters")
    side = models.ForeignKey(GameSide, on_delete=models.CASCADE, related_name="fighters")
    warrior = models.ForeignKey("warbands.Warrior", on_delete=models.PROTECT, related_name="+")
    number = models.PositiveSmallIntegerField(default=1)
    state = models.CharField(
        max_length=13, choices=list(play.STATES.items()), default=play.STANDING
    )
    may_stand = models.BooleanField(
        default=False, help_text="Knocked down when his recovery phase began: he may stand up."
    )
    ran = models.BooleanField(default=False)
    charged = models.BooleanField(default=False)
    fled = models.BooleanField(default=False)
    fell = models.BooleanField(default=False)
    fall_height = models.PositiveSmallIntegerField(
        default=0, help_text="A failed test made him fall this far: the fall is to roll."
    )
    cause = models.CharField(max_length=5, choices=Cause.choices, blank=True)
    taken_out_by = models.ForeignKey(
        "warbands.Warrior", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    taken_out_turn = models.PositiveSmallIntegerField(null=True, blank=True)
    rally_turn = models.PositiveSmallIntegerField(
        default=0, help_text="The turn of his latest Rally test: one per recovery phase."
    )
    wounds_lost = models.PositiveSmallIntegerField(
        default=0, help_text="Wounds taken in this game, up to his profile's W."
    )
    animosity = models.CharField(
        max_length=12, blank=True,
        choices=[(r.key, r.name) for r in animosity_rules.RESULTS.values()],
        help_text="What his Animosity made him do this turn (empty: nothing).",
    )  # fmt: skip

    SNAPSHOT = ("state", "may_stand", "ran", "charged", "fled", "fell", "fall_height", "cause",
                "taken_out_by_id", "taken_out_turn", "wounds_lost")  # fmt: skip

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["side__position", "-warrior__is_leader", "-warrior__is_hero", "warrior_id",
                    "number"]  # fmt: skip
        constraints = [
            models.UniqueConstraint(
                fields=["game", "warrior", "number"], name="one_fighter_per_model"
            ),
            models.CheckConstraint(
                condition=Q(state=play.OUT_OF_ACTION) | (Q(cause="") & Q(taken_out_by=None)),
                name="taken_out_only_when_out_of_action",
            ),
            models.CheckConstraint(
                condition=Q(taken_out_by=None) | Q(cause="enemy"),
                name="taken_out_by_an_enemy",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def snapshot(self) -> dict:
        return {name: getattr(self, name) for name in self.SNAPSHOT}

    def restore(self, snapshot: dict) -> None:
        """As he was; a field the snapshot predates stays as it is."""
        for name in self.SNAPSHOT:
            setattr(self, name, snapshot.get(name, getattr(self, name)))

    @property
    def is_out(self) -> bool:
        return self.state == play.OUT_OF_ACTION

    @property
    def wounds(self) -> int:
        """His profile's Wounds (at least one)."""
        return max(self.warrior.W, 1)

    @property
    def wounds_left(self) -> int:
        return self.wounds - self.wounds_lost

    @property
    def animosity_result(self) -> animosity_rules.Result | None:
        """What his Animosity makes him do this turn, if anything."""
        return animosity_rules.RESULTS.get(self.animosity)

    @property
    def name(self) -> str:
        warrior = self.warrior
        return warrior.name if warrior.is_hero else f"{warrior.name} #{self.number}"


class GameEvent(models.Model):
    """What happened, as both players read it: states, tests, Rout tests, phases, loot picked
    up and notes. Loot is public: it was picked up on the table."""

    CAMPAIGN_PATH = "game__battle__campaign"  # league.backup
    VERSIONED_BY_GAME = True  # campaign.cache

    class Kind(models.TextChoices):
        STATE = "state", "State"
        TEST = "test", "Test"
        ROUT = "rout", "Rout"
        TURN = "turn", "Turn"
        LOOT = "loot", "Loot"
        NOTE = "note", "Note"
        END = "end", "End"

    class Loot(models.TextChoices):
        GOLD = "gold", "gold crowns"
        WYRDSTONE = "wyrdstone", "wyrdstone shards"
        ITEM = "item", "an item"
        CONTAINER = "container", "a carried container"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    turn = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    side = models.ForeignKey(
        GameSide, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    fighter = models.ForeignKey(
        Fighter, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    text = models.CharField(max_length=300)
    loot = models.CharField(max_length=10, choices=Loot.choices, blank=True)
    amount = models.PositiveIntegerField(default=0)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    before = models.JSONField(
        null=True, blank=True, help_text="The fighter as he was before: undoing puts him back."
    )
    version = models.PositiveIntegerField(
        default=0, help_text="The game's version this line came with (0: as the game began)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return self.text
