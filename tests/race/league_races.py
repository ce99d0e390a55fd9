"""The races of the league's and the campaign's pages (``tests.race.harness``): only the
organiser's archiving of a warband touches a warband's gold (its mustering purse goes with
it); the rest move no treasure, and say why."""

from __future__ import annotations

from django.urls import reverse

from campaign import co_organisers
from campaign.models import CampaignEvent
from tests.helpers import mustered_duel
from tests.race.harness import Shot, race

NOT_RACED = {
    "dashboard": "a page",
    "campaign_detail": "a page",
    "campaign_feed": "a page",
    "campaign_table": "a page",
    "campaign_battles": "a page",
    "campaign_members": "a page",
    "past_campaigns": "a page",
    "battle_export": "a CSV download; GET only",
    "standings_export": "a CSV download; GET only",
    "standings_rules": "the league table's points and tie-breakers; no treasure",
    "guide_player": "a page",
    "guide_organiser": "a page",
    "guide_hired_swords": "a page",
    "fortune_table": "the campaign's fortune table: rules text, no treasure",
    "campaign_settings": "settings; the secrets switch is told in the feed (test_campaigns)",
    "co_organiser_add": "an invitation to co-organise; no treasure",
    "invitation_withdraw": "an invitation to co-organise; no treasure",
    "invitation_decline": "an invitation to co-organise; no treasure",
    "organiser_step_down": "who organises; no treasure (test_co_organisers: never the last)",
    "member_remove": "archives a player's warbands with their treasure untouched",
    "campaign_create": "a new campaign holds no treasure",
    "join_code_regenerate": "a join code; no treasure",
    "joining_toggle": "whether players may join; no treasure",
    "campaign_status": "open, closed or archived; no treasure",
    "join": "a membership; a warband is raced at warband_create",
    "join_link": "a membership; a warband is raced at warband_create",
}


@race("warband_archive", "the organiser's two tabs archive a warband once")
def archive():
    duel = mustered_duel()
    reavers = duel["reavers"]
    told = CampaignEvent.objects.filter(message=f"{reavers.name} was removed from the campaign.")
    return Shot(
        duel["organiser"],
        reverse("warband_archive", args=[duel["campaign"].pk, reavers.pk]),
        {"confirm": "on"},
        applied=told.count,
        htmx=False,
    )


@race("invitation_accept", "the invitee's tabs accept once: one membership, one feed line")
def accept_invitation():
    duel = mustered_duel()
    invitee = duel["reavers"].owner
    invitation = co_organisers.invite_co_organiser(
        duel["campaign"], actor=duel["organiser"], username=invitee.username
    )
    told = CampaignEvent.objects.filter(message__startswith=f"{invitee.username} accepted")
    return Shot(
        invitee,
        reverse("invitation_accept", args=[invitation.pk]),
        {},
        applied=told.count,
        htmx=False,
    )
