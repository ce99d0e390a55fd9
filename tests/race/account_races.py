"""The race of closing one's account (``tests.race.harness``): four tabs post it at once and
it closes once, its warband retired once; the account's other pages only read."""

from __future__ import annotations

from django.urls import reverse

from campaign.models import CampaignEvent
from tests.factories import PASSWORD
from tests.helpers import mustered_duel
from tests.race.harness import Shot, race

NOT_RACED = {
    "account": "a page",
    "account_download": "a JSON download of one's own data; GET only",
}


@race("account_delete", "the player's tabs close his account and retire his warband once")
def close_account():
    reavers = mustered_duel()["reavers"]
    player = reavers.owner
    told = CampaignEvent.objects.filter(message=f"{player.username} closed his account and left.")
    data = {f"warband_{reavers.pk}": "retire", "password": PASSWORD, "confirm": "on"}
    return Shot(player, reverse("account_delete"), data, applied=told.count, htmx=False)
