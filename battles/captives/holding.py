"""Captives (campaigns text, serious injury 61, Captured): what a captor does with a hero he
holds, and how the hero's own warband gets him back.

The captor sets a ransom, offers an exchange for one of his own warriors held by the
captive's warband, sells the captive to the slavers (D6×5 gc), or, in an Undead warband, kills
him and gains a Zombie, in a Cult of the Possessed sacrifices him (the leader gains 1
experience). The captive's owner pays the ransom or accepts the exchange. A ransomed or
exchanged hero comes back with all his equipment; the captor keeps the equipment of one sold,
killed or sacrificed, and the hero is dead to his warband.

This module holds what every change of a captive shares: reading the captives, their locks,
the release and the feed. The choices themselves are ``ransom``, ``exchange`` and ``fates``;
who may make them is ``permissions``. Every change locks the captive's row first and reads
it afresh (``lock_captives``), so a captive already dealt with (a double click, a second tab,
the other player at the same moment) is refused; then the two warbands and the containers,
in the treasury's lock order (``warbands.treasury.ledger``).
Readings where the rules are silent (the players would expect them):

- The captor names, with the ransom, the container it will go into; the ransom is paid from
  one container of the owner's choice, whole. The amount is known to both players, never to
  the campaign feed; the captor's container stays his secret.
- An exchange is offered by one captor and accepted by the other: each gives up a captive.
- The captive's equipment goes into a container of the captor's choice; what cannot be stored
  (mutations, animals) is lost. So is the pouch he carried: what was in it goes with the rest.
- A new Zombie joins a Zombie group with room, else starts one, as exploration's free Zombies
  do; a full warband cannot raise one.
- An advance reached by the sacrifice is announced, not rolled: the player rolls it at the
  table.
"""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from battles.models import Captive
from campaign import cache
from campaign.models import CampaignEvent
from campaign.services import record_event
from core import notices
from core.errors import RuleViolation
from warbands import treasury
from warbands.models import StorageContainer, Warband, Warrior
from warbands.rules.families import POSSESSED, counted_family

Reason = treasury.Reason
HELD = Captive.Status.HELD
# Campaigns text, Captured: who may do what with a captive, by the captor's warband family.
UNDEAD = "Undead"
# A list that counts as the Possessed (``counts_as_possessed``, the Carnival's Tainted) has
# their family here (``counted_family``).
SLAVER_PRICE = 5  # gold crowns for each pip of the D6


# --- Reading ---------------------------------------------------------------------------------


def fates_for(warband: Warband) -> list[tuple[str, str]]:
    """What this captor may do with a captive besides ransom and exchange."""
    family = counted_family(warband.warband_type.family, warband.warband_type.special_rules)
    fates = [(Captive.Status.SOLD, "Sell him to the slavers (D6×5 gc)")]
    if family == UNDEAD:
        fates.append((Captive.Status.ZOMBIE, "Kill him and raise a new Zombie"))
    if family == POSSESSED:
        fates.append((Captive.Status.SACRIFICED, "Sacrifice him (the leader gains 1 experience)"))
    return fates


def captives(**filters):
    """Captives with what the captives page shows of them."""
    return Captive.objects.filter(**filters).select_related(
        "warrior__warband", "captor", "battle", "ransom_into__holder", "exchange_for__warrior"
    )


def held_by(warband: Warband) -> list[Captive]:
    return list(captives(captor=warband, status=HELD).order_by("created_at", "pk"))


def held_from(warband: Warband) -> list[Captive]:
    """The warband's heroes held by enemies."""
    return list(captives(warrior__warband=warband, status=HELD).order_by("created_at", "pk"))


def history(warband: Warband, limit: int = 20) -> list[Captive]:
    """Captives taken by or from the warband and since dealt with, newest first."""
    mine = Q(captor=warband) | Q(warrior__warband=warband)
    return list(
        captives().filter(mine).exclude(status=HELD).order_by("-resolved_at", "-pk")[:limit]
    )


# --- Locks and checks ------------------------------------------------------------------------


