"""Setting a campaign's house rules. Takes cleaned values (``forms.HouseRulesForm``).

The campaign's row is locked first, as ``warbands.services.create_warband`` locks it before
it reads what the rules allow: a player who starts mustering and an organiser who changes the
rules apply in some order, so a warband is never created under rules that change as it is."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db import transaction

from campaign import cache
from campaign.models import Campaign, CampaignEvent
from campaign.services import record_event
from core.errors import RuleViolation
from warbands.house_rules import permissions
from warbands.models import HiredSwordType, HouseRules, WarbandType
from warbands.models.house_rules import MOST_STARTING_GOLD, every_grade, every_sword_grade


def _known(keys: Iterable[str], model, what: str) -> list[str]:
    keys = sorted(set(keys))
    found = set(model.objects.filter(key__in=keys).values_list("key", flat=True))
    unknown = [key for key in keys if key not in found]
    if unknown:
        raise RuleViolation(f"No such {what}: {', '.join(unknown)}.")
    return keys


@transaction.atomic
def set_house_rules(
    campaign: Campaign,
    *,
    actor,
    list_grades: Iterable[str],
    list_keys: Iterable[str],
    sword_grades: Iterable[str],
    sword_keys: Iterable[str],
    starting_gold: int | None,
    sawbones: bool = False,
) -> HouseRules:
    """Write the campaign's house rules, while no warband exists in it."""
    locked = Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
    if not permissions.can_change(actor, locked):
        raise PermissionDenied("Only the campaign's organisers may change its house rules.")
    reason = permissions.fixed_reason(locked, permissions.first_warband(locked))
    if reason:
        raise RuleViolation(reason)
    list_grades = sorted(set(list_grades) & set(every_grade()))
    sword_grades = sorted(set(sword_grades) & set(every_sword_grade()))
    list_keys = _known(list_keys, WarbandType, "warband list")
    sword_keys = _known(sword_keys, HiredSwordType, "hired sword")
    if not list_grades and not list_keys:
        raise RuleViolation("Allow at least one warband list, or nobody can muster.")
    if starting_gold is not None and not 1 <= starting_gold <= MOST_STARTING_GOLD:
        raise RuleViolation(f"Starting gold runs from 1 to {MOST_STARTING_GOLD} gc.")
    house, _ = HouseRules.objects.update_or_create(
        campaign=locked,
        defaults={
            "list_grades": list_grades,
            "list_keys": list_keys,
            "sword_grades": sword_grades,
            "sword_keys": sword_keys,
            "starting_gold": starting_gold,
            "sawbones": bool(sawbones),
        },
    )
    record_event(locked, CampaignEvent.Kind.CAMPAIGN, f"{actor.username} changed the house rules.")
    cache.changed(campaign=locked, throughout=True)  # the pages that show them
    return house
