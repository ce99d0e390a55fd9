"""Setting how the campaign's league table ranks its warbands (the campaign's points and
tie-breakers): only its organisers, only while it runs. The table reads them from the
campaign's row, so a change shows at once."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaign import cache
from campaign.models import Campaign, CampaignEvent
from campaign.rules.standings import TIE_BREAKERS
from campaign.services import record_event, require_organiser
from core.errors import RuleViolation

MOST_POINTS = 99  # for any one result: enough for any scheme, small enough to read
POINTS = ("win_points", "draw_points", "loss_points", "played_points")


def describe(campaign: Campaign) -> str:
    """The campaign's ranking in a line, for the feed and the league table's page."""
    order = [TIE_BREAKERS[key].split(" (")[0].lower() for key in campaign.tie_breaker_order]
    line = (
        f"{campaign.win_points} points for a win, {campaign.draw_points} for a draw, "
        f"{campaign.loss_points} for a loss"
    )
    if campaign.played_points:
        line += f", plus {campaign.played_points} for playing"
    ties = ", then ".join([*order, "name"])
    return f"{line}; ties broken by {ties}"


@transaction.atomic
def set_standings_rules(
    campaign: Campaign,
    *,
    actor,
    win_points: int,
    draw_points: int,
    loss_points: int,
    played_points: int,
    tie_breakers: Sequence[str],
) -> Campaign:
    """Store the campaign's points and tie-breakers, refusing any points negative or over
    ``MOST_POINTS``, and a tie-breaker unknown or chosen twice; the feed tells every player
    the new rules under the organiser's name."""
    require_organiser(actor, campaign)
    points = dict(zip(POINTS, (win_points, draw_points, loss_points, played_points), strict=True))
    for name, value in points.items():
        if not 0 <= value <= MOST_POINTS:
            raise RuleViolation(f"Points run from 0 to {MOST_POINTS}.", field=name)
    if any(key not in TIE_BREAKERS for key in tie_breakers):
        raise RuleViolation("That is not a tie-breaker the table knows.")
    if len(set(tie_breakers)) != len(tie_breakers):
        raise RuleViolation("Each tie-breaker may be chosen once.")
    stored = Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
    fields = {**points, "tie_breakers": ",".join(tie_breakers)}
    for name, value in fields.items():
        setattr(stored, name, value)
        setattr(campaign, name, value)
    stored.save(update_fields=list(fields))
    record_event(
        campaign,
        CampaignEvent.Kind.CAMPAIGN,
        f"{actor.username} set the league table's rules: {describe(campaign)}.",
    )
    cache.changed(campaign=campaign)
    return campaign
