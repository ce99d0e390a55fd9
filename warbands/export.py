"""A warband's public roster as plain data: the warband file, version 1 (docs/warband-json.md).

Only what every member of the campaign may read on the roster page: never gold, wyrdstone or
the contents of storage containers. Reference data is named by its natural keys (a list's,
a warrior type's, an item's; a skill or spell by its list's key and its own), so a file
exported here imports into any database with the same reference data
(``warbands.transfer.reading``). The names ride along for people reading the file; import
reads only the keys.
"""

from __future__ import annotations

from typing import Any

from warbands import services
from warbands.models import Warband

FORMAT = "mordheim-campaigns/warband"
VERSION = 1


def _type(warrior) -> dict[str, Any]:
    kind = warrior.warrior_type
    return {
        "list": kind.warband_type.key if kind.warband_type_id else None,
        "key": kind.key,
        "name": kind.name,
    }


def warrior_as_json(w) -> dict[str, Any]:
    """One warrior of ``services.roster`` (his lists read with him)."""
    return {
        "name": w.name,
        "type": _type(w),
        "kind": "hero" if w.is_hero else "henchman",
        "leader": w.is_leader,
        "models": w.group_size,
        "status": w.status,
        "experience": w.experience,
        "games_to_miss": w.games_to_miss,
        "profile": w.profile.as_dict(),
        "maximum_bonuses": dict(w.maximum_bonuses or {}),
        "hired_sword": w.hired_sword.key if w.hired_sword_id else None,
        "items": [
            {
                "key": owned.item.key,
                "name": owned.item.name,
                "by_correction": bool(owned.correction_id),
            }
            for owned in w.item_list
        ],
        "skills": [
            {"list": o.skill.skill_list.key, "key": o.skill.key, "name": o.skill.name}
            for o in w.skill_list
        ],
        "spells": [
            {"list": o.spell.spell_list.key, "key": o.spell.key, "name": o.spell.name}
            for o in w.spell_list
        ],
        "injuries": [{"name": injury.name, "effect": injury.effect} for injury in w.injury_list],
    }


def warband_as_json(warband: Warband, *, warriors=None) -> dict[str, Any]:
    """``warriors``: its roster already read (``for_roster_page``), when many warbands are
    exported together (``league.accounts.download``) and read in the same queries, their
    hired swords prefetched with them (``prefetch_related("hired_swords")``)."""
    warriors = list(services.roster(warband) if warriors is None else warriors)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": warband.name,
        "warband_list": {"key": warband.warband_type.key, "name": warband.warband_type.name},
        "exported_from": {
            "campaign": warband.campaign.name,
            "owner": warband.owner.username,
            "status": warband.status,
            "rating": services.rating(warriors),
        },
        "warriors": [warrior_as_json(w) for w in warriors],
        "hired_swords": [
            {
                "name": sword.name,
                "kind": sword.kind,
                "hire_fee": sword.hire_fee,
                "upkeep": sword.upkeep,
                "notes": sword.notes,
            }
            for sword in warband.hired_swords.all()
            if sword.status == sword.Status.ACTIVE
        ],
    }
