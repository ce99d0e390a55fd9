"""A campaign's house rules: the warband lists and hired swords it allows, its starting gold
and the campaign chapter's optional rules it plays (``warbands.rules.house_rules`` says how
they are read; ``warbands.house_rules`` sets them and answers what they allow)."""

from __future__ import annotations

from functools import cached_property

from django.contrib.postgres.fields import ArrayField
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from campaign.models import Campaign
from warbands.models.hired_swords import HiredSwordType
from warbands.models.reference import WarbandType
from warbands.rules.house_rules import Allowance

GRADES = [("1a", "Grade 1a"), ("1b", "Grade 1b"), ("1c", "Grade 1c")]
#: Hired swords and dramatis personae are graded as their chapters grade them: the rulebook's
#: own first, and Grade 2a, which only dramatis personae have.
SWORD_GRADES = [("core", "Rulebook"), *GRADES, ("2a", "Grade 2a")]
MOST_STARTING_GOLD = 5000


def every_grade() -> list[str]:
    return [grade for grade, _ in GRADES]


def every_sword_grade() -> list[str]:
    return [grade for grade, _ in SWORD_GRADES]


class HouseRules(models.Model):
    """One campaign's choices. Lists and hired swords are named by their keys (the reference
    data's natural keys), so a backup restores them into any database with the same lists.
    A campaign with no row has no house rules: everything is allowed."""

    CAMPAIGN_PATH = "campaign"  # league.backup

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="house_rules")
    list_grades = ArrayField(
        models.CharField(max_length=2, choices=GRADES), default=every_grade, blank=True
    )
    list_keys = ArrayField(models.SlugField(max_length=60), default=list, blank=True)
    sword_grades = ArrayField(
        models.CharField(max_length=4, choices=SWORD_GRADES), default=every_sword_grade, blank=True
    )
    sword_keys = ArrayField(models.SlugField(max_length=60), default=list, blank=True)
    starting_gold = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MOST_STARTING_GOLD)],
        help_text="Blank: each list's own starting gold.",
    )
    sawbones = models.BooleanField(
        "Sawbones",
        default=False,
        help_text="Optional rule (Town Cryer 8): after a battle a hero may see a physician "
        "about one lasting injury instead of looking for a rare item.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "house rules"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(starting_gold__isnull=True) | models.Q(starting_gold__gte=1),
                name="house_rules_starting_gold_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"House rules of {self.campaign}"

    @property
    def lists(self) -> Allowance:
        return Allowance.of(self.list_grades, self.list_keys)

    @property
    def swords(self) -> Allowance:
        return Allowance.of(self.sword_grades, self.sword_keys)

    @cached_property
    def list_names(self) -> dict[str, str]:
        """The names of the lists allowed one by one, read once for every refusal and summary
        that cites them."""
        return dict(WarbandType.objects.filter(key__in=self.list_keys).values_list("key", "name"))

    @cached_property
    def sword_names(self) -> dict[str, str]:
        """The names of the hired swords and personae allowed one by one, read once."""
        named = HiredSwordType.objects.filter(key__in=self.sword_keys)
        return dict(named.values_list("key", "name"))
