"""The hired-sword catalogue: each hired sword's terms (``warbands/data/hired_swords.json``,
loaded by ``warbands.reference.load_hired_swords``)."""

from __future__ import annotations

from django.db import models

from warbands.models.reference import KeyedManager, WarriorType
from warbands.rules import hired_swords as rules_hired


class HiredSwordType(models.Model):
    """A hired sword of the catalogue (``warbands/data/hired_swords.json``), or a dramatis
    persona (``dramatis_personae.json``, ``kind``): his terms. A persona is hired as a hired
    sword is (the same fee, upkeep, rating and roster), but only after a search
    (``warbands.dramatis_personae``), never at the muster, one of him in a whole campaign.

    His profile, skill lists, race and rating value live on ``warrior_type`` (a warrior type of
    no warband list), so that once hired he is a ``Warrior`` like any hero: experience,
    advances, injuries and the roster work for him unchanged.
    """

    class Kind(models.TextChoices):
        HIRED_SWORD = "hired_sword", "Hired sword"
        DRAMATIS_PERSONA = "dramatis_persona", "Dramatis persona"

    key = models.SlugField(max_length=60, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.HIRED_SWORD)
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
    # A dramatis persona's own: his skills by name, his other hiring terms (text), whether he
    # stays for one battle only, whether two warbands of a campaign may each have him (Luthor
    # Wolfenbaum: "I am Everywhere"), and why no warband hires him through the app at all.
    skills = models.JSONField(default=list, blank=True)
    hire_terms = models.JSONField(default=list, blank=True)
    one_battle = models.BooleanField(
        default=False, help_text="Leaves after the battle; sought again only after one without him."
    )
    everywhere = models.BooleanField(
        default=False, help_text="Several warbands of a campaign may have him at once."
    )
    hire_refused = models.CharField(max_length=300, blank=True)

    objects = KeyedManager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def natural_key(self):
        return (self.key,)

    @property
    def is_persona(self) -> bool:
        return self.kind == self.Kind.DRAMATIS_PERSONA

    @property
    def hired_by_label(self) -> str:
        """Who may hire him, in a line (the guide's catalogue)."""
        if self.hire_refused:
            return "not hired through the app"
        hired_by = self.hired_by or {}
        parts = []
        if hired_by.get("only"):
            parts.append("only " + ", ".join(hired_by["only"]))
        if hired_by.get("only_lists"):
            parts.append("only the lists " + ", ".join(hired_by["only_lists"]))
        if hired_by.get("except"):
            parts.append("not " + ", ".join(hired_by["except"]))
        if hired_by.get("except_lists"):
            parts.append("not the lists " + ", ".join(hired_by["except_lists"]))
        return "; ".join(parts) or "any warband"

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
