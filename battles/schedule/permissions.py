"""Who may plan and who may challenge: the campaign's organisers (co-organisers too) plan its
rounds while it is open; a player challenges with his own warband, under the campaign's
policy; each challenged player answers for his own warband; only the challenger withdraws.
Every member follows the schedule; to anyone else a round or a challenge does not exist."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from battles.models import Challenge, ChallengeAnswer, Round
from campaign.models import Campaign
from campaign.permissions import can_run_campaign, is_member, members_only
from core.queries import one

CLOSED = "The campaign is closed: nothing in it can change."


def may_plan(user, campaign: Campaign) -> bool:
    return can_run_campaign(user, campaign)


def check_plans(actor, campaign: Campaign) -> None:
    if not campaign.is_open:
        raise PermissionDenied(CLOSED)
    if not may_plan(actor, campaign):
        raise PermissionDenied("Only the campaign's organisers plan its rounds.")


def may_challenge(user, campaign: Campaign) -> bool:
    """Members challenge while the campaign is open and its organisers allow challenges."""
    return (
        campaign.is_open
        and campaign.challenge_policy != Campaign.Challenges.FORBIDDEN
        and is_member(user, campaign)
    )


def check_challenges(actor, campaign: Campaign, challenger) -> None:
    if not campaign.is_open:
        raise PermissionDenied(CLOSED)
    if not is_member(actor, campaign):
        raise PermissionDenied("Only the campaign's players challenge in it.")
    if challenger.owner_id != actor.pk:
        raise PermissionDenied("You challenge with a warband of your own.")


def is_challenged(user, challenge: Challenge) -> bool:
    """One of the warbands the challenge names is the user's (read once per challenge)."""
    if not user.is_authenticated:
        return False
    known = getattr(challenge, "_challenged", None)
    if known is None:
        known = challenge._challenged = {}
    if user.pk not in known:
        known[user.pk] = ChallengeAnswer.objects.filter(
            challenge=challenge, warband__owner=user
        ).exists()
    return known[user.pk]


def check_answers(actor, challenge: Challenge) -> None:
    if not challenge.campaign.is_open:
        raise PermissionDenied(CLOSED)
    if not is_challenged(actor, challenge):
        raise PermissionDenied("Only the challenged warband's player answers for it.")


def check_withdraws(actor, challenge: Challenge) -> None:
    if not challenge.campaign.is_open:
        raise PermissionDenied(CLOSED)
    if challenge.challenger.owner_id != actor.pk:
        raise PermissionDenied("Only the challenger withdraws his challenge.")


def get_round_for_user(request: HttpRequest, pk: int, *, organiser: bool = False) -> Round:
    """The round, for the members of its campaign (404 for anyone else); ``organiser``: only
    those who run the open campaign (403)."""
    found = one(members_only(Round.objects.select_related("campaign").filter(pk=pk), request.user))
    if found is None:
        raise Http404("No such round.")
    if organiser:
        check_plans(request.user, found.campaign)
    return found


def get_challenge_for_user(request: HttpRequest, pk: int) -> Challenge:
    """The challenge, for the members of its campaign (404 for anyone else)."""
    found = one(
        members_only(
            Challenge.objects.select_related("campaign", "challenger").filter(pk=pk), request.user
        )
    )
    if found is None:
        raise Http404("No such challenge.")
    return found
