"""The dashboard's campaign cards with what stands in each (a game in progress, a dispute, a
warband to muster), and the user's past campaigns. What waits for the user himself is one
list across his campaigns, ``league.todo``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, Q
from django.urls import reverse

from battles.models import Battle, Participant
from battles.schedule import queries as schedule
from campaign.models import Campaign, Membership
from warbands.models import Warband
from warbands.permissions import can_see_treasury
from warbands.services import rating_expression


@dataclass(frozen=True)
class Step:
    text: str
    url: str


def next_steps(user, memberships, warbands) -> dict[int, list[Step]]:
    """For each campaign (by id): what the user should do next there, most urgent first."""
    steps: dict[int, list[Step]] = {m.campaign_id: [] for m in memberships}
    by_campaign: dict[int, list] = {}
    for warband in warbands:
        by_campaign.setdefault(warband.campaign_id, []).append(warband)
    # The user's games being played (the battle helper). His sides to enter, reports to
    # confirm, sequences, offers and corrections are on the "Waiting for you" list
    # (``league.todo``), read when drawn, not kept with these cards.
    playing = (
        Participant.objects.filter(warband__owner=user, battle__status=Battle.Status.PLAYING)
        .select_related("battle", "warband")
        .order_by("battle__fought_on", "pk")
    )
    for participant in playing:
        battle = participant.battle
        steps.setdefault(battle.campaign_id, []).append(
            Step(
                f"A game in progress: {battle} ({participant.warband.name}): open the battle "
                "helper",
                reverse("play_page", args=[battle.pk]),
            )
        )
    organised = [m.campaign_id for m in memberships if m.is_organiser]
    for battle in _disputed(user, organised):
        who = "; ".join(
            f"{p.confirmed_by.username if p.confirmed_by else p.warband.name}: “{p.dispute_reason}”"
            for p in battle.disputes
        )
        if battle.campaign_id in organised:
            text = f"Settle the dispute over {battle} ({who})"
        elif all(p.confirmed_by_id == user.pk for p in battle.disputes):
            continue  # the user disputed it: the reporter or an organiser answers
        else:
            text = f"The report of {battle} is disputed ({who}): correct it or talk it over"
        steps.setdefault(battle.campaign_id, []).append(
            Step(text, reverse("battle_detail", args=[battle.pk]))
        )
    for membership in memberships:
        campaign = membership.campaign
        if not campaign.is_open:
            continue
        own = by_campaign.get(campaign.pk, [])
        for warband in own:
            if warband.is_draft:
                steps[campaign.pk].append(
                    Step(
                        f"Finish mustering {warband.name}",
                        reverse("warband_muster", args=[warband.pk]),
                    )
                )
        if not own and not membership.is_organiser:
            steps[campaign.pk].append(
                Step("Muster your warband", reverse("warband_create", args=[campaign.pk]))
            )
    return steps


def next_games(user) -> dict:
    """The dashboard's "Your next games": the user's planned games not played yet, in a fixed
    number of queries. The challenges waiting for his answer are in "Waiting for you"
    (``league.todo.schedule``)."""
    return {"fixtures": schedule.open_fixtures_for(user)}


def _disputed(user, organised: list[int]):
    """Disputed battles the user organises or fought in, each with its disputes (who, why)."""
    disputes = Participant.objects.filter(
        confirmation=Participant.Confirmation.DISPUTED
    ).select_related("confirmed_by", "warband")
    return (
        Battle.objects.filter(status=Battle.Status.DISPUTED)
        .filter(Q(campaign_id__in=organised) | Q(participants__warband__owner=user))
        .distinct()
        .order_by("fought_on", "pk")
        .prefetch_related(Prefetch("participants", queryset=disputes, to_attr="disputes"))
    )


@dataclass(frozen=True)
class PastCampaign:
    """A closed or archived campaign of the user, with his warbands in it and, for each,
    whether he may open its treasury (``warbands.permissions``: read-only now)."""

    membership: Membership
    warbands: list[tuple[Warband, bool]]


def past_campaigns(user) -> list[PastCampaign]:
    """The closed and archived campaigns the user is still a member of, latest first, each
    with his warbands that played to the end there: a finished campaign stays within reach.
    Two queries, however many campaigns and warbands."""
    memberships = list(
        Membership.objects.active()
        .filter(user=user)
        .exclude(campaign__status=Campaign.Status.OPEN)
        .select_related("campaign")
        .order_by("-campaign__start_date", "campaign__name")
    )
    campaigns = {m.campaign_id: m.campaign for m in memberships}
    by_campaign: dict[int, list[tuple[Warband, bool]]] = {}
    warbands = (
        Warband.objects.owned_by(user)
        .playing()
        .filter(campaign__in=list(campaigns))
        .select_related("warband_type")
        .annotate(rating=rating_expression())
        .order_by("name", "pk")
    )
    for warband in warbands:
        warband.campaign = campaigns[warband.campaign_id]
        by_campaign.setdefault(warband.campaign_id, []).append(
            (warband, can_see_treasury(user, warband))
        )
    return [PastCampaign(m, by_campaign.get(m.campaign_id, [])) for m in memberships]
