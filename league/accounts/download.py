"""All of one's own data as one JSON document: the account, its memberships, each of its
warbands with its roster and treasury, the battles they fought and the choice of e-mails.

The download is of one's OWN data, not of what one may see: it reads only the warbands the
user owns, and puts a treasury in only where ``warbands.permissions.owns_treasury`` says it is
his. An organiser of a campaign whose organisers see secrets gets no other warband's treasury
here; an opponent's ledger lines, and what a container captured from him holds now, are the
opponent's. Of the battles it gives the public facts every member reads on their pages.

A fixed number of queries, whatever the number of warbands, battles and ledger lines: each
kind of row is read once for all the warbands (a test keeps it so).
"""

from __future__ import annotations

from typing import Any

from battles.models import Participant
from campaign.models import Membership
from core import notices
from warbands import permissions
from warbands.export import warband_as_json
from warbands.models import LedgerEntry, StorageContainer, VesselItem, Warband, Warrior
from warbands.treasury.queries import STORED_LIST

FORMAT = "mordheim-campaigns/account@1"


def account_data(user) -> dict[str, Any]:
    warbands = list(
        Warband.objects.filter(owner=user)
        .select_related("campaign", "owner", "warband_type")
        .prefetch_related("hired_swords")
        .order_by("campaign__name", "name", "pk")
    )
    rosters: dict[int, list[Warrior]] = {w.pk: [] for w in warbands}
    for warrior in Warrior.objects.filter(warband__in=warbands).on_roster().for_roster_page():
        rosters[warrior.warband_id].append(warrior)
    own = [w for w in warbands if permissions.owns_treasury(user, w)]
    treasuries = _treasuries(own)
    return {
        "format": FORMAT,
        "profile": {
            "username": user.username,
            "email": user.email,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
        },
        "notifications": {"e-mails": notices.preference_of(user), "address": user.email},
        "memberships": [
            {
                "campaign": m.campaign.name,
                "campaign_status": m.campaign.get_status_display(),
                "role": "organiser" if m.is_organiser else "player",
                "active": m.is_active,
                "joined": m.joined_at,
            }
            for m in Membership.objects.filter(user=user)
            .select_related("campaign")
            .order_by("campaign__name", "pk")
        ],
        "warbands": [
            {
                **warband_as_json(w, warriors=rosters[w.pk]),
                **({"treasury": treasuries[w.pk]} if w.pk in treasuries else {}),
            }
            for w in warbands
        ],
        "battles": _battles(warbands),
    }


def _treasuries(warbands: list[Warband]) -> dict[int, dict[str, Any]]:
    """Each warband's containers as its owner sees them, its vessel items and its ledger."""
    found = {w.pk: {"containers": [], "vessel_items": [], "ledger": []} for w in warbands}
    containers = (
        StorageContainer.objects.held()
        .filter(warband__in=warbands)
        .select_related("holder", "parent")
        .prefetch_related(STORED_LIST)
        .order_by("warband_id", "kind", "pk")
    )
    for container in containers:
        if container.kind == StorageContainer.LOOSE and container.is_empty:
            continue
        carried_by = container.holder.name if container.holder_id else ""
        if container.parent_id:
            carried_by = container.parent.kind_label
        found[container.warband_id]["containers"].append(
            {
                "name": str(container),
                "kind": container.kind_label,
                "carried_by": carried_by,
                "gold_crowns": container.gold_crowns,
                "wyrdstone": container.wyrdstone,
                "items": [permissions.stored_view(s).name for s in container.stored_list],
            }
        )
    for vessel in VesselItem.objects.filter(warband__in=warbands).order_by("pk"):
        found[vessel.warband_id]["vessel_items"].append(
            {"kind": vessel.get_kind_display(), "name": vessel.name, "lost": vessel.is_lost}
        )
    ledger = (
        LedgerEntry.objects.filter(warband__in=warbands)
        .select_related("container", "actor", "battle")
        .order_by("created_at", "pk")
    )
    for entry in ledger:
        found[entry.warband_id]["ledger"].append(
            {
                "at": entry.created_at,
                "container": permissions.ledger_name(entry.container, entry.warband_id),
                "amount": entry.amount,
                "what": entry.what,
                "reason": entry.get_reason_display(),
                "note": entry.note,
                "battle": str(entry.battle) if entry.battle_id else "",
                "step": entry.step,
                "by": entry.actor.username if entry.actor_id else "",
            }
        )
    return found


def _battles(warbands: list[Warband]) -> list[dict[str, Any]]:
    """The battles the warbands fought: the public facts of their pages."""
    played = Participant.objects.filter(warband__in=warbands).values("battle")
    sides = (
        Participant.objects.filter(battle__in=played)
        .select_related("battle__campaign", "warband__owner")
        .order_by("battle__fought_on", "battle_id", "pk")
    )
    battles: dict[int, dict[str, Any]] = {}
    for side in sides:
        battle = side.battle
        entry = battles.setdefault(
            battle.pk,
            {
                "date": battle.fought_on,
                "campaign": battle.campaign.name,
                "scenario": battle.scenario,
                "status": battle.get_status_display(),
                "sides": [],
            },
        )
        entry["sides"].append(
            {
                "warband": side.warband.name,
                "player": side.warband.owner.username,
                "result": side.get_result_display(),
                "routed": side.routed,
            }
        )
    return list(battles.values())
