"""What the corrections pages read: the warriors a correction may name, the catalogues it may
add from, the requests waiting and the history; and, for the organisers' dashboard and
settings, the warbands whose requests wait for them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Min, Q

from campaign.models import Campaign, Membership
from warbands.models import Correction, Item, Skill, Spell, Warband


def warriors_of(warband: Warband):
    """The warriors a correction may name (those on the roster), with their items, skills,
    spells and injuries, in a fixed number of queries."""
    return warband.warriors.on_roster().for_roster_page()


def skills_for(warband: Warband):
    """The skills of the core lists and of the warband's own lists."""
    own = Q(skill_list__warband_type__isnull=True) | Q(
        skill_list__warband_type_id=warband.warband_type_id
    )
    return Skill.objects.filter(own).select_related("skill_list").order_by("skill_list", "name")


def spells_for(warband: Warband):
    return Spell.objects.select_related("spell_list").order_by("spell_list__name", "d6")


def items_for(warband: Warband):
    return Item.objects.order_by("category", "name")


def history(warband: Warband):
    """The warband's corrections and requests, newest first."""
    return Correction.objects.of_warband(warband)


def pending(warband: Warband) -> list[Correction]:
    """The warband's requests waiting for an organiser, oldest first (one query)."""
    return list(
        Correction.objects.pending()
        .filter(warband=warband)
        .select_related("actor")
        .order_by("created_at", "pk")
    )


@dataclass(frozen=True)
class Waiting:
    """A warband with requests waiting for an organiser who may decide them."""

    campaign_id: int
    warband_id: int
    warband_name: str
    asked: int
    campaign_name: str = ""
    since: datetime.datetime | None = None  # the oldest request's


def waiting_for(user, campaign_ids=None) -> list[Waiting]:
    """The warbands of the open campaigns ``user`` organises (of ``campaign_ids`` only, when
    given) with requests he may approve or refuse: not his own warband's while another
    organiser could, nor any while he plays in the campaign himself
    (``permissions.approves_corrections``). Three queries, whatever the campaigns hold."""
    organised = Membership.objects.active().filter(
        user=user, is_organiser=True, campaign__status=Campaign.Status.OPEN
    )
    if campaign_ids is not None:
        organised = organised.filter(campaign__in=campaign_ids)
    others = set(
        Membership.objects.active()
        .filter(campaign__in=organised.values("campaign"), is_organiser=True)
        .exclude(user=user)
        .values_list("campaign", flat=True)
    )
    rows = (
        Correction.objects.pending()
        .filter(warband__campaign__in=organised.values("campaign"))
        .values(
            "warband",
            "warband__name",
            "warband__owner",
            "warband__campaign",
            "warband__campaign__name",
        )
        .annotate(asked=Count("pk"), since=Min("created_at"))
        .order_by("warband__name", "warband")
    )
    playing = set(
        Warband.objects.playing()
        .filter(owner=user, campaign__in=organised.values("campaign"))
        .values_list("campaign", flat=True)
    )
    return [
        Waiting(
            row["warband__campaign"],
            row["warband"],
            row["warband__name"],
            row["asked"],
            row["warband__campaign__name"],
            row["since"],
        )
        for row in rows
        if row["warband__campaign"] not in others
        or (row["warband__owner"] != user.pk and row["warband__campaign"] not in playing)
    ]