def lock_captives(*pks: int) -> dict[int, Captive]:
    """The captives' rows under their locks (primary-key order), read afresh; one no longer
    held (dealt with meanwhile) is refused."""
    rows = (
        Captive.objects.select_for_update(of=("self",), no_key=True)
        .select_related(
            "warrior__warband__campaign",
            "warrior__warband__warband_type",
            "captor__campaign",
            "captor__warband_type",
            "battle__campaign",
        )
        .filter(pk__in=sorted(set(pks)))
        .order_by("pk")
    )
    found = {captive.pk: captive for captive in rows}
    for pk in pks:
        captive = found.get(pk)
        if captive is None:
            raise RuleViolation("That captive is gone: reload the page.")
        if captive.status != HELD:
            raise RuleViolation(
                f"{captive.warrior.name} is no longer held captive "
                f"({captive.get_status_display().lower()}): nothing changed."
            )
    _changed(found.values())
    return found


def _changed(captives) -> None:
    """A captive is locked to change what becomes of him: his warband's roster and rating,
    his captor's and the battle's pages change (``campaign.cache``)."""
    captives = list(captives)
    cache.changed(
        campaign={c.battle.campaign_id for c in captives},
        battle={c.battle_id for c in captives},
        warband={c.warrior.warband_id for c in captives} | {c.captor_id for c in captives},
    )


def lock_containers(*containers: StorageContainer) -> list[StorageContainer]:
    """Lock the containers in primary-key order and read them afresh, in the order given."""
    rows = StorageContainer.objects.select_for_update(no_key=True).filter(
        pk__in=[c.pk for c in containers]
    )
    found = {c.pk: c for c in rows.order_by("pk")}
    return [found[c.pk] for c in containers]


def own_container(container: StorageContainer | None, warband: Warband, what: str):
    """``container`` (locked) when the warband still holds it, else refused."""
    if container is None:
        raise RuleViolation(f"Choose one of your containers for {what}.")
    if container.warband_id != warband.pk or container.status != StorageContainer.Status.HELD:
        raise RuleViolation(f"That container is no longer held by {warband.name}: reload the page.")
    container.warband = warband
    return container


def resolve(captive: Captive, status: str, warrior_status: str) -> None:
    captive.status = status
    captive.resolved_at = timezone.now()
    captive.save(update_fields=["status", "resolved_at"])
    warrior = captive.warrior
    warrior.status = warrior_status
    if warrior_status != Warrior.Status.ACTIVE:
        warrior.is_leader = False
    warrior.save(update_fields=["status", "is_leader"])


def release_held_by(warband_ids, *, why: str) -> list[Captive]:
    """Let go every captive held by the warbands ``warband_ids`` as they leave play (archived,
    or their player removed): each comes home to his warband with his equipment, and the feed
    says so. The rules are silent; a hero held by a warband nobody plays any more could never
    be ransomed, exchanged or sold, and his player would expect him back. Locks the captives'
    rows first, as every change of a captive does; the caller locks the warbands after."""
    ids = list(warband_ids)
    held = (
        Captive.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior__warband", "captor", "battle__campaign")
        .filter(captor__in=ids, status=HELD)
        .order_by("pk")
    )
    released = list(held)
    _changed(released)
    for captive in released:
        resolve(captive, Captive.Status.RELEASED, Warrior.Status.ACTIVE)
        announce(
            captive,
            CampaignEvent.Kind.CAPTURED,
            f"{captive.warrior.name} of {captive.warrior.warband.name} comes home: "
            f"{captive.captor.name} {why} and let him go.",
            warband=captive.warrior.warband,
        )
    return released


# --- The ledger's context and the feed -------------------------------------------------------


def ledger_context(actor, captive: Captive, note: str) -> treasury.Context:
    return treasury.Context(actor=actor, battle=captive.battle, note=note)


def announce(captive: Captive, kind: str, message: str, warband: Warband | None = None) -> None:
    """A line of the campaign feed: who holds whom and what became of him are public; ransoms,
    prices and containers are not."""
    record_event(
        captive.battle.campaign, kind, message, warband=warband or captive.captor,
        battle=captive.battle,
    )  # fmt: skip


def tell_owner(captive: Captive, *, kind: str) -> None:
    """Mail the captive's own player that an offer for him waits for an answer
    (``core.notices``: on commit, if he chose a mail for each event; never the amount)."""
    warband = captive.warrior.warband
    notices.notify(
        [warband.owner_id],
        kind=kind,
        campaign=warband.campaign.name,
        url=reverse("warband_captives", args=[warband.pk]),
    )
