"""What a page showing the game at an older version redraws to show it as it is now, and no
more: the rows of the warriors that changed, the summaries of the sides whose count out of
action or Rout test changed, the turn when the phase moved on (with the rows the phase
changes, for those who move that side), the lines of the log since, the dice log after a
roll, and the user's own Undo after his own changes of a warrior.

Read from ``Game.changes`` (``battles.helper.common.changed`` writes an entry per version) and
the log's lines stamped with their version, or from what a move just wrote
(``common.Recorded``), so that its answer reads back nothing it holds. None when the page is
too far behind, or a change redraws everything (a new turn: every row's buttons; a rout; the
end): the whole board then (``battles.helper.board``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from battles.helper.board import (
    EVENTS_SHOWN,
    PHASE_STATES,
    FighterView,
    Seats,
    SideView,
    fighter_view,
    fighters_of,
    rolls_of,
    side_view,
    undoable,
)
from battles.helper.common import Recorded
from battles.models import DiceRoll, Fighter, Game, GameEvent
from battles.rules import play


@dataclass
class Delta:
    """The pieces to redraw; the names the page's pieces read (``game``, ``current``,
    ``may_advance``, ``phases``, ``undoable``) as on ``board.Board``."""

    game: Game
    rows: list[FighterView] = field(default_factory=list)
    statuses: list[SideView] = field(default_factory=list)
    turn: bool = False
    current: SideView | None = None
    may_advance: bool = False
    events: list[GameEvent] = field(default_factory=list)  # newest first
    rolls: list[DiceRoll] | None = None
    undo: bool = False
    undoable: GameEvent | None = None
    phases: list[tuple[str, str]] = field(default_factory=lambda: list(play.PHASES.items()))


def entries_since(game: Game, version: int) -> list[dict] | None:
    """The entries of every change after ``version``, or None when the game no longer keeps
    them all (or one redraws everything)."""
    if not 0 < version < game.version:
        return None
    entries = [e for e in game.changes if e["v"] > version]
    if len(entries) != game.version - version or any(e.get("all") for e in entries):
        return None
    return entries


def since(game: Game, version: int, user, *, organiser: bool | None = None) -> Delta | None:
    """What changed after ``version``, for the poll of a page that shows it (``game`` as the
    poll read it; ``organiser``: whether the user is one of the campaign's, if known)."""
    entries = entries_since(game, version)
    if entries is None:
        return None
    events = list(
        # Not those of a change made since the game was read: the next poll sends them.
        GameEvent.objects.filter(
            game=game, version__gt=version, version__lte=game.version
        ).order_by("-pk")[: EVENTS_SHOWN + 1]
    )
    if len(events) > EVENTS_SHOWN:
        return None
    return _drawn(game, entries, Seats(game, user, organiser=organiser), events=events)


def of_move(record: Recorded, user) -> Delta | None:
    """What the moves just made changed, drawn from what they wrote."""
    if record.game is None or any(e.get("all") for e in record.entries):
        return None
    seats = Seats(record.game, user)
    return _drawn(record.game, record.entries, seats, events=record.events[::-1],
                  fighters=record.fighters)  # fmt: skip


def of_fighter(game: Game, fighter_id: int, user) -> Delta | None:
    """A warrior's row as it is (a refused move says why in it); None when no such warrior."""
    delta = _drawn(game, [{"f": [fighter_id]}], Seats(game, user), events=[])
    return delta if delta.rows else None


def _drawn(game: Game, entries: list[dict], seats: Seats, *, events, fighters=None) -> Delta:
    """The pieces ``entries`` name; ``fighters``, those held already. The rows' fighters are
    read in one query, with their sides' whole lists when a summary or the phase needs them."""
    user = seats.user
    fighters = dict(fighters or {})
    touched = {pk for e in entries for pk in e.get("f", ())}
    summed = {pk for e in entries for pk in e.get("s", ())}
    phased = {e["p"] for e in entries if "p" in e}
    missing = touched - fighters.keys()
    if summed or phased:
        read = fighters_of(game).select_related("side__participant__warband__warband_type")
        read = read.filter(Q(pk__in=missing) | Q(side_id__in=summed | phased)).order_by()
    elif missing:
        # (no warrior who took one out: a row of a warrior put out of action changes its side's
        # count too, and comes with the query above)
        read = Fighter.objects.filter(game=game, pk__in=missing).order_by()
        read = read.select_related("warrior__warrior_type", "side__participant__warband")
    else:
        read = []
    fighters.update((f.pk, f) for f in read)
    by_side: dict[int, list[Fighter]] = {}
    for f in fighters.values():
        by_side.setdefault(f.side_id, []).append(f)
    delta = Delta(game=game, events=events)
    rows = [fighters[pk] for pk in sorted(touched) if pk in fighters]
    for side_id in phased:  # the phase changes the rows of those who move the side
        if seats.mine(by_side[side_id][0].side):
            rows += [f for f in by_side[side_id] if f.state in PHASE_STATES
                     and f.pk not in touched]  # fmt: skip
    delta.rows = [fighter_view(game, f, seats.mine(f.side)) for f in rows]
    delta.statuses = [
        side_view(game, by_side[pk][0].side, by_side[pk], seats) for pk in sorted(summed)
    ]
    if phased:  # a phase moved on, in the turn of the side whose phase it is
        current = (
            next(
                (
                    by_side[pk][0].side
                    for pk in phased
                    if by_side[pk][0].side.position == game.player
                ),
                None,
            )
            or seats.current()
        )
        delta.turn, delta.may_advance = True, seats.mine(current)
        delta.current = SideView(current)
    # The side whose turn it is changed its count: a Rout test may now hold its Next phase.
    turns = next((v for v in delta.statuses if v.side.position == game.player), None)
    if turns is not None:
        delta.turn, delta.may_advance, delta.current = True, seats.mine(turns.side), turns
    if any(e.get("d") for e in entries):
        delta.rolls = rolls_of(game)
    if any(e.by_id == user.pk and e.kind == GameEvent.Kind.STATE for e in events):
        delta.undo = True  # his own change of a warrior, or its undoing: what he may undo now
        delta.undoable = undoable(events, user) or _latest_undoable(game, user)
    return delta


def _latest_undoable(game: Game, user) -> GameEvent | None:
    return (
        GameEvent.objects.filter(
            game=game, by=user, kind=GameEvent.Kind.STATE, before__isnull=False
        )
        .order_by("-pk")
        .first()
    )
