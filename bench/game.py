"""A game under way in the battle helper, for the benchmark's helper rows: two warbands of the
league on the table, their players tapping, four viewers polling (bench/viewers.py).

The taps put a standing warrior knocked down and undo it, so the game stays as it was: its
version grows, nothing else.
"""

from __future__ import annotations

from django.utils import timezone

from battles.helper.start import start_game
from battles.models import Fighter, Game, GameSide
from battles.rules import play
from campaign.models import Membership
from warbands.models import Warband

TAPPED = 4  # standing warriors each player taps in turn


def start_helper_game(campaign) -> int:
    """The game of the league's two last warbands (no writer's, nor the league's player's), as
    their first player starts it; its battle's id."""
    first, second = Warband.objects.filter(campaign=campaign).order_by("-pk")[:2]
    battle = start_game(actor=first.owner, campaign=campaign, warband_ids=[first.pk, second.pk],
                        scenario_key="skirmish", fought_on=timezone.localdate())  # fmt: skip
    return battle.pk


def helper_of(campaign, player: str) -> dict | None:
    """The game under way: its battle, each side's player with ``TAPPED`` of his standing
    warriors, and four viewers (both players, an organiser and the league's player). None
    when the league has no game under way."""
    game = (
        Game.objects.filter(battle__campaign=campaign, ended_at__isnull=True).order_by("pk").first()
    )
    if game is None:
        return None
    tappers = []
    for side in GameSide.objects.filter(game=game).select_related("participant__warband__owner"):
        standing = Fighter.objects.filter(side=side, state=play.STANDING).order_by("pk")
        fighters = list(standing.values_list("pk", flat=True)[:TAPPED])
        tappers.append({"username": side.participant.warband.owner.username, "fighters": fighters})
    organiser = (
        Membership.objects.filter(campaign=campaign, is_organiser=True)
        .order_by("pk")
        .values_list("user__username", flat=True)
        .first()
    )
    viewers = [t["username"] for t in tappers] + [organiser, player]
    return {"battle_id": game.battle_id, "tappers": tappers, "viewers": viewers}
