"""The races of carrying and importing a warband (``tests.race.harness``): four tabs carry one
warband into the same campaign and one copy is made; four tabs confirm one file's report and
one warband is created, the player's last place in the campaign taken once."""

from __future__ import annotations

import json

from django.core import signing
from django.urls import reverse

from campaign.models import Membership
from tests.factories import CampaignFactory, mustered_warband
from tests.race.harness import Shot, race
from warbands.export import warband_as_json
from warbands.models import Warband
from warbands.transfer.forms import SALT

NOT_RACED = {
    "campaign_import": "reads the uploaded file and draws its report; writes nothing",
}


@race("warband_carry", "the owner's tabs carry one warband into a campaign once")
def carry():
    source = mustered_warband()
    target = CampaignFactory(carrying_allowed=True, max_warbands_per_player=3,
                             carried_treasury="kept")  # fmt: skip
    Membership.objects.create(campaign=target, user=source.owner)
    data = {"campaign": target.pk, "confirm": "on"}
    copies = Warband.objects.filter(carried_from=source)
    return Shot(source.owner, reverse("warband_carry", args=[source.pk]), data,
                applied=copies.count, htmx=False)  # fmt: skip


@race("campaign_import_confirm", "the player's tabs confirm one file's report once")
def import_confirm():
    exported = mustered_warband()
    target = CampaignFactory(imports_allowed=True, max_warbands_per_player=1)
    Membership.objects.create(campaign=target, user=exported.owner)
    compact = json.dumps(warband_as_json(exported), separators=(",", ":"), ensure_ascii=False)
    data = {"payload": signing.dumps(compact, salt=SALT, compress=True), "name": "Imported",
            "confirm": "on"}  # fmt: skip
    created = Warband.objects.filter(campaign=target)
    return Shot(exported.owner, reverse("campaign_import_confirm", args=[target.pk]), data,
                applied=created.count, htmx=False)  # fmt: skip
