"""The races of the manual corrections page (``tests.race.harness``): four tabs posting the
same correction, the same decision or the same withdrawal at once, each with its own form
token. A correction moves no treasure, but one applied twice would record (and, for an item,
give or remove) twice. Races of two different posts on one request or one warrior (two
organisers, approve against withdraw, against the post-battle sequence):
``test_correction_races``."""

from __future__ import annotations

from django.urls import reverse

from tests.factories import MembershipFactory, mustered_warband
from tests.race.harness import Shot, race
from warbands import corrections
from warbands.models import Correction, Item, WarriorItem


def _champion(warband):
    return warband.warriors.get(warrior_type__key="champion")


def organised(warband):
    """An organiser of the warband's campaign (``mustered_warband``'s campaign has none)."""
    return MembershipFactory(campaign=warband.campaign, is_organiser=True).user


@race("warband_correct", "the champion's axe is taken away once: one item gone, one record")
def remove_item():
    warband = mustered_warband()
    champion = _champion(warband)
    owned = champion.items.get(item__key="axe")
    records = Correction.objects.filter(warband=warband)

    def applied() -> int:
        gone = int(not WarriorItem.objects.filter(pk=owned.pk).exists())
        assert gone == records.count(), "a record for each item taken away, and no more"
        return gone

    return Shot(
        warband.owner,
        reverse("warband_correct", args=[warband.pk]),
        {"kind": "item_removed", "owned": owned.pk, "reason": "Never bought at the table"},
        applied=applied,
    )


@race("warband_correct:experience", "experience 12 asked once: the others find the request")
def set_experience():
    warband = mustered_warband()
    champion = _champion(warband)
    return Shot(
        warband.owner,
        reverse("warband_correct", args=[warband.pk]),
        {"kind": "experience", "warrior": champion.pk, "experience": 12, "reason": "Misread"},
        applied=lambda: Correction.objects.filter(warband=warband, new_value="12").count(),
    )


def asked_for(warband, change) -> Correction:
    """A request the warband's owner made (``change``: the service and its arguments)."""
    service, values = change
    return service(_champion(warband), actor=warband.owner, reason="asked", **values)


def decide_shot(warband, correction, applied, **data) -> Shot:
    return Shot(
        organised(warband),
        reverse("correction_decide", args=[warband.pk, correction.pk]),
        {"decision": "approve", **data},
        applied=applied,
    )


@race("correction_decide", "a request approved in four tabs applies once: 8 → 12, one record")
def approve_experience():
    warband = mustered_warband()
    asked = asked_for(warband, (corrections.set_experience, {"experience": 12}))
    champion = _champion(warband)

    def applied() -> int:
        champion.refresh_from_db()
        done = Correction.objects.filter(pk=asked.pk, status="applied").count()
        assert champion.experience == (12 if done else 8)
        return done

    return decide_shot(warband, asked, applied)


@race("correction_decide:item", "an item approved in four tabs is given once")
def approve_item():
    warband = mustered_warband()
    halberd = Item.objects.get(key="halberd")
    asked = asked_for(warband, (corrections.add_item, {"item": halberd}))
    return decide_shot(warband, asked, lambda: WarriorItem.objects.filter(correction=asked).count())


@race("correction_decide:refuse", "a request refused in four tabs is refused once")
def refuse():
    warband = mustered_warband()
    asked = asked_for(warband, (corrections.set_experience, {"experience": 12}))
    return decide_shot(
        warband,
        asked,
        lambda: Correction.objects.filter(pk=asked.pk, status="refused").count(),
        decision="refuse",
        reason="No",
    )


@race("correction_withdraw", "a request withdrawn in four tabs is withdrawn once")
def withdraw():
    warband = mustered_warband()
    asked = asked_for(warband, (corrections.set_experience, {"experience": 12}))
    return Shot(
        warband.owner,
        reverse("correction_withdraw", args=[warband.pk, asked.pk]),
        {},
        applied=lambda: Correction.objects.filter(pk=asked.pk, status="withdrawn").count(),
    )


NOT_RACED = {
    "warband_corrections": "a page",
}
