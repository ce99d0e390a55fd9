"""Warband lists (reference data) and the warbands players build from them.

Reference data (``WarbandType`` and everything hanging off it, ``Item``, ``SkillList``,
``SpellList``, ``RacialMaximum``) is loaded from ``warbands/data/`` by a data migration and can
be extended in the admin for house rules. Rosters (``Warband``, ``Warrior`` and their items,
skills, spells and injuries) belong to players.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.versions import VersionedQuerySet
from warbands import rules
from warbands.rules import containers as container_rules


class ProfileFields(models.Model):
    """The nine characteristics of a profile (M WS BS S T W I A Ld)."""

    M = models.PositiveSmallIntegerField()
    WS = models.PositiveSmallIntegerField()
    BS = models.PositiveSmallIntegerField()
    S = models.PositiveSmallIntegerField()
    T = models.PositiveSmallIntegerField()
    W = models.PositiveSmallIntegerField()
    I = models.PositiveSmallIntegerField()  # noqa: E741 - Initiative
    A = models.PositiveSmallIntegerField()
    Ld = models.PositiveSmallIntegerField()

    class Meta:
        abstract = True

    @property
    def profile(self) -> rules.Profile:
        return rules.Profile(**{name: getattr(self, name) for name in rules.CHARACTERISTICS})

    def set_profile(self, profile: rules.Profile) -> None:
        for name, value in profile.as_dict().items():
            setattr(self, name, value)

    def profile_cells(self) -> list[tuple[str, int]]:
        return [(name, getattr(self, name)) for name in rules.CHARACTERISTICS]


# --- Reference data ------------------------------------------------------------------------


class KeyedManager(models.Manager):
    """Reference data is found by its ``key`` (natural keys, so a campaign's backup restores
    into a database whose reference rows have other ids)."""

    def get_by_natural_key(self, key):
        return self.get(key=key)


class KeyInListManager(models.Manager):
    """A skill, spell or warrior type: its key within its list (or warband list)."""

    list_field = ""

    def get_by_natural_key(self, list_key, key):
        if list_key is None:
            return self.get(**{f"{self.list_field}__isnull": True, "key": key})
        return self.get(**{f"{self.list_field}__key": list_key, "key": key})


class SkillManager(KeyInListManager):
    list_field = "skill_list"


class SpellManager(KeyInListManager):
    list_field = "spell_list"


class WarriorTypeManager(KeyInListManager):
    list_field = "warband_type"


class RacialMaximum(ProfileFields):
    """Maximum characteristics of a race or profile (FACTS.md section 3)."""

    key = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)

    objects = KeyedManager()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "racial maximums"

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)


class SkillList(models.Model):
    key = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)
    warband_type = models.ForeignKey(
        "WarbandType",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="own_skill_lists",
        help_text="Set for a warband's special list; empty for the five core lists.",
    )
    order = models.PositiveSmallIntegerField(default=0)

    objects = KeyedManager()

    class Meta:
        ordering = ["order", "name"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)


class Skill(models.Model):
    skill_list = models.ForeignKey(SkillList, on_delete=models.CASCADE, related_name="skills")
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=100)
    text = models.TextField(blank=True)
    optional_rule = models.CharField(
        max_length=60, blank=True, help_text="Campaign option the skill needs (Quartermaster)."
    )

    objects = SkillManager()

    class Meta:
        ordering = ["skill_list", "name"]
        constraints = [
            models.UniqueConstraint(fields=["skill_list", "key"], name="skill_key_per_list")
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.skill_list.key, self.key)

    natural_key.dependencies = ["warbands.skilllist"]


class SpellList(models.Model):
    key = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)

    objects = KeyedManager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)


class Spell(models.Model):
    spell_list = models.ForeignKey(SpellList, on_delete=models.CASCADE, related_name="spells")
    d6 = models.PositiveSmallIntegerField("D6")
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=100)
    difficulty = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField(blank=True)

    objects = SpellManager()

    class Meta:
        ordering = ["spell_list", "d6"]
        constraints = [
            models.UniqueConstraint(fields=["spell_list", "key"], name="spell_key_per_list"),
            models.UniqueConstraint(fields=["spell_list", "d6"], name="spell_d6_per_list"),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.spell_list.key, self.key)

    natural_key.dependencies = ["warbands.spelllist"]


class Item(models.Model):
    """An item of the trading chart (or one a warband list adds), at its general price."""

    class Category(models.TextChoices):
        HAND_TO_HAND = "hand_to_hand", "Hand-to-hand weapon"
        MISSILE = "missile", "Missile weapon"
        BLACKPOWDER = "blackpowder", "Blackpowder weapon"
        ARMOUR = "armour", "Armour"
        MISC = "misc", "Miscellaneous"
        ANIMAL = "animal", "Animal"
        MUTATION = "mutation", "Mutation"
        TREASURE = "treasure", "Treasure"

    key = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)
    category = models.CharField(max_length=20, choices=Category.choices)
    price = models.PositiveIntegerField(help_text="Fixed part of the price in gold crowns.")
    price_dice = models.CharField(
        max_length=20, blank=True, help_text="Variable part: 2D6, D6x10 …"
    )
    rarity = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="N of 'Rare N'; empty for Common."
    )
    notes = models.TextField(blank=True)
    sells_for = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="What it sells for, when not half its price (treasure found exploring).",
    )

    objects = KeyedManager()

    class Meta:
        ordering = ["category", "name"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)

    @property
    def sale_price(self) -> int:
        """Trading: "any item sells automatically for half its listed price"; a variable
        price counts its fixed part only; odd prices round down (FACTS.md section 6)."""
        return self.sells_for if self.sells_for is not None else self.price // 2

    @property
    def price_label(self) -> str:
        return f"{self.price}+{self.price_dice} gc" if self.price_dice else f"{self.price} gc"


class WarbandType(models.Model):
    """A warband list of the rulebook: Reikland Mercenaries, Skaven of Clan Eshin …"""

    key = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)
    family = models.CharField(max_length=100)
    source = models.TextField(blank=True)
    starting_gold = models.PositiveIntegerField(default=500)
    min_warriors = models.PositiveSmallIntegerField(default=3)
    max_warriors = models.PositiveSmallIntegerField()
    max_heroes = models.PositiveSmallIntegerField(default=6)
    rare_item_modifier = models.SmallIntegerField(default=0)
    special_rules = models.JSONField(default=list, blank=True)

    objects = KeyedManager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)

    @property
    def limits(self) -> rules.WarbandLimits:
        return rules.WarbandLimits(
            max_warriors=self.max_warriors,
            min_warriors=self.min_warriors,
            max_heroes=self.max_heroes,
        )


class EquipmentList(models.Model):
    warband_type = models.ForeignKey(
        WarbandType, on_delete=models.CASCADE, related_name="equipment_lists"
    )
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["warband_type", "name"]
        constraints = [
            models.UniqueConstraint(fields=["warband_type", "key"], name="equipment_list_key")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.warband_type})"


class EquipmentListEntry(models.Model):
    equipment_list = models.ForeignKey(
        EquipmentList, on_delete=models.CASCADE, related_name="entries"
    )
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="list_entries")
    price = models.PositiveIntegerField(
        help_text="The list price, which may differ from the chart."
    )
    first_free = models.BooleanField(default=False)
    heroes_only = models.BooleanField(default=False)
    recruitment_only = models.BooleanField(default=False)
    repeat_price_multiplier = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["equipment_list", "item__category", "price", "item__name"]
        verbose_name_plural = "equipment list entries"
        constraints = [
            models.UniqueConstraint(fields=["equipment_list", "item"], name="entry_once_per_list")
        ]

    def __str__(self) -> str:
        return f"{self.item} {self.price} gc"

    def as_rule(self) -> rules.ListEntry:
        return rules.ListEntry(
            item_key=self.item.key,
            item_name=self.item.name,
            category=self.item.category,
            price=self.price,
            first_free=self.first_free,
            heroes_only=self.heroes_only,
            recruitment_only=self.recruitment_only,
            repeat_price_multiplier=self.repeat_price_multiplier,
        )


class WarriorType(ProfileFields):
    """A hero or henchman type of a warband list, with its starting profile.

    ``warband_type`` is empty for warriors any warband may hire (hired swords, later).
    """

    class Kind(models.TextChoices):
        HERO = "hero", "Hero"
        HENCHMAN = "henchman", "Henchman"

    warband_type = models.ForeignKey(
        WarbandType,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="warrior_types",
    )
    key = models.SlugField(max_length=60)
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    is_leader = models.BooleanField(default=False)
    cost = models.PositiveIntegerField()
    min_count = models.PositiveSmallIntegerField(default=0)
    max_count = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: any.")
    group_max = models.PositiveSmallIntegerField(default=1)
    starting_experience = models.PositiveSmallIntegerField(default=0)
    race = models.ForeignKey(RacialMaximum, null=True, blank=True, on_delete=models.PROTECT)
    equipment_lists = models.ManyToManyField(EquipmentList, blank=True)
    skill_lists = models.ManyToManyField(SkillList, blank=True)
    spell_list = models.ForeignKey(SpellList, null=True, blank=True, on_delete=models.PROTECT)
    starting_spells = models.PositiveSmallIntegerField(default=0)
    gains_experience = models.BooleanField(default=True)
    is_large = models.BooleanField(default=False, help_text="Rated 20 + experience.")
    required_at_hire = models.JSONField(default=list, blank=True)
    special_rules = models.JSONField(default=list, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    objects = WarriorTypeManager()

    class Meta:
        ordering = ["warband_type", "order"]
        constraints = [
            models.UniqueConstraint(fields=["warband_type", "key"], name="warrior_type_key"),
            models.CheckConstraint(
                condition=Q(kind="henchman") | Q(group_max=1), name="heroes_come_alone"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.warband_type.key if self.warband_type_id else None, self.key)

    natural_key.dependencies = ["warbands.warbandtype"]

    @property
    def is_hero(self) -> bool:
        return self.kind == self.Kind.HERO

    @property
    def count_label(self) -> str:
        if self.max_count is None:
            return "any number"
        if self.min_count == self.max_count:
            return str(self.max_count)
        return f"{self.min_count}-{self.max_count}"

    def as_rule(self) -> rules.WarriorKind:
        return rules.WarriorKind(
            key=self.key,
            name=self.name,
            is_hero=self.is_hero,
            is_leader=self.is_leader,
            cost=self.cost,
            min_count=self.min_count,
            max_count=self.max_count,
            group_max=self.group_max,
        )


# --- Rosters -------------------------------------------------------------------------------


class WarbandQuerySet(VersionedQuerySet):
    def owned_by(self, user) -> WarbandQuerySet:
        return self.filter(owner=user)

    def in_campaign(self, campaign) -> WarbandQuerySet:
        return self.filter(campaign=campaign)

    def playing(self) -> WarbandQuerySet:
        """Warbands that still take part: being mustered or active."""
        return self.filter(status__in=[Warband.Status.DRAFT, Warband.Status.ACTIVE])


class Warband(models.Model):
    """A player's warband in one campaign.

    Its rating is derived from the warriors (``rating``), never stored by hand. ``gold_crowns``
    is the purse while the warband is being mustered; when mustering ends what is left goes into
    its storage containers (the treasury) and the purse stays at zero.
    """

    CAMPAIGN_PATH = "campaign"  # campaign.versions

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
    exploration_extra_dice = models.PositiveSmallIntegerField(
        default=0,
        help_text="The Straggler (4-4): at the next exploration roll one more die and discard one.",
    )
    catacombs_reroll = models.BooleanField(
        default=False,
        help_text="Entrance to the Catacombs (6×5): may re-roll one exploration die, for good.",
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


class WarriorQuerySet(VersionedQuerySet):
    def on_roster(self) -> WarriorQuerySet:
        """Warriors still with the warband (fighting, recovering or held captive)."""
        return self.filter(status__in=Warrior.ON_ROSTER)

    def for_roster_page(self) -> WarriorQuerySet:
        """Everything the roster sheet shows: each warrior's type and, as lists, its items
        (``item_list``), skills (``skill_list``), spells (``spell_list``) and injuries
        (``injury_list``), in a fixed number of queries whatever the roster holds. Lists
        (``Prefetch(to_attr=...)``) rather than related managers: Django builds no queryset
        per warrior for them."""
        roster = self.select_related("warrior_type", "warrior_type__race").with_items()
        return roster.prefetch_related(
            models.Prefetch(
                "skills", WarriorSkill.objects.select_related("skill"), to_attr="skill_list"
            ),
            models.Prefetch(
                "spells", WarriorSpell.objects.select_related("spell"), to_attr="spell_list"
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

    CAMPAIGN_PATH = "warband__campaign"  # campaign.versions

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        CAPTURED = "captured", "Captured"
        DEAD = "dead", "Dead"
        RETIRED = "retired", "Retired"
        DISMISSED = "dismissed", "Dismissed"

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
    def rated(self) -> rules.RatedWarrior:
        return rules.RatedWarrior(
            models=self.group_size, experience=self.experience, large=self.warrior_type.is_large
        )

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
    """One item carried by a warrior (by each model of a henchman group)."""

    CAMPAIGN_PATH = "warrior__warband__campaign"  # campaign.versions

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="items")
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="+")
    price_paid = models.PositiveIntegerField(
        default=0, help_text="Per model; refunded if the purchase is undone while mustering."
    )

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["item__category", "item__name", "pk"]

    def __str__(self) -> str:
        return str(self.item)


class WarriorSkill(models.Model):
    CAMPAIGN_PATH = "warrior__warband__campaign"  # campaign.versions

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="skills")
    skill = models.ForeignKey(Skill, on_delete=models.PROTECT, related_name="+")

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["skill__name"]
        constraints = [
            models.UniqueConstraint(fields=["warrior", "skill"], name="skill_once_per_warrior")
        ]

    def __str__(self) -> str:
        return str(self.skill)


class WarriorSpell(models.Model):
    CAMPAIGN_PATH = "warrior__warband__campaign"  # campaign.versions

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="spells")
    spell = models.ForeignKey(Spell, on_delete=models.PROTECT, related_name="+")
    roll = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The D6 rolled.")

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["spell__d6"]
        constraints = [
            models.UniqueConstraint(fields=["warrior", "spell"], name="spell_once_per_warrior")
        ]

    def __str__(self) -> str:
        return str(self.spell)


class Injury(models.Model):
    """A lasting serious injury written on the roster (leg wound, madness …)."""

    CAMPAIGN_PATH = "warrior__warband__campaign"  # campaign.versions

    warrior = models.ForeignKey(Warrior, on_delete=models.CASCADE, related_name="injuries")
    name = models.CharField(max_length=100)
    effect = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "injuries"

    def __str__(self) -> str:
        return self.name


# --- The treasury (Mayhem in Mordheim storage containers) ----------------------------------


def amount_parts(gold: int, wyrdstone: int, others=()) -> list[str]:
    """The words for an amount of treasure, none for a zero: ``["24 gc", "3 wyrdstone",
    *others]`` (``others``: items' names, say), for the caller to join."""
    parts = (f"{gold} gc" if gold else "", f"{wyrdstone} wyrdstone" if wyrdstone else "", *others)
    return [part for part in parts if part]


def _capacity_constraints() -> list[models.CheckConstraint]:
    """The database refuses what no container of a kind can hold (per-category maxima from the
    catalogue in ``warbands.rules.containers``) and the pouch holding gold and wyrdstone
    together. A cart's smaller open capacity with containers in it is checked by the service."""
    constraints = [
        models.CheckConstraint(
            condition=Q(gold_crowns__gte=0) & Q(wyrdstone__gte=0) & Q(item_count__gte=0),
            name="container_not_negative",
        ),
        models.CheckConstraint(
            condition=~Q(kind="pouch") | Q(gold_crowns=0) | Q(wyrdstone=0),
            name="pouch_gold_or_wyrdstone",
        ),
        models.CheckConstraint(
            condition=~Q(kind="pouch") | Q(holder__isnull=False) | ~Q(status="held"),
            name="pouch_has_a_hero",
        ),
        models.UniqueConstraint(
            fields=["warband"], condition=Q(kind="loose"), name="one_loose_pile_per_warband"
        ),
        models.CheckConstraint(
            condition=Q(status="held") | (Q(gold_crowns=0) & Q(wyrdstone=0) & Q(item_count=0)),
            name="gone_containers_are_empty",
        ),
    ]
    for kind, container in container_rules.CATALOGUE.items():
        capacity = container.capacity
        constraints.append(
            models.CheckConstraint(
                condition=~Q(kind=kind)
                | (
                    Q(gold_crowns__lte=capacity.gold)
                    & Q(wyrdstone__lte=capacity.wyrdstone)
                    & Q(item_count__lte=capacity.items)
                ),
                name=f"{kind}_capacity",
            )
        )
    return constraints


class StorageContainerQuerySet(VersionedQuerySet):
    def held(self) -> StorageContainerQuerySet:
        """Containers a warband has now (not sold or lost), the unstored pile included."""
        return self.filter(status=StorageContainer.Status.HELD)

    def real(self) -> StorageContainerQuerySet:
        """Containers proper that the warband holds: not the pile of unstored treasure."""
        return self.held().exclude(kind=StorageContainer.LOOSE)

    def for_treasury(self) -> StorageContainerQuerySet:
        return self.select_related("holder", "parent").order_by("pk")


class StorageContainer(models.Model):
    """A storage container of a warband (or a carrier: pack animal, cart, coach, warmount).

    ``gold_crowns``, ``wyrdstone`` and ``item_count`` are balances: they only change through
    ``warbands.treasury``, in the same transaction as the ``LedgerEntry`` rows that explain
    them. Each warband also has one ``loose`` pile: treasure that has no container yet (found,
    bought or unpacked) and is lost at the end of the post-battle sequence.
    """

    CAMPAIGN_PATH = "warband__campaign"  # campaign.versions

    LOOSE = "loose"

    class Status(models.TextChoices):
        HELD = "held", "Held"
        SOLD = "sold", "Sold"
        LOST = "lost", "Lost"

    KIND_CHOICES = [
        *((kind, spec.name) for kind, spec in container_rules.CATALOGUE.items()),
        (LOOSE, "Not in a container"),
    ]

    warband = models.ForeignKey(Warband, on_delete=models.PROTECT, related_name="containers")
    kind = models.CharField(max_length=20, choices=KIND_CHOICES)
    label = models.CharField(
        max_length=60,
        blank=True,
        help_text="The player's own name for it (or the name a discovered cart came with).",
    )
    number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Its number among the warband's containers of its kind, shown while it has "
        "no name (treasury.number_alike).",
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="children",
        help_text="The pack animal, cart, coach or warmount carrying it.",
    )
    holder = models.ForeignKey(
        Warrior,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The hero wearing a pouch or riding a warmount.",
    )
    gold_crowns = models.PositiveIntegerField(default=0)
    wyrdstone = models.PositiveIntegerField(default=0)
    item_count = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = StorageContainerQuerySet.as_manager()

    class Meta:
        ordering = ["warband_id", "pk"]
        constraints = _capacity_constraints()

    def __str__(self) -> str:
        # A plain dict: get_kind_display() rebuilds its lookup on every call, and the treasury
        # page names each container in every form's list of targets.
        name = _CONTAINER_NAMES.get(self.kind, self.kind)
        if self.label:
            return f"{name} “{self.label}”"
        if self.number:  # numbered among its kind (treasury.number_alike)
            return f"{name} {self.number}"
        return name

    @property
    def kind_label(self) -> str:
        """``get_kind_display()`` from a plain dict (see ``__str__``)."""
        return _CONTAINER_NAMES.get(self.kind, self.kind)

    @property
    def contents_label(self) -> str:
        """ "24 gc, 3 wyrdstone, 1 item" or "empty": for the owner's own forms only."""
        items = [f"{self.item_count} item{'s' if self.item_count != 1 else ''}"]
        parts = amount_parts(self.gold_crowns, self.wyrdstone, items if self.item_count else ())
        return ", ".join(parts) or "empty"

    @property
    def the(self) -> str:
        """For sentences: "the Treasure Chest", "the unstored treasure"."""
        return "the unstored treasure" if self.kind == self.LOOSE else f"the {self}"

    @property
    def spec(self) -> container_rules.ContainerSpec | None:
        return None if self.kind == self.LOOSE else container_rules.spec(self.kind)

    @property
    def contents(self) -> container_rules.Contents:
        return container_rules.Contents(self.gold_crowns, self.wyrdstone, self.item_count)

    @property
    def is_heavy(self) -> bool:
        return self.kind != self.LOOSE and container_rules.is_heavy(self.kind, self.contents)

    @property
    def is_empty(self) -> bool:
        return not (self.gold_crowns or self.wyrdstone or self.item_count)


