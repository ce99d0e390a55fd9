"""A warband's public roster as plain data (the JSON export).

Only what every member of the campaign may read on the roster page: never gold, wyrdstone or
the contents of storage containers.
"""

from __future__ import annotations

from typing import Any

from warbands import services
from warbands.models import Warband

EXPORT_FORMAT = "mordheim-campaigns/warband@1"


def warband_as_json(warband: Warband, *, warriors=None) -> dict[str, Any]:
    """``warriors``: its roster already read (``for_roster_page``), when many warbands are
    exported together (``league.accounts.download``) and read in the same queries."""
    warriors = list(services.roster(warband) if warriors is None else warriors)
    return {
        "format": EXPORT_FORMAT,
        "name": warband.name,
        "warband_list": {"key": warband.warband_type.key, "name": warband.warband_type.name},
        "campaign": warband.campaign.name,
        "owner": warband.owner.username,
        "status": warband.status,
        "rating": services.rating(warriors),
        "warriors": [
            {
                "name": w.name,
                "type": {"key": w.warrior_type.key, "name": w.warrior_type.name},
                "kind": "hero" if w.is_hero else "henchman",
                "leader": w.is_leader,
                "models": w.group_size,
                "status": w.status,
                "experience": w.experience,
                "games_to_miss": w.games_to_miss,
                "profile": w.profile.as_dict(),
                "equipment": [owned.item.name for owned in w.item_list],
                # Added by a correction, not through the rules: fetches nothing when sold.
                "equipment_added_by_correction": [
                    owned.item.name for owned in w.item_list if owned.correction_id
                ],
                "skills": [owned.skill.name for owned in w.skill_list],
                "spells": [owned.spell.name for owned in w.spell_list],
                "injuries": [
                    {"name": injury.name, "effect": injury.effect} for injury in w.injury_list
                ],
            }
            for w in warriors
        ],
    }
