"""A warrior's equipment lists as the purchase rules read them: the entries of his type's
lists (at their list price), the warrior as a buyer, and what he may buy while the warband is
mustered (``warbands.rules.trading`` decides; ``warbands.services.buy_item`` buys). Reads
only."""

from __future__ import annotations

from django.db.models import F

from core.errors import RuleViolation
from warbands import rules
from warbands.models import EquipmentListEntry, Warrior, WarriorType
from warbands.rules import trading


def list_entries_for(warrior_type: WarriorType):
    """The items a warrior type may buy, at list price."""
    return (
        EquipmentListEntry.objects.filter(equipment_list__warriortype=warrior_type)
        .select_related("item")
        .order_by("item__category", "price", "item__name")
    )


def list_entries_by_type(type_ids) -> dict[int, list[EquipmentListEntry]]:
    """``list_entries_for`` for several warrior types in one query. An item on two of a
    type's lists is offered once, at the lower price."""
    by_type: dict[int, dict[int, EquipmentListEntry]] = {}
    entries = (
        EquipmentListEntry.objects.filter(equipment_list__warriortype__in=type_ids)
        .annotate(type_id=F("equipment_list__warriortype"))
        .select_related("item")
        .order_by("item__category", "price", "item__name")
    )
    for entry in entries:
        offered = by_type.setdefault(entry.type_id, {})
        if entry.item_id not in offered:
            offered[entry.item_id] = entry
    return {type_id: list(offered.values()) for type_id, offered in by_type.items()}


def buyer_of(
    warrior: Warrior,
    *,
    models: int | None = None,
    founding: bool | None = None,
    being_recruited: bool | None = None,
) -> rules.Buyer:
    """The warrior as the purchase rules see him. ``founding`` (default: his warband is being
    mustered) and ``being_recruited`` (default: ``founding``) may be given to spare a query."""
    if founding is None:
        founding = warrior.warband.is_draft
    owned = [owned.item for owned in warrior.carried()]
    return rules.Buyer(
        name=warrior.name,
        is_hero=warrior.is_hero,
        models=warrior.group_size if models is None else models,
        owned_item_keys=tuple(item.key for item in owned),
        owned_categories=tuple(item.category for item in owned),
        being_recruited=founding if being_recruited is None else being_recruited,
        founding=founding,
    )


def equipment_choices(warrior: Warrior, entries) -> list[tuple[EquipmentListEntry, int]]:
    """The items this warrior may buy while mustering (from his type's ``entries``,
    ``trading.list_terms``), with the price for the whole group. Uses the warrior's prefetched
    items."""
    buyer = buyer_of(warrior, founding=True)
    key = warrior.warband.warband_type.key
    choices = []
    for entry in entries:
        try:
            offer = trading.list_terms(entry.as_rule(), entry.item.as_ware(), buyer, key)
        except RuleViolation:
            continue
        choices.append((entry, offer.price * warrior.group_size))
    return choices
