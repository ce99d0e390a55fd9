"""Warband lists (reference data) and the warbands players build from them, in five modules:

- ``reference``: the warband lists of the rulebook (warband and warrior types, equipment
  lists), items, skills, spells and racial maximums, with ``lists``, how a player browses
  the warband lists;
- ``roster``: the players' warbands and warriors, with their equipment, skills, spells,
  injuries, rating snapshots and hired swords;
- ``containers``: the secret treasury's storage containers, stored items, vessel items and
  the append-only ledger;
- ``corrections``: the record of changes made by hand, outside the rules;
- ``house_rules``: what a campaign allows of the lists and hired swords, its starting gold.

Every model is imported here: Django's app registry finds a ``models`` package's models when
its ``__init__`` imports them, and callers keep importing them from ``warbands.models``.
"""

from warbands.models.containers import (
    LedgerEntry,
    LedgerQuerySet,
    StorageContainer,
    StorageContainerQuerySet,
    StoredItem,
    VesselItem,
    amount_parts,
)
from warbands.models.corrections import Correction, CorrectionQuerySet
from warbands.models.hired_swords import HiredSwordType
from warbands.models.house_rules import HouseRules
from warbands.models.lists import WarbandTypeQuerySet
from warbands.models.reference import (
    EquipmentList,
    EquipmentListEntry,
    Item,
    KeyedManager,
    KeyInListManager,
    ProfileFields,
    RacialMaximum,
    Skill,
    SkillList,
    SkillManager,
    Spell,
    SpellList,
    SpellManager,
    WarbandType,
    WarriorType,
    WarriorTypeManager,
)
from warbands.models.roster import (
    RATING_BASE,
    HiredSword,
    Injury,
    RatingSnapshot,
    Warband,
    WarbandQuerySet,
    Warrior,
    WarriorItem,
    WarriorQuerySet,
    WarriorSkill,
    WarriorSpell,
)

__all__ = [
    "RATING_BASE",
    "Correction",
    "CorrectionQuerySet",
    "EquipmentList",
    "EquipmentListEntry",
    "HiredSword",
    "HiredSwordType",
    "HouseRules",
    "Injury",
    "Item",
    "KeyInListManager",
    "KeyedManager",
    "LedgerEntry",
    "LedgerQuerySet",
    "ProfileFields",
    "RacialMaximum",
    "RatingSnapshot",
    "Skill",
    "SkillList",
    "SkillManager",
    "Spell",
    "SpellList",
    "SpellManager",
    "StorageContainer",
    "StorageContainerQuerySet",
    "StoredItem",
    "VesselItem",
    "Warband",
    "WarbandQuerySet",
    "WarbandType",
    "WarbandTypeQuerySet",
    "Warrior",
    "WarriorItem",
    "WarriorQuerySet",
    "WarriorSkill",
    "WarriorSpell",
    "WarriorType",
    "WarriorTypeManager",
    "amount_parts",
]
