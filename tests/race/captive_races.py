"""The races of captives: the captor's offers and his sale to the slavers, the owner's ransom
and his acceptance of an exchange (``tests.race.harness``)."""

from __future__ import annotations

from django.urls import reverse

from battles.captives import exchange as exchanges
from battles.captives import ransom as ransoms
from battles.models import Battle, Captive, DiceRoll
from campaign.models import CampaignEvent
from tests.helpers import mustered_duel
from tests.race.harness import Shot, race
from warbands import treasury
from warbands.models import LedgerEntry, StorageContainer, Warrior

NOT_RACED = {"warband_captives": "a page"}


def held(duel, warrior_of: str = "reavers", captor: str = "scourge", battle=None) -> Captive:
    """Brandt of one warband, held by the other after a battle."""
    battle = battle or Battle.objects.create(
        campaign=duel["campaign"], scenario="Skirmish", status=Battle.Status.CONFIRMED
    )
    warrior = duel[warrior_of].warriors.get(name="Brandt")
    Warrior.objects.filter(pk=warrior.pk).update(status=Warrior.Status.CAPTURED)
    return Captive.objects.create(warrior=warrior, captor=duel[captor], battle=battle)


def empty_chest(warband) -> StorageContainer:
    sack = warband.containers.filter(kind="large_sack").order_by("-gold_crowns").first()
    return treasury.buy_container(warband, "treasure_chest", actor=warband.owner, pay_from=sack)


def events(words: str) -> int:
    return CampaignEvent.objects.filter(message__contains=words).count()


@race("captive_fate", "a captive is sold to the slavers once: one roll, one price")
def sell():
    duel = mustered_duel()
    captive, scourge = held(duel), duel["scourge"]
    chest = empty_chest(scourge)
    return Shot(
        scourge.owner,
        reverse("captive_fate", args=[scourge.pk, captive.pk]),
        {"fate": "sold", "into": chest.pk, "dice": ""},
        applied=lambda: (
            (
                LedgerEntry.objects.filter(container=chest, reason="sale").count()
                + DiceRoll.objects.filter(battle=captive.battle).count()
            )
            // 2
        ),
    )


@race("captive_pay", "the ransom is paid once")
def pay():
    duel = mustered_duel()
    captive, scourge, reavers = held(duel), duel["scourge"], duel["reavers"]
    into = empty_chest(scourge)
    ransoms.set_ransom(captive, actor=scourge.owner, ransom=40, into=into)
    return Shot(
        reavers.owner,
        reverse("captive_pay", args=[reavers.pk, captive.pk]),
        {"amount": 40, "pay_from": reavers.containers.get(kind="treasure_chest").pk},
        applied=lambda: LedgerEntry.objects.filter(container=into, reason="income").count(),
    )


@race("captive_accept", "an exchange is made once")
def accept():
    duel = mustered_duel()
    captive, reavers = held(duel), duel["reavers"]
    theirs = held(duel, "scourge", "reavers", battle=captive.battle)
    exchanges.offer_exchange(captive, actor=duel["scourge"].owner, for_captive=theirs)
    return Shot(
        reavers.owner,
        reverse("captive_accept", args=[reavers.pk, captive.pk]),
        {"offered": theirs.pk},
        applied=lambda: events("exchanged captives"),
    )


@race("captive_ransom", "each post asks the same ransom again: none is lost, none fails")
def ransom():
    duel = mustered_duel()
    captive, scourge = held(duel), duel["scourge"]
    chest = empty_chest(scourge)
    return Shot(
        scourge.owner,
        reverse("captive_ransom", args=[scourge.pk, captive.pk]),
        {"ransom": 40, "into": chest.pk},
        applied=lambda: events("ransom for Brandt"),
        allowed=4,
    )


@race("captive_exchange", "each post offers the same exchange again: none fails")
def exchange():
    duel = mustered_duel()
    captive, scourge = held(duel), duel["scourge"]
    theirs = held(duel, "scourge", "reavers", battle=captive.battle)
    return Shot(
        scourge.owner,
        reverse("captive_exchange", args=[scourge.pk, captive.pk]),
        {"for_captive": theirs.pk},
        applied=lambda: events("exchange of captives"),
        allowed=4,
    )
