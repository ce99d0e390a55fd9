"""Reads of the schedule, each a fixed number of queries however many rounds, games and
challenges: the round page's games, the campaign's schedule, and what waits for a player
(his next games, the challenges he has to answer) for the dashboard."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q

from battles.models import Challenge, ChallengeAnswer, Fixture, FixtureSide, Round
from campaign.models import Campaign


def _sides() -> Prefetch:
    return Prefetch(
        "sides", queryset=FixtureSide.objects.select_related("warband__owner").order_by("pk")
    )


def _with_battles(fixtures):
    return fixtures.select_related("battle", "round", "campaign").prefetch_related(_sides())


def round_fixtures(round_: Round) -> list[Fixture]:
    """The round's games, each with its warbands and battle: two queries."""
    return list(_with_battles(Fixture.objects.filter(round=round_)).order_by("pk"))


def rounds_of(campaign: Campaign) -> list[Round]:
    """The campaign's rounds with how many games each has and how many are confirmed."""
    return list(
        Round.objects.filter(campaign=campaign)
        .annotate(
            games=Count("fixtures"),
            confirmed=Count("fixtures", filter=Q(fixtures__battle__status="confirmed")),
        )
        .order_by("number")
    )


def agreed_fixtures(campaign: Campaign) -> list[Fixture]:
    """The games agreed by challenges (no round): two queries."""
    found = Fixture.objects.filter(campaign=campaign, round__isnull=True)
    return list(_with_battles(found).order_by("-pk")[:50])


def _answers() -> Prefetch:
    return Prefetch(
        "answers",
        queryset=ChallengeAnswer.objects.select_related("warband__owner").order_by("pk"),
    )


def challenges_of(campaign: Campaign) -> list[Challenge]:
    """The campaign's challenges, the waiting ones first, then the latest: two queries."""
    found = (
        Challenge.objects.filter(campaign=campaign)
        .select_related("challenger__owner")
        .prefetch_related(_answers())
        .order_by("-pk")[:50]
    )
    return sorted(found, key=lambda c: c.status != Challenge.Status.WAITING)


def open_fixtures_for(user) -> list[Fixture]:
    """The user's games planned and not yet started or reported, in his open campaigns,
    soonest first (a date, then a round, then the oldest): two queries."""
    if not user.is_authenticated:
        return []
    found = (
        Fixture.objects.unplayed()
        .filter(campaign__status=Campaign.Status.OPEN)
        .filter(pk__in=FixtureSide.objects.filter(warband__owner=user).values("fixture_id"))
    )
    return list(_with_battles(found).order_by("planned_on", "round__number", "pk"))


def challenges_awaiting(user) -> list[Challenge]:
    """Challenges waiting for the user's answer (one of the warbands they name is his, and
    he has not answered for it), in his open campaigns, oldest first: two queries. Each has
    ``answers`` with their warbands."""
    if not user.is_authenticated:
        return []
    waiting = ChallengeAnswer.objects.filter(
        warband__owner=user, answer=ChallengeAnswer.Answer.WAITING
    ).values("challenge_id")
    return list(
        Challenge.objects.filter(
            status=Challenge.Status.WAITING,
            campaign__status=Campaign.Status.OPEN,
            pk__in=waiting,
        )
        .select_related("challenger__owner", "campaign")
        .prefetch_related(_answers())
        .order_by("pk")
    )
