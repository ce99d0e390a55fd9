"""What every move of the battle helper shares: the game locked, who may act on what, the
game's log, its version and what each change touched (``changed``), which the pages read
back to redraw only that (``battles.helper.delta``)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

from battles.dice import dice_for
from battles.helper.permissions import check_side
from battles.models import Battle, DiceRoll, Fighter, Game, GameEvent, GameSide
from battles.permissions import check_open
from battles.rules import play
from campaign import cache
from campaign.permissions import members_only
from core.errors import RuleViolation
from core.queries import one

# What the game keeps of its latest changes: a page further behind is drawn whole again.
KEPT_CHANGES = 20
_recording = threading.local()


@dataclass
class Recorded:
    """What the moves made inside ``recording`` wrote: the game as they left it, each change's
    entry, the lines they logged (oldest first) and the fighters they read and changed."""

    game: Game | None = None
    entries: list[dict] = field(default_factory=list)
    events: list[GameEvent] = field(default_factory=list)
    fighters: dict[int, Fighter] = field(default_factory=dict)


@contextmanager
def recording():
    """Keep what the moves made in the block wrote, so that the page's answer is drawn from
    the objects themselves instead of reading them back (``battles.helper.views``)."""
    _recording.current = Recorded()
    try:
        yield _recording.current
    finally:
        _recording.current = None


def _recorded() -> Recorded | None:
    return getattr(_recording, "current", None)


def locked(battle_id: int, actor) -> Game:
    """The game, its row locked until the transaction ends: moves on one game run one at a
    time, each reading what the one before left. Found only for the members of its campaign,
    in the same statement (``members_only``): to anyone else it is a game that does not
    exist, and the page answers so (``battles.helper.views``). The game's rows have a version
    of their own (``changed``); the battle's changes only with its dice log (``log``)."""
    game = one(
        members_only(Game.objects.filter(battle_id=battle_id), actor)
        .select_for_update(of=("self",), no_key=True)
        .select_related("battle__campaign")
    )
    if game is None:
        raise RuleViolation("This battle is not being played with the battle helper.")
    if game.is_over or game.battle.status != Battle.Status.PLAYING:
        raise RuleViolation("The game is over: its report is on the battle's page.")
    check_open(game.battle.campaign)
    return game


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
    fighter = one(
        Fighter.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior__warrior_type", "side__participant__warband")
        .filter(game=game, pk=fighter_id)
    )
    if fighter is None:
        raise RuleViolation("No such warrior in this game.")
    check_side(actor, game, fighter.side)
    record = _recorded()
    if record is not None:
        record.fighters[fighter.pk] = fighter
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
    if rolls:
        DiceRoll.objects.bulk_create(rolls)
        cache.changed(battle=game.battle_id)  # the battle page's dice log
    event = GameEvent.objects.create(
        game=game, turn=game.turn, kind=kind, side=side or (fighter.side if fighter else None),
        fighter=fighter, text=text[:300], loot=loot, amount=amount, by=actor, before=before,
        version=game.version + 1,
    )  # fmt: skip
    record = _recorded()
    if record is not None:
        record.events.append(event)
    return event


def changed(
    game: Game,
    *,
    fighters=(),
    sides=(),
    phase_of=None,
    dice: bool = False,
    whole: bool = False,
) -> None:
    """The game's version goes up (``game`` is the locked one: its row is written as it is
    now), with what the change touched, so that every page showing the game redraws just that
    at its next poll: ``fighters``' rows, ``sides``' counts and Rout test prompts, the turn
    when ``phase_of`` (the side whose phase it is: its rows that the phase changes too), the
    dice log, or ``whole``, everything (a new turn, a rout, the end)."""
    game.version += 1
    entry: dict = {"v": game.version}
    for key, ids in (("f", {f.pk for f in fighters}), ("s", {s.pk for s in sides})):
        if ids:
            entry[key] = sorted(ids)
    if phase_of is not None:
        entry["p"] = phase_of.pk
    if dice:
        entry["d"] = 1
    if whole:
        entry["all"] = 1
    game.changes = [*game.changes, entry][-KEPT_CHANGES:]
    game.save(update_fields=["version", "changes"])
    record = _recorded()
    if record is not None:
        record.game = game
        record.entries.append(entry)


def shows_on_side(game: Game, side: GameSide, old: str, new: str) -> bool:
    """A warrior's change of state shows on his side's summary: the count out of action, and
    in its own turn the Rout test's prompt and Leadership, which stunned and out-of-action
    models change (``battles.rules.play.must_test``, ``rout_leadership``)."""
    if old == new:
        return False
    if play.OUT_OF_ACTION in (old, new):
        return True
    return side.position == game.player and play.STUNNED in (old, new)


def enemy_taking_out(game: Game, fighter: Fighter, by_id: int | None) -> int:
    """The enemy warrior (by his id) said to have taken ``fighter`` out of action: one on the
    table, of another side."""
    on_table = Fighter.objects.filter(game=game, warrior_id=by_id).exclude(side=fighter.side)
    if by_id is None or not on_table.exists():
        raise RuleViolation(f"Say which enemy warrior took {fighter.name} out of action.")
    return by_id


def changed_fighter(game: Game, fighter: Fighter, old: str, *, dice: bool = False) -> None:
    """His row changes; his side's summary too when his state shows on it (``old``: his state
    before)."""
    side = [fighter.side] if shows_on_side(game, fighter.side, old, fighter.state) else []
    changed(game, fighters=[fighter], sides=side, dice=dice)


def dice(game: Game, entered: str, side: GameSide | None, actor):
    """The server's dice or the faces typed, every roll in the battle's dice log."""
    return dice_for(
        game.battle, entered=entered, warband=side.participant.warband if side else None,
        user=actor,
    )  # fmt: skip


def is_turn_of(game: Game, side: GameSide) -> bool:
    return side.position == game.player
