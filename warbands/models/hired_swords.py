"""The hired-sword catalogue: each hired sword's terms (``warbands/data/hired_swords.json``,
loaded by ``warbands.reference.load_hired_swords``)."""

from __future__ import annotations

from django.db import models

from warbands.models.reference import KeyedManager, WarriorType
from warbands.rules import hired_swords as rules_hired


class HiredSwordType(models.Model):
    """A hired sword of the catalogue (``warbands/data/hired_swords.json``): his terms.

    His profile, skill lists, race and rating value live on ``warrior_type`` (a warrior type of
    no warband list), so that once hired he is a ``Warrior`` like any hero: experience,
    advances, injuries and the roster work for him unchanged.
    """

    key = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)
    warrior_type = models.OneToOneField(
        WarriorType, on_delete=models.PROTECT, related_name="hired_sword"
    )
    grade = models.CharField(max_length=10, blank=True)
    hire_fee = models.PositiveIntegerField()
    upkeep = models.PositiveIntegerField()
    hired_by = models.JSONField(
        default=dict, blank=True, help_text='Families: {"only": [...]} or {"except": [...]}.'
    )
    upkeep_with_race = models.JSONField(
        null=True, blank=True, help_text='A dearer upkeep: {"race": "dwarf", "upkeep": 40}.'
    )
    never_with = models.JSONField(
        default=list, blank=True, help_text="Keys of hired swords he will not serve beside."
    )
    equipment = models.JSONField(default=list, blank=True)
    special_rules = models.JSONField(default=list, blank=True)

    objects = KeyedManager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)

    @property
    def rating(self) -> int:
        return self.warrior_type.rating_value or 0

    def as_terms(self) -> rules_hired.HiredSwordTerms:
        dearer = self.upkeep_with_race or None
        return rules_hired.HiredSwordTerms(
            key=self.key,
            name=self.name,
            hire_fee=self.hire_fee,
            upkeep=self.upkeep,
            rating=self.rating,
            race=self.warrior_type.race.key if self.warrior_type.race_id else "",
            only=tuple((self.hired_by or {}).get("only", ())),
            excluded=tuple((self.hired_by or {}).get("except", ())),
            only_lists=tuple((self.hired_by or {}).get("only_lists", ())),
            excluded_lists=tuple((self.hired_by or {}).get("except_lists", ())),
            upkeep_with_race=(dearer["race"], dearer["upkeep"]) if dearer else None,
            never_with=tuple(self.never_with or ()),
        )