_CONTAINER_NAMES = dict(StorageContainer.KIND_CHOICES)


class StoredItem(models.Model):
    """An item in a container: weapons, armour, equipment, or a random fortune discovery
    (``item`` empty, ``name`` says what it is). Counts as one stored item for capacity."""

    CAMPAIGN_PATH = "container__warband__campaign"  # campaign.versions

    container = models.ForeignKey(
        StorageContainer, on_delete=models.PROTECT, related_name="stored_items"
    )
    item = models.ForeignKey(
        Item, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class VesselItem(models.Model):
    """A Dark Artefact or Loyalty Symbol. MiM: they "cannot be placed in storage containers,
    but are considered to have special vessels into which they are stored as carried items";
    only an opulent coach may carry them (inside, whatever is on its roof)."""

    CAMPAIGN_PATH = "warband__campaign"  # campaign.versions

    class Kind(models.TextChoices):
        DARK_ARTEFACT = "dark_artefact", "Dark Artefact"
        LOYALTY_SYMBOL = "loyalty_symbol", "Loyalty Symbol"

    warband = models.ForeignKey(Warband, on_delete=models.PROTECT, related_name="vessel_items")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    name = models.CharField(max_length=100)
    is_lost = models.BooleanField(default=False, help_text="Left behind or lost to the cult.")
    coach = models.ForeignKey(
        StorageContainer,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="vessel_items",
        limit_choices_to={"kind": "opulent_coach"},
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["kind", "name"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.name}"


class LedgerQuerySet(VersionedQuerySet):
    def update(self, **kwargs):
        raise TypeError("Ledger entries are append-only: write a new entry instead.")

    def delete(self):
        raise TypeError("Ledger entries are append-only: write a reversing entry instead.")


class LedgerEntry(models.Model):
    """One change to a warband's treasury, written in the same transaction as the container
    balance it changes. Append-only: the model, its queryset, the admin and a database trigger
    all refuse updates and deletes; a mistake is undone by a reversing entry."""

    CAMPAIGN_PATH = "warband__campaign"  # campaign.versions

    class Kind(models.TextChoices):
        GOLD = "gold", "Gold crowns"
        WYRDSTONE = "wyrdstone", "Wyrdstone"
        ITEM = "item", "Stored item"

    class Reason(models.TextChoices):
        STARTING_TREASURY = "starting_treasury", "Starting treasury"
        INCOME = "income", "Income"
        SALE = "sale", "Sale"
        PURCHASE = "purchase", "Purchase"
        CAPTURE = "capture", "Capture"
        LOSS = "loss", "Loss"
        TRANSFER = "transfer", "Transfer between containers"
        EQUIP = "equip", "Equipped on a warrior"
        UNEQUIP = "unequip", "Stored from a warrior"
        REVERSAL = "reversal", "Reversal"

    warband = models.ForeignKey(Warband, on_delete=models.PROTECT, related_name="ledger")
    container = models.ForeignKey(
        StorageContainer, on_delete=models.PROTECT, related_name="ledger_entries"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.IntegerField()
    item = models.ForeignKey(
        Item, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    item_name = models.CharField(max_length=100, blank=True)
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    battle = models.ForeignKey(
        "battles.Battle", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    step = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The post-battle step (0-10) that made the change."
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reverses = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LedgerQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "ledger entries"
        # The treasury page reads a warband's newest entries first, a page at a time; its
        # filter lists the containers the warband's entries name (ledger_containers: an
        # index-only probe per container instead of reading the warband's whole ledger).
        indexes = [
            models.Index(fields=["warband", "-created_at", "-id"], name="ledger_recent"),
            models.Index(fields=["warband", "container"], name="ledger_containers"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_amount_not_zero"),
            models.CheckConstraint(
                condition=~Q(kind="item") | Q(amount__in=[1, -1]), name="ledger_one_item_a_row"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.get_kind_display()} ({self.get_reason_display()})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("Ledger entries are append-only: write a new entry instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("Ledger entries are append-only: write a reversing entry instead.")

    @property
    def what(self) -> str:
        if self.kind == self.Kind.ITEM:
            return self.item_name
        return "gc" if self.kind == self.Kind.GOLD else "wyrdstone"


class RatingSnapshot(models.Model):
    """The warband's rating at a moment worth charting: end of mustering, each battle."""

    CAMPAIGN_PATH = "warband__campaign"  # campaign.versions

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="ratings")
    rating = models.PositiveIntegerField()
    taken_at = models.DateTimeField()
    battle = models.ForeignKey(
        "battles.Battle", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=100, blank=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["warband_id", "taken_at", "pk"]

    def __str__(self) -> str:
        return f"{self.warband}: {self.rating}"


class HiredSword(models.Model):
    """A hired sword or dramatis persona who fights for the warband (post-battle step 7).

    The lists of hired swords may come later: for now an entry is a name, the hire fee paid
    and the upkeep due after each later battle (core rules, Hired Swords: "you must pay his
    upkeep after every battle, or he leaves"). They are not part of the warband's rating.
    """

    CAMPAIGN_PATH = "warband__campaign"  # campaign.versions

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

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.name
