"""Challenges between players: a warband challenges one to three others of its campaign; each
challenged player accepts or declines for his own warband; when all accept, the game becomes
a fixture (no round); one refusal declines it; the challenger may withdraw it until then.

The challenge's row is locked by every answer and by a withdrawal, so two tabs (or two
players at once) cannot both decide it: the later one finds it decided and is told so.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from battles.models import Challenge, ChallengeAnswer, Fixture, FixtureSide
from battles.rules.pairings import MOST_IN_A_GAME
from battles.schedule import permissions
from battles.schedule.services import check_scenario
from campaign import cache
from campaign.models import Campaign
from core import notices
from core.errors import RuleViolation
from warbands.models import Warband

FORBIDDEN = "The organisers plan every game of this campaign: challenges are off."


@transaction.atomic
def issue_challenge(
    campaign: Campaign,
    *,
    actor,
    challenger_id: int,
    opponent_ids: Sequence[int],
    scenario_key: str = "",
    planned_on: datetime.date | None = None,
) -> Challenge:
    """``actor``'s warband ``challenger_id`` challenges ``opponent_ids`` (the campaign's
    active warbands, none of them the actor's own)."""
    if campaign.challenge_policy == Campaign.Challenges.FORBIDDEN:
        raise RuleViolation(FORBIDDEN)
    check_scenario(scenario_key)
    ids = list(dict.fromkeys([challenger_id, *opponent_ids]))
    warbands = {
        w.pk: w
        for w in Warband.objects.filter(
            pk__in=ids, campaign=campaign, status=Warband.Status.ACTIVE
        ).select_related("owner")
    }
    challenger = warbands.get(challenger_id)
    if challenger is None:
        raise RuleViolation("Challenge with a warband of yours that is ready.", field="challenger")
    permissions.check_challenges(actor, campaign, challenger)
    opponents = [warbands.get(i) for i in ids[1:]]
    if not opponents or None in opponents:
        raise RuleViolation("Choose warbands of this campaign that are ready.", field="opponents")
    if any(o.owner_id == actor.pk for o in opponents):
        raise RuleViolation("You cannot challenge your own warbands.", field="opponents")
    if len(opponents) + 1 > MOST_IN_A_GAME:
        raise RuleViolation(
            f"A game is between at most {MOST_IN_A_GAME} warbands.", field="opponents"
        )
    challenge = Challenge.objects.create(
        campaign=campaign, challenger=challenger, scenario_key=scenario_key,
        planned_on=planned_on, created_by=actor,
    )  # fmt: skip
    ChallengeAnswer.objects.bulk_create(
        ChallengeAnswer(challenge=challenge, warband=o) for o in opponents
    )
    cache.changed(campaign=campaign)
    notices.notify(
        {o.owner_id for o in opponents}, kind="challenge", campaign=campaign.name,
        url=reverse("campaign_schedule", args=[campaign.pk]) + f"#challenge-{challenge.pk}",
    )  # fmt: skip
    return challenge


def _locked(challenge: Challenge) -> Challenge:
    locked = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("campaign", "challenger")
        .get(pk=challenge.pk)
    )
    if not locked.campaign.is_open:
        raise RuleViolation(permissions.CLOSED)
    if locked.status != Challenge.Status.WAITING:
        raise RuleViolation(f"This challenge is {locked.get_status_display().lower()} already.")
    return locked


@transaction.atomic
def answer_challenge(challenge: Challenge, *, actor, accept: bool) -> Challenge:
    """The actor accepts or declines for each of his warbands the challenge names. Once all
    have accepted, the challenge becomes a fixture."""
    permissions.check_answers(actor, challenge)
    challenge = _locked(challenge)
    answers = list(challenge.answers.select_related("warband").order_by("pk"))
    mine = [a for a in answers if a.warband.owner_id == actor.pk]
    waiting = [a for a in mine if a.answer == ChallengeAnswer.Answer.WAITING]
    if not waiting:
        raise RuleViolation("You have answered this challenge already.")
    now = timezone.now()
    given = ChallengeAnswer.Answer.ACCEPTED if accept else ChallengeAnswer.Answer.DECLINED
    for answer in waiting:
        answer.answer = given
        answer.answered_by, answer.answered_at = actor, now
        answer.save(update_fields=["answer", "answered_by", "answered_at"])
    if not accept:
        challenge.status = Challenge.Status.DECLINED
    elif all(a.answer == ChallengeAnswer.Answer.ACCEPTED for a in answers):
        challenge.status = Challenge.Status.ACCEPTED
        challenge.fixture = Fixture.objects.create(
            campaign=challenge.campaign, scenario_key=challenge.scenario_key,
            planned_on=challenge.planned_on,
        )  # fmt: skip
        FixtureSide.objects.bulk_create(
            FixtureSide(fixture=challenge.fixture, warband_id=w)
            for w in [challenge.challenger_id, *(a.warband_id for a in answers)]
        )
    challenge.save(update_fields=["status", "fixture"])
    cache.changed(campaign=challenge.campaign)
    return challenge


@transaction.atomic
def withdraw_challenge(challenge: Challenge, *, actor) -> Challenge:
    """The challenger takes his challenge back before everyone has accepted it."""
    permissions.check_withdraws(actor, challenge)
    challenge = _locked(challenge)
    challenge.status = Challenge.Status.WITHDRAWN
    challenge.save(update_fields=["status"])
    cache.changed(campaign=challenge.campaign)
    return challenge
