"""Rosters: the warbands players build from the warband lists, and what is written on them.

``Warband`` and ``Warrior`` with the warriors' items, skills, spells and lasting injuries, the
rating snapshots charted over the campaign and the hired swords. They belong to players; each
names its campaign (``CAMPAIGN_PATH``: a campaign's backup finds them by it); a warband has
the version its roster and treasury are cached under (``campaign.cache``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Case, F, Q, Value, When

from campaign.cache import Versioned
from warbands import rules
from warbands.models.hired_swords import HiredSwordType
from warbands.models.reference import (
    Item,
    ProfileFields,
    Skill,
    SkillList,
    Spell,
    WarbandType,
    WarriorType,
)

# Each model's own share of the rating before experience, as SQL over warriors (what
# ``Warrior.rated`` gives ``rules.warband_rating``): a hired sword's own value, 20 for a large
# creature, else 5.
RATING_BASE = Case(
    When(warrior_type__rating_value__isnull=False, then=F("warrior_type__rating_value")),
    When(warrior_type__is_large=True, then=Value(20)),
    default=Value(5),
)


class WarbandQuerySet(models.QuerySet):
    def owned_by(self, user) -> WarbandQuerySet:
        return self.filter(owner=user)

    def in_campaign(self, campaign) -> WarbandQuerySet:
        return self.filter(campaign=campaign)

    def playing(self) -> WarbandQuerySet:
        """Warbands that still take part: being mustered or active."""
        return self.filter(status__in=[Warband.Status.DRAFT, Warband.Status.ACTIVE])


class Warband(Versioned):
    """A player's warband in one campaign.

    Its rating is derived from the warriors (``rating``), never stored by hand. ``gold_crowns``
    is the purse while the warband is being mustered; when mustering ends what is left goes into
    its storage containers (the treasury) and the purse stays at zero.
    """

    KIND = "warband"  # campaign.cache: its roster and treasury
    CAMPAIGN_PATH = "campaign"  # league.backup

    class Status(models.TextChoices):
        DRAFT = "draft", "Being mustered"
        ACTIVE = "active", "Active"
        DISBANDED = "disbanded", "Disbanded"
        ARCHIVED = "archived", "Removed by the organiser"

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="warbands"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="warbands"
    )
    warband_type = models.ForeignKey(WarbandType, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=100)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    gold_crowns = models.PositiveIntegerField(default=0)
    starting_gold = models.PositiveIntegerField(
        default=500,
        help_text="The gold it was mustered with: its list's, or the campaign's house rules'.",
    )
    exploration_extra_dice = models.PositiveSmallIntegerField(
        default=0,
        help_text="The Straggler (4-4): at the next exploration roll one more die and discard one.",
    )
    catacombs_reroll = models.BooleanField(
        default=False,
        help_text="Entrance to the Catacombs (6×5): may re-roll one exploration die, for good.",
    )
    map_rerolls = models.PositiveSmallIntegerField(
        default=0,
        help_text="Mordheim maps bought (Vague: 1, Accurate: 3): exploration dice the warband "
        "may re-roll at the next exploration.",
    )
    master_map = models.BooleanField(
        default=False,
        help_text="A Mordheim map bought was a master map: one exploration die re-rolled for "
        "good, while a hero carrying a Mordheim map was not taken out of action.",
    )
    carried_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="carried_into",
        help_text="The warband of another campaign this one is a copy of (warbands.transfer).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = WarbandQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(gold_crowns__gte=0), name="warband_gold_not_negative"
            ),
            # Once mustered, all treasure lives in storage containers.
            models.CheckConstraint(
                condition=Q(status="draft") | Q(gold_crowns=0), name="purse_only_while_mustering"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT


class WarriorQuerySet(models.QuerySet):
    def on_roster(self) -> WarriorQuerySet:
        """Warriors still with the warband (fighting, recovering or held captive)."""
        return self.filter(status__in=Warrior.ON_ROSTER)

    def fighting(self) -> WarriorQuerySet:
        """Warriors with the warband and free to fight: not held captive by an enemy. Only
        they count in the rating (a captive leaves it while he is held)."""
        return self.filter(status=Warrior.Status.ACTIVE)

    def for_roster_page(self) -> WarriorQuerySet:
        """Everything the roster sheet shows: each warrior's type and, as lists, its items
        (``item_list``), skills (``skill_list``), spells (``spell_list``) and injuries
        (``injury_list``), in a fixed number of queries whatever the roster holds. Lists
        (``Prefetch(to_attr=...)``) rather than related managers: Django builds no queryset
        per warrior for them."""
        roster = self.select_related(
            "warrior_type__warband_type", "warrior_type__race", "hired_sword__warrior_type"
        ).with_items()
        return roster.prefetch_related(
            models.Prefetch(
                "skills",
                WarriorSkill.objects.select_related("skill__skill_list"),
                to_attr="skill_list",
            ),
            models.Prefetch(
                "spells",
                WarriorSpell.objects.select_related("spell__spell_list"),
                to_attr="spell_list",
            ),
            models.Prefetch("injuries", to_attr="injury_list"),
        )

    def with_items(self) -> WarriorQuerySet:
        """The warriors with their items (each with its catalogue entry) as ``item_list``."""
        return self.prefetch_related(
            models.Prefetch(
                "items", WarriorItem.objects.select_related("item"), to_attr="item_list"
            )
        )

    def for_forms(self) -> WarriorQuerySet:
        """What the treasury's forms show of warriors and what they carry (a name, whether a
        hero, how many in the group, each item's name and kind), without the forty fields
        of a warrior's profile and type."""
        items = WarriorItem.objects.select_related("item").only(
            "warrior", "item__name", "item__category"
        )
        return self.only(
            "name", "is_hero", "is_leader", "group_size", "status", "warband", "warrior_type"
        ).prefetch_related(models.Prefetch("items", items, to_attr="item_list"))


