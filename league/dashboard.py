"""The dashboard's "next thing to do" in each campaign."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from battles.models import Battle, Participant
from battles.sequence import waiting_for


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
    waiting = (
        Participant.objects.filter(
            warband__owner=user,
            confirmation=Participant.Confirmation.PENDING,
            battle__status=Battle.Status.REPORTED,
        )
        .select_related("battle")
        .order_by("battle__fought_on")
    )
    for participant in waiting:
        steps.setdefault(participant.battle.campaign_id, []).append(
            Step(
                f"Confirm or dispute the report of {participant.battle}",
                reverse("battle_detail", args=[participant.battle_id]),
            )
        )

    for sequence in waiting_for(user):
        battle = sequence.participant.battle
        steps.setdefault(battle.campaign_id, []).append(
            Step(
                f"Post-battle sequence waiting: {sequence.participant.warband.name} after "
                f"{battle.scenario} (step {min(sequence.current_step, 10)})",
                reverse("sequence_detail", args=[sequence.pk]),
            )
        )
    organised = [m.campaign_id for m in memberships if m.is_organiser]
    disputed = Battle.objects.filter(campaign_id__in=organised, status=Battle.Status.DISPUTED)
    for battle in disputed:
        steps[battle.campaign_id].append(
            Step(f"Settle the dispute over {battle}", reverse("battle_detail", args=[battle.pk]))
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
