"""Who moves what in the battle helper: each side's own player moves its warriors and turns
on, an organiser any side unless he plays in the game himself
(``battles.permissions.acts_for_players``); the game's players and organisers write in its
log and end it; a player starts a game his warband plays in, an organiser any game of his
campaign."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from battles.models import Game, GameSide
from battles.permissions import acts_for_players, check_open
from campaign.permissions import is_organiser
from core.words import possessive


def may_run(user, game: Game) -> bool:
    """An organiser moves any side's warriors and turns, unless he plays in the game."""
    return acts_for_players(user, game.battle)


def plays_in(user, game: Game) -> bool:
    return game.sides.filter(participant__warband__owner=user).exists() or may_run(user, game)


def check_side(user, game: Game, side: GameSide) -> None:
    """A side's own player acts for it, or an organiser."""
    if side.participant.warband.owner_id != user.pk and not may_run(user, game):
        raise PermissionDenied("Each player moves his own warriors (or an organiser, for him).")


def check_turn(user, game: Game, side: GameSide) -> None:
    """The player whose turn it is moves it on (or an organiser)."""
    if side.participant.warband.owner_id != user.pk and not may_run(user, game):
        raise PermissionDenied(
            f"{possessive(side.participant.warband.name)} player moves his turn on "
            "(or an organiser)."
        )


def check_plays(user, game: Game, refusal: str) -> None:
    if not plays_in(user, game):
        raise PermissionDenied(refusal)


def check_starts(user, campaign, *, plays: bool) -> None:
    """``plays``: one of the game's warbands is the user's."""
    check_open(campaign)
    if not plays and not is_organiser(user, campaign):
        raise PermissionDenied("Start games your own warband plays in.")