class Warrior(ProfileFields):
    """A hero, or a group of henchmen sharing one profile, equipment set and experience."""

    CAMPAIGN_PATH = "warband__campaign"  # league.backup

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        CAPTURED = "captured", "Captured"
        DEAD = "dead", "Dead"
        RETIRED = "retired", "Retired"
        DISMISSED = "dismissed", "Dismissed"

    # Members of the warband (they count against its limits); a captive is one, but not
    # fighting (``WarriorQuerySet.fighting``).
    ON_ROSTER = (Status.ACTIVE, Status.CAPTURED)

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="warriors")
    warrior_type = models.ForeignKey(WarriorType, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(max_length=100)
    is_hero = models.BooleanField()
    is_leader = models.BooleanField(default=False)
    group_size = models.PositiveSmallIntegerField(default=1)
    experience = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    games_to_miss = models.PositiveSmallIntegerField(default=0)
    extra_skill_lists = models.ManyToManyField(
        SkillList,
        blank=True,
        related_name="+",
        help_text="Lists picked when a henchman became a hero (the lad's got talent).",
    )
    maximum_bonuses = models.JSONField(
        default=dict, blank=True, help_text='Raised racial maximums, e.g. {"WS": 1}.'
    )
    hired_at_creation = models.BooleanField(default=True)
    hired_sword = models.ForeignKey(
        HiredSwordType,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="A hired sword: not counted in the warband's size; upkeep after each battle.",
    )
    learns_magic_next = models.BooleanField(
        default=False,
        help_text="Took over from a Sisters, Possessed or Carnival leader: may learn a spell or "
        "prayer instead of his next advance.",
    )
    kept_gems = models.BooleanField(
        default=False, help_text="Kept the Jewelsmith's gems: +1 to his rarity rolls."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = WarriorQuerySet.as_manager()

    class Meta:
        ordering = ["-is_leader", "-is_hero", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(group_size__gte=1), name="group_has_someone"),
            models.CheckConstraint(
                condition=Q(is_hero=False) | Q(group_size=1), name="hero_is_one_model"
            ),
            models.UniqueConstraint(
                fields=["warband"],
                condition=Q(is_leader=True, status__in=["active", "captured"]),
                name="one_leader_per_warband",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def maximum(self) -> rules.Profile | None:
        race = self.warrior_type.race
        if race is None:
            return None
        bonus = self.maximum_bonuses or {}
        return rules.Profile(
            **{
                name: getattr(race, name) + int(bonus.get(name, 0))
                for name in rules.CHARACTERISTICS
            }
        )

    @property
    def move_dice(self) -> str:
        """His Move when it is rolled in play (``WarriorType.move_dice``)."""
        return self.warrior_type.move_dice

    @property
    def rated(self) -> rules.RatedWarrior:
        return rules.RatedWarrior(
            models=self.group_size,
            experience=self.experience,
            large=self.warrior_type.is_large,
            value=self.warrior_type.rating_value,
        )

    def cost_per_model(self) -> int:
        """What one model of the warrior cost while mustering: his type and his equipment at the
        prices paid (henchmen of a group are equipped alike). Adding, refunding and auditing a
        muster all count with it."""
        return self.warrior_type.cost + sum(owned.price_paid for owned in self.items.all())

    def carried(self) -> list[WarriorItem]:
        """The warrior's items: the ``item_list`` its query read (``WarriorQuerySet``), else
        read now."""
        found = getattr(self, "item_list", None)
        return found if found is not None else list(self.items.select_related("item"))

    def experience_track(self) -> list[rules.TrackBox]:
        return rules.experience_track(
            self.experience,
            is_hero=self.is_hero,
            starting_experience=self.warrior_type.starting_experience,
        )

    @property
    def next_advance(self) -> int | None:
        if not self.warrior_type.gains_experience:
            return None
        return rules.next_advance(self.experience, is_hero=self.is_hero)


class WarriorItem(models.Model):
    """One item carried by a warrior (by each model of a henchman group).

    ``correction``: where it came from, when a correction added it rather than the rules (a
    purchase, a find, the muster). It goes with the item wherever the item goes (stored, back
    on a warrior, captured: ``StoredItem.correction``) and makes it worth nothing to a trader.
    """

    CAMPAIGN_PATH = "warrior__warband__campaign"  # league.backup

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="items")
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="+")
    price_paid = models.PositiveIntegerField(
        default=0, help_text="Per model; refunded if the purchase is undone while mustering."
    )
    correction = models.ForeignKey(
        "warbands.Correction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Added by this correction, never paid for: it sells for nothing.",
    )

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["item__category", "item__name", "pk"]

    def __str__(self) -> str:
        return str(self.item)

    @property
    def sale_price(self) -> int:
        """What a trader gives for it, per model (``Item.sale_price``): nothing for an item a
        correction added, which was never paid for, found or mustered."""
        return 0 if self.correction_id else self.item.sale_price


class WarriorSkill(models.Model):
    CAMPAIGN_PATH = "warrior__warband__campaign"  # league.backup

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="skills")
    skill = models.ForeignKey(Skill, on_delete=models.PROTECT, related_name="+")

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["skill__name"]
        constraints = [
            models.UniqueConstraint(fields=["warrior", "skill"], name="skill_once_per_warrior")
        ]

    def __str__(self) -> str:
        return str(self.skill)


