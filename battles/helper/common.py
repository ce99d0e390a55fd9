"""What every move of the battle helper shares: the game locked, who may act on what, the
game's log and its version."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import F

from battles.dice import dice_for
from battles.models import Battle, DiceRoll, Fighter, Game, GameEvent, GameSide
from battles.permissions import acts_for_players
from core.errors import RuleViolation


def locked(battle_id: int) -> Game:
    """The game, its row locked until the transaction ends: moves on one game run one at a
    time, each reading what the one before left."""
    game = (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("battle__campaign")
        .filter(battle_id=battle_id)
        .first()
    )
    if game is None:
        raise RuleViolation("This battle is not being played with the battle helper.")
    if game.is_over or game.battle.status != Battle.Status.PLAYING:
        raise RuleViolation("The game is over: its report is on the battle's page.")
    if not game.battle.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    return game


def may_run(user, game: Game) -> bool:
    """An organiser moves any side's warriors and turns, unless he plays in the game
    (``battles.permissions.acts_for_players``)."""
    return acts_for_players(user, game.battle)


def check_side(user, game: Game, side: GameSide) -> None:
    """A side's own player acts for it, or an organiser."""
    if side.participant.warband.owner_id != user.pk and not may_run(user, game):
        raise PermissionDenied("Each player moves his own warriors (or an organiser, for him).")


def plays_in(user, game: Game) -> bool:
    return game.sides.filter(participant__warband__owner=user).exists() or may_run(user, game)


def side_of(game: Game, side_id: int) -> GameSide:
    side = (
        GameSide.objects.select_related("participant__warband__warband_type")
        .filter(game=game, pk=side_id)
        .first()
    )
    if side is None:
        raise RuleViolation("No such side in this game.")
    return side


def current_side(game: Game) -> GameSide:
    return (
        GameSide.objects.select_related("participant__warband__warband_type")
        .filter(game=game, position=game.player)
        .get()
    )


def fighter_of(game: Game, fighter_id: int, actor) -> Fighter:
    """One of the game's fighters, locked, for its own player (or an organiser)."""
    fighter = (
        Fighter.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior", "side__participant__warband__warband_type")
        .filter(game=game, pk=fighter_id)
        .first()
    )
    if fighter is None:
        raise RuleViolation("No such warrior in this game.")
    check_side(actor, game, fighter.side)
    return fighter


def log(
    game: Game,
    text: str,
    *,
    kind: str,
    actor,
    side=None,
    fighter=None,
    loot="",
    amount=0,
    before=None,
    rolls=(),
) -> GameEvent:
    """Write what happened in the game's log; ``rolls``, held unsaved while they were rolled
    (``battles.dice.holding_rolls``), go into the battle's dice log with it as what they
    decided."""
    for roll in rolls:
        roll.result = text[:300]
    DiceRoll.objects.bulk_create(rolls)
    return GameEvent.objects.create(
        game=game, turn=game.turn, kind=kind, side=side or (fighter.side if fighter else None),
        fighter=fighter, text=text[:300], loot=loot, amount=amount, by=actor, before=before,
    )  # fmt: skip


def changed(game: Game) -> None:
    """Every page showing the game fetches it again at its next poll."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)


def dice(game: Game, entered: str, side: GameSide | None, actor):
    """The server's dice or the faces typed, every roll in the battle's dice log."""
    return dice_for(
        game.battle, entered=entered, warband=side.participant.warband if side else None,
        user=actor,
    )  # fmt: skip


def is_turn_of(game: Game, side: GameSide) -> bool:
    return side.position == game.player
