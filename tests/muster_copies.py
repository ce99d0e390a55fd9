"""The rows of a muster, replayed: ``mustered_warband`` musters its first warband of a process
through the real services and keeps what they wrote (``Recipe``); every later one is a new
warband of the factory given those same rows, written in a few statements instead of the
services' two hundred. What the services decide does not depend on the warband's name, owner
or campaign, so the rows are the same but for those, the primary keys and the moments.

``tests/test_muster_copies.py`` musters through the services and by the recipe side by side
and compares every row, so a change to the services that changes a muster fails there first.
A test about mustering itself calls the services (``tests.factories.hire`` and ``finish``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from campaign import cache
from campaign.models import Campaign, CampaignEvent
from warbands.models import (
    LedgerEntry,
    RatingSnapshot,
    StorageContainer,
    Warband,
    Warrior,
    WarriorItem,
)

#: What a muster writes besides the warband, in the order the rows may point to each other.
WRITTEN: tuple[type[models.Model], ...] = (
    Warrior,
    StorageContainer,
    WarriorItem,
    LedgerEntry,
    RatingSnapshot,
    CampaignEvent,
)
#: The moments a row is written at: each copy takes its own (now).
MOMENTS = ("created_at", "taken_at")
#: The warband's own fields the muster leaves as the factory made them.
FACTORY_MADE = ("id", "version", "campaign_id", "owner_id", "name", "created_at")
#: What tells one campaign from another without changing what a muster in it writes.
NOT_RULES = ("id", "version", "name", "description", "start_date", "created_at", "join_code")


def rules_of(campaign: Campaign) -> tuple:
    """The campaign's settings (house rules and all) that a muster in it could depend on: a
    recipe is kept for each such set."""
    return tuple(
        (f.attname, getattr(campaign, f.attname))
        for f in Campaign._meta.concrete_fields
        if f.attname not in NOT_RULES
    )


def values_of(row: models.Model) -> dict:
    """The row's stored values, by column (``attname``: a pointer's key, not its row)."""
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


def rows_of(warband: Warband) -> dict[type[models.Model], list[dict]]:
    """Every row the muster wrote for ``warband``, model by model, in the order written."""
    mine = {
        Warrior: {"warband": warband},
        StorageContainer: {"warband": warband},
        WarriorItem: {"warrior__warband": warband},
        LedgerEntry: {"warband": warband},
        RatingSnapshot: {"warband": warband},
        CampaignEvent: {"warband": warband},
    }
    return {
        model: [values_of(row) for row in model._base_manager.filter(**mine[model]).order_by("pk")]
        for model in WRITTEN
    }


@dataclass
class Recipe:
    """A muster as the services wrote it, for the warband ``source``."""

    source: dict
    rows: dict[type[models.Model], list[dict]]

    @classmethod
    def of(cls, warband: Warband) -> Recipe:
        warband.refresh_from_db()
        return cls(values_of(warband), rows_of(warband))

    def replay(self, warband: Warband) -> Warband:
        """Give ``warband``, fresh from the factory (its free chest made), the same rows."""
        new = {
            (Warband, self.source["id"]): warband.pk,
            (get_user_model(), self.source["owner_id"]): warband.owner_id,
            (Campaign, self.source["campaign_id"]): warband.campaign_id,
        }
        free_chest = self.rows[StorageContainer][0]  # the factory's, made before any other
        new[(StorageContainer, free_chest["id"])] = (
            StorageContainer.objects.filter(warband=warband).order_by("pk").first().pk
        )
        for model in WRITTEN:
            made, copies = [], []
            for row in self.rows[model]:
                values = self._moved(model, row, new, warband)
                if (model, row["id"]) in new:  # the free chest: filled, not made again
                    model._base_manager.filter(pk=new[(model, row["id"])]).update(**values)
                else:
                    made.append(row["id"])
                    copies.append(model(**values))
            for old, copy in zip(made, model._base_manager.bulk_create(copies), strict=True):
                new[(model, old)] = copy.pk
        changes = {k: v for k, v in self.source.items() if k not in FACTORY_MADE}
        Warband.objects.filter(pk=warband.pk).update(**changes)
        cache.changed(campaign=warband.campaign_id, warband=warband)
        warband.refresh_from_db()
        return warband

    def _moved(self, model, row: dict, new: dict, warband: Warband) -> dict:
        """The row's values for the new warband: what pointed to a row of the muster points
        to its copy; the old warband's name in a text is the new one's."""
        values = {}
        for field in model._meta.concrete_fields:
            value = row[field.attname]
            if field.primary_key or getattr(field, "auto_now_add", False):
                continue
            if field.name in MOMENTS:
                value = timezone.now()
            elif field.is_relation and value is not None:
                target = field.related_model
                assert target is not model or (target, value) in new, (
                    f"{model.__name__}.{field.name} points to a row written in the same batch"
                )
                value = new.get((target, value), value)
            elif isinstance(value, str) and self.source["name"] in value:
                value = value.replace(self.source["name"], warband.name)
            values[field.attname] = value
        return values
