"""What a campaign's house rules allow: the one place every path that creates a warband or
hires a hired sword asks (``warbands.services.create_warband``, ``warbands.hired_swords``).

Each function takes the campaign's ``HouseRules`` row when the caller has read it already
(``rules_of``), so a page that asks about fifty lists reads the row once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from campaign.models import Campaign
from core.words import a
from warbands.models import HiredSwordType, HouseRules, WarbandType
from warbands.models.house_rules import every_grade, every_sword_grade
from warbands.rules import house_rules as rules
from warbands.rules.house_rules import Allowance

UNREAD = object()  # the caller has not read the campaign's house rules


def rules_of(campaign: Campaign | int) -> HouseRules | None:
    """The campaign's house rules, or ``None`` for a campaign that has none (it allows
    everything, with each list's own starting gold)."""
    return HouseRules.objects.filter(campaign=campaign).first()


def _read(campaign: Campaign, house) -> HouseRules | None:
    return rules_of(campaign) if house is UNREAD else house


def lists_allowed(house: HouseRules | None) -> Allowance:
    return house.lists if house is not None else Allowance(everything=True)


def swords_allowed(house: HouseRules | None) -> Allowance:
    return house.swords if house is not None else Allowance(everything=True)


def _refusal(allowance: Allowance, names: dict, row, *, name: str, kind: str, every) -> str:
    return rules.refusal(
        allowance, key=row.key, grade=row.grade, name=name, kind=kind, names=names, every=every
    )


def list_refusal(campaign: Campaign | int, warband_type: WarbandType, house=UNREAD) -> str | None:
    """Why the campaign may not field ``warband_type`` (``None`` when it may)."""
    return list_refusals(campaign, [warband_type], house).get(warband_type.pk)


def list_refusals(
    campaign: Campaign | int, warband_types: Iterable[WarbandType], house=UNREAD
) -> dict[int, str]:
    """Why the campaign may not field each of ``warband_types`` that it refuses, by pk (the
    names the refusal cites are read once: ``HouseRules.list_names``)."""
    house = _read(campaign, house)
    allowance = lists_allowed(house)
    return {
        row.pk: _refusal(
            allowance,
            house.list_names,
            row,
            name=f"the {row.name}",
            kind="list",
            every=every_grade(),
        )
        for row in warband_types
        if not allowance.allows(row.key, row.grade)
    }


def sword_refusal(campaign: Campaign | int, sword: HiredSwordType, house=UNREAD) -> str | None:
    """Why the campaign's warbands may not hire ``sword`` (``None`` when they may); a page that
    asks of every sword passes the row it read once, whose names are read once too."""
    house = _read(campaign, house)
    allowance = swords_allowed(house)
    if allowance.allows(sword.key, sword.grade):
        return None
    return _refusal(allowance, house.sword_names, sword, name=a(sword.name),
                    kind="hired sword", every=every_sword_grade())  # fmt: skip


def starting_gold(campaign: Campaign | int, warband_type: WarbandType, house=UNREAD) -> int:
    """The gold a new warband of ``warband_type`` starts with in ``campaign``."""
    house = _read(campaign, house)
    if house is not None and house.starting_gold:
        return house.starting_gold
    return warband_type.starting_gold


@dataclass(frozen=True)
class Summary:
    """The house rules in words, for the pages that show them."""

    lists: str
    swords: str
    starting_gold: str
    standard: bool
    sawbones: bool = False


def summary(house: HouseRules | None) -> Summary:
    """What ``house`` allows, in words (two queries at most: the names of named entries)."""
    if house is None:
        return Summary("every list", "every hired sword", "each list's own (500 gc for most)", True)
    gold = (
        f"{house.starting_gold} gc for every list"
        if house.starting_gold
        else "each list's own (500 gc for most)"
    )
    return Summary(
        rules.allowance_text(house.lists, kind="list", names=house.list_names, every=every_grade()),
        rules.allowance_text(
            house.swords, kind="hired sword", names=house.sword_names, every=every_sword_grade()
        ),
        gold,
        False,
        house.sawbones,
    )


def plays_sawbones(campaign: Campaign | int, house=UNREAD) -> bool:
    """Whether the campaign plays the optional Sawbones rule (``battles.rules.sawbones``)."""
    house = _read(campaign, house)
    return house is not None and house.sawbones