class WarriorSpell(models.Model):
    CAMPAIGN_PATH = "warrior__warband__campaign"  # league.backup

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="spells")
    spell = models.ForeignKey(Spell, on_delete=models.PROTECT, related_name="+")
    roll = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The D6 rolled.")

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["spell__d6"]
        constraints = [
            models.UniqueConstraint(fields=["warrior", "spell"], name="spell_once_per_warrior")
        ]

    def __str__(self) -> str:
        return str(self.spell)


class Injury(models.Model):
    """A lasting serious injury written on the roster (leg wound, madness …)."""

    CAMPAIGN_PATH = "warrior__warband__campaign"  # league.backup

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="injuries")
    name = models.CharField(max_length=100)
    effect = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "injuries"

    def __str__(self) -> str:
        return self.name

    @property
    def summary(self) -> str:
        """What it does, without its name again: the sequence writes ``effect`` as "Leg
        wound: -1 Movement" (``battles.rules.injuries``), the roster shows "-1 Movement"."""
        effect = self.effect.strip()
        prefix = f"{self.name}:"
        if effect.lower().startswith(prefix.lower()):
            effect = effect[len(prefix) :].strip()
        return "" if effect.lower() == self.name.lower() else effect


class RatingSnapshot(models.Model):
    """The warband's rating at a moment worth charting: end of mustering, each battle."""

    CAMPAIGN_PATH = "warband__campaign"  # league.backup

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="ratings")
    rating = models.PositiveIntegerField()
    taken_at = models.DateTimeField()
    battle = models.ForeignKey(
        "battles.Battle", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=100, blank=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["warband_id", "taken_at", "pk"]

    def __str__(self) -> str:
        return f"{self.warband}: {self.rating}"


class HiredSword(models.Model):
    """A dramatis persona, or a hired sword the catalogue lacks, typed by hand in post-battle
    step 7: a name, the hire fee paid and the upkeep due after each later battle. Not part of
    the warband's rating. A hired sword of the catalogue is a ``Warrior`` instead
    (``Warrior.hired_sword``, ``warbands.hired_swords``).
    """

    CAMPAIGN_PATH = "warband__campaign"  # league.backup

    class Kind(models.TextChoices):
        HIRED_SWORD = "hired_sword", "Hired sword"
        DRAMATIS_PERSONA = "dramatis_persona", "Dramatis persona"

    class Status(models.TextChoices):
        ACTIVE = "active", "With the warband"
        LEFT = "left", "Left"

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="hired_swords")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.HIRED_SWORD)
    hire_fee = models.PositiveIntegerField(default=0)
    upkeep = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    hired_after = models.ForeignKey(
        "battles.Battle",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Hired in this battle's post-battle sequence: his first upkeep is due after "
        "the next one.",
    )
    notes = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.name
