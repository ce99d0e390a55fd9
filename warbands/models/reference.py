"""Reference data: the warband lists of the rulebook and the items, skills and spells they name.

``WarbandType`` and everything hanging off it (warrior types, equipment lists), ``Item``,
``SkillList``, ``SpellList`` and ``RacialMaximum`` are loaded from ``warbands/data/`` by a data
migration and can be extended in the admin for house rules. They are found by natural keys, so
that a campaign's backup restores into a database whose reference rows have other ids.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from warbands import rules
from warbands.models.lists import WarbandTypeQuerySet
from warbands.rules import leader, restrictions, trading

SUMMARY_HELP = "What it does in play, in one or two sentences of our own (shown on rosters)."


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
    summary = models.TextField(blank=True, help_text=SUMMARY_HELP)
    optional_rule = models.CharField(
        max_length=60, blank=True, help_text="Campaign option the skill needs (Quartermaster)."
    )
    effect = models.CharField(max_length=40, blank=True, help_text="The rule the app applies.")

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
    summary = models.TextField(blank=True, help_text=SUMMARY_HELP)

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
    summary = models.TextField(blank=True, help_text=SUMMARY_HELP)
    sells_for = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="What it sells for, when not half its price (treasure found exploring).",
    )
    allowed_warbands = models.JSONField(
        default=list,
        blank=True,
        help_text="Keys of the warband lists that may have it; empty: all.",
    )
    refused_warbands = models.JSONField(
        default=list, blank=True, help_text="Keys of the warband lists that may not have it."
    )
    restriction = models.CharField(
        max_length=120, blank=True, help_text="The restriction in a few words: 'Skaven only'."
    )
    for_sale = models.BooleanField(
        default=True,
        help_text="Sold by the traders. Off for what is only found or comes with its owner "
        "(magical artefacts, treasure, a dramatis persona's own gear): never bought.",
    )
    rarity_for = models.JSONField(
        default=dict,
        blank=True,
        help_text="Availability for some warband lists, where the chart's note changes it: "
        '{"sisters_of_sigmar": null} (Common), {"skaven": 7} (Rare 7).',
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

    def refusal(self, warband_type_key: str) -> str | None:
        """Why a warband of this list may not have the item, or ``None`` (``may_have``)."""
        return self.as_ware().refusal(warband_type_key)

    def as_ware(self) -> trading.Ware:
        """The item as the trading rules see it (``warbands.rules.trading``)."""
        allowed, refused = tuple(self.allowed_warbands or ()), tuple(self.refused_warbands or ())
        return trading.Ware(
            key=self.key,
            name=self.name,
            category=self.category,
            price=self.price,
            price_dice=self.price_dice,
            rarity=self.rarity,
            for_sale=self.for_sale,
            restriction=restrictions.Restriction(allowed, refused, self.restriction),
            rarity_for=dict(self.rarity_for or {}),
        )


def _types(value: str | list[str]) -> str | tuple[str, ...]:
    return value if isinstance(value, str) else tuple(value)  # a ratio's types counted together


class WarbandType(models.Model):
    """A warband list of the rulebook: Reikland Mercenaries, Skaven of Clan Eshin …"""

    class Grade(models.TextChoices):
        OFFICIAL = "1a", "Grade 1a"
        TESTED = "1b", "Grade 1b"
        EXPERIMENTAL = "1c", "Grade 1c"

    key = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)
    family = models.CharField(max_length=100)
    grade = models.CharField(
        max_length=2,
        choices=Grade.choices,
        help_text="The Mordheim community's grading of the list: official (1a), tested fan "
        "(1b) or experimental (1c).",
    )
    source = models.TextField(blank=True)
    starting_gold = models.PositiveIntegerField(default=500)
    min_warriors = models.PositiveSmallIntegerField(default=3)
    max_warriors = models.PositiveSmallIntegerField()
    max_heroes = models.PositiveSmallIntegerField(default=6)
    rare_item_modifier = models.SmallIntegerField(default=0)
    special_rules = models.JSONField(default=list, blank=True)
    roster_rules = models.JSONField(
        default=dict,
        blank=True,
        help_text="The list's own recruiting rules: extra_warriors, needs, ratios "
        "(see warbands/data/README.md).",
    )

    objects = KeyedManager.from_queryset(WarbandTypeQuerySet)()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)

    @property
    def limits(self) -> rules.WarbandLimits:
        roster_rules = self.roster_rules or {}
        return rules.WarbandLimits(
            max_warriors=self.max_warriors,
            min_warriors=self.min_warriors,
            max_heroes=self.max_heroes,
            extra_warriors=tuple(
                (row["type"], row["extra"]) for row in roster_rules.get("extra_warriors", [])
            ),
            needs=tuple(
                (row["type"], tuple(row["any_of"]), row["message"])
                for row in roster_rules.get("needs", [])
            ),
            ratios=tuple(
                rules.Ratio(_types(row["type"]), row["at_most"], tuple(row["per"]), row["label"])
                for row in roster_rules.get("ratios", [])
            ),
            leader_from=leader.leader_from(roster_rules),
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

    ``warband_type`` is empty for hired swords (each one's ``HiredSwordType`` holds his terms).
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
    rating_value = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Hired swords: rated this + experience instead of 5 (or 20 when large).",
    )
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
    def move_dice(self) -> str:
        """A Move rolled in play ("2D6": Cave Squigs), shown for the profile's M, which holds
        0; empty for a Move that is a number. From the type's ``move_dice`` rule."""
        found = (r for r in self.special_rules or [] if r.get("effect") == "move_dice")
        return next((r["dice"] for r in found), "")

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
