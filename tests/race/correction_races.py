"""The races of the manual corrections page (``tests.race.harness``): four tabs posting the
same correction at once, each with its own form token. A correction moves no treasure, but
one applied twice would record (and, for an item, remove) twice."""

from __future__ import annotations

from django.urls import reverse

from tests.factories import mustered_warband
from tests.race.harness import Shot, race
from warbands.models import Correction, WarriorItem


def _champion(warband):
    return warband.warriors.get(warrior_type__key="champion")


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


@race("warband_correct:experience", "experience set to 12 once: the others change nothing")
def set_experience():
    warband = mustered_warband()
    champion = _champion(warband)
    return Shot(
        warband.owner,
        reverse("warband_correct", args=[warband.pk]),
        {"kind": "experience", "warrior": champion.pk, "experience": 12, "reason": "Misread"},
        applied=lambda: Correction.objects.filter(warband=warband, new_value="12").count(),
    )


NOT_RACED = {
    "warband_corrections": "a page",
}
