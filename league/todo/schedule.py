"""The schedule's part of what waits for a user: a challenge naming one of his warbands that
he has not answered. His planned games are listed apart, as "Your next games", with links
to report or play them (``battles.schedule.queries.open_fixtures_for``)."""

from __future__ import annotations

from django.urls import reverse

from battles.schedule.queries import challenges_awaiting
from campaign.todo import Waiting


def challenges_to_answer(user) -> list[Waiting]:
    """Each challenge waiting for his answer, in his open campaigns: two queries."""
    return [
        Waiting(
            "challenge",
            f"{challenge.challenger.name} challenges "
            + ", ".join(a.warband.name for a in challenge.answers.all())
            + ": accept or decline",
            challenge.campaign_id,
            challenge.campaign.name,
            reverse("campaign_schedule", args=[challenge.campaign_id])
            + f"#challenge-{challenge.pk}",
            challenge.created_at,
        )
        for challenge in challenges_awaiting(user)
    ]
