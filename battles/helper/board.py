"""What the battle helper's page shows: the turn, each side with its models, their states and
the moves their own player may make, the Rout test when one is due, the log and the dice.

The whole board, for a page opened and for one too far behind to be sent only what changed
(``battles.helper.delta`` draws those pieces with the same views: ``fighter_view``,
``side_view``, ``Seats``). A handful of queries whatever the size of the warbands. Nothing of
a treasury: the carried containers on the table by their public names only
(``battles.aftermath.carried_items``' ``table_labels``, the names everybody at the table
uses)."""

from __future__ import annotations

from dataclasses import dataclass, field

from battles.aftermath.carried_items import table_labels
from battles.helper.animosity import animosity_due, subjects
from battles.helper.moves import refusal
from battles.helper.rout import may_rout, models_of, rerolls, rout_due, rout_first
from battles.models import DiceRoll, Fighter, Game, GameEvent, GameSide
from battles.rules import play
from campaign import permissions
from warbands.models import StorageContainer

EVENTS_SHOWN = 40
ROLLS_SHOWN = 20
TAPS = (play.STANDING, play.KNOCKED_DOWN, play.STUNNED, play.FLEEING, play.HIDDEN)
# The only rows the phase changes, and only for those who move the side: a knocked-down
# warrior stands up in his recovery phase, a fleeing one rallies in it (``fighter_view``).
PHASE_STATES = (play.KNOCKED_DOWN, play.FLEEING)


@dataclass
class FighterView:
    fighter: Fighter
    mine: bool
    buttons: list[tuple[str, str]] = field(default_factory=list)
    may_rally: bool = False
    deeds: bool = False
    may_wound: bool = False  # a wound to lose with no roll, tapped on his row

    @property
    def state_label(self) -> str:
        return play.STATES[self.fighter.state]


@dataclass
class SideView:
    side: GameSide
    fighters: list[FighterView] = field(default_factory=list)
    mine: bool = False
    out: int = 0
    total: int = 0
    due: bool = False
    may_rout: bool = False  # of its own accord, with no test due (Occupy)
    leadership: int = 0
    rerolls: list = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    animosity: list[Fighter] = field(default_factory=list)  # to roll for, as its turn begins

    @property
    def warband(self):
        return self.side.participant.warband

    @property
    def waits_for(self) -> str:
        """Why its turn cannot move on yet (a Rout test due), or nothing."""
        return rout_first(self.side) if self.due else ""


@dataclass
class Board:
    game: Game
    sides: list[SideView]
    current: SideView
    events: list[GameEvent]
    rolls: list[DiceRoll]
    may_advance: bool
    plays: bool
    undoable: GameEvent | None
    phases: list[tuple[str, str]]

    @property
    def phase_label(self) -> str:
        return play.PHASES[self.game.phase]


def _label(state: str, old: str) -> str:
    if state == play.STANDING:
        return {play.KNOCKED_DOWN: "Stand up", play.HIDDEN: "Reveal"}.get(old, "Standing")
    return play.STATES[state]


def fighter_view(game: Game, fighter: Fighter, mine: bool) -> FighterView:
    """A warrior's row (``fighter.side`` loaded): for those who move him, what the rules let
    them tap now."""
    view = FighterView(fighter, mine)
    if not mine or fighter.is_out:
        return view
    own_turn = fighter.side.position == game.player
    if not fighter.fall_height:
        view.buttons = [
            (state, _label(state, fighter.state))
            for state in TAPS
            if not refusal(game, fighter, state)
        ]
    view.may_rally = (
        fighter.state == play.FLEEING
        and own_turn
        and game.phase == "recovery"
        and fighter.rally_turn != game.turn
    )
    view.deeds = own_turn and fighter.state in (play.STANDING, play.HIDDEN)
    view.may_wound = not fighter.fall_height and fighter.wounds_left > 1
    return view


class Seats:
    """Who moves which side for ``user``: each player his own; an organiser every side,
    unless one of them is his (``acts_for_players``, read here from the game's sides). Asked
    of what is not known only when it matters: ``organiser``, whether the user is one (None:
    read from his membership); ``sides``, all of them (None: read when needed). Nobody moves
    anything once the game is over."""

    def __init__(self, game: Game, user, sides: list[GameSide] | None = None, *,
                 organiser: bool | None = None) -> None:  # fmt: skip
        self.game, self.user, self._sides, self.organiser = game, user, sides, organiser
        self._runs: bool | None = None

    @property
    def sides(self) -> list[GameSide]:
        if self._sides is None:
            self._sides = sides_of(self.game)
        return self._sides

    @property
    def runs(self) -> bool:
        if self._runs is None:
            self._runs = (
                self.organiser is not False
                and not any(s.participant.warband.owner_id == self.user.pk for s in self.sides)
                and permissions.can_run_campaign(self.user, self.game.battle.campaign)
            )
        return self._runs

    def mine(self, side: GameSide) -> bool:
        if self.game.is_over:
            return False
        return side.participant.warband.owner_id == self.user.pk or self.runs

    def current(self) -> GameSide:
        return next(s for s in self.sides if s.position == self.game.player)


def sides_of(game: Game, *related: str) -> list[GameSide]:
    return list(
        GameSide.objects.filter(game=game).select_related(
            "participant__warband__warband_type", *related
        )
    )


def fighters_of(game: Game):
    """The game's fighters, with what their rows and their sides' summaries show."""
    return Fighter.objects.filter(game=game).select_related(
        "warrior__warrior_type", "taken_out_by__warband"
    )


def side_view(game: Game, side: GameSide, own: list[Fighter], seats: Seats, carried=()) -> SideView:
    """A side's summary (its count out of action, the Rout test when it is due) and rows."""
    mine = seats.mine(side)
    for f in own:
        f.side = side
    return SideView(
        side=side,
        fighters=[fighter_view(game, f, mine) for f in own],
        mine=mine,
        out=sum(1 for f in own if f.is_out),
        total=len(own),
        due=not game.is_over and rout_due(game, side, own),
        may_rout=not game.is_over and may_rout(game, side, own),
        leadership=play.rout_leadership(models_of(own)),
        rerolls=rerolls(side, own) if side.rout_failed else [],
        carried=list(carried),
        animosity=subjects(own) if animosity_due(game, side, own) else [],
    )


def undoable(events, user) -> GameEvent | None:
    """The user's latest change of a warrior still to undo, among ``events`` (newest first)."""
    return next((e for e in events if e.by_id == user.pk and e.kind == "state" and e.before), None)


def board(game: Game, user) -> Board:
    """The page's view of the game for ``user`` (``game`` with its battle and campaign)."""
    sides = sides_of(game, "participant__warband__owner")
    seats = Seats(game, user, sides)
    fighters = list(fighters_of(game))
    carried = _carried(game.battle.campaign, [s.participant.warband_id for s in sides])
    views = [
        side_view(game, side, [f for f in fighters if f.side_id == side.pk], seats,
                  carried.get(side.participant.warband_id, []))
        for side in sides
    ]  # fmt: skip
    # the player's own side first: on a phone it is the one he taps
    views.sort(key=lambda v: (v.side.participant.warband.owner_id != user.pk, v.side.position))
    current = next(v for v in views if v.side.position == game.player)
    events = list(GameEvent.objects.filter(game=game).order_by("-pk")[:EVENTS_SHOWN])
    return Board(
        game=game,
        sides=views,
        current=current,
        events=events,
        rolls=rolls_of(game),
        may_advance=seats.mine(current.side),
        plays=any(v.mine for v in views),
        undoable=undoable(events, user),
        phases=list(play.PHASES.items()),
    )


def rolls_of(game: Game) -> list[DiceRoll]:
    """The battle's latest public rolls, for the dice log."""
    return list(
        DiceRoll.objects.filter(battle_id=game.battle_id, secret=False)
        .select_related("warband", "rolled_by")
        .order_by("-pk")[:ROLLS_SHOWN]
    )


def _carried(campaign, warband_ids: list[int]) -> dict[int, list[str]]:
    """Each warband's carried containers on the table, by their public names (MiM)."""
    if not campaign.mim_carried_items:
        return {}
    containers = list(
        StorageContainer.objects.real()
        .filter(warband_id__in=warband_ids, parent__isnull=True)
        .exclude(kind="pouch")
        .order_by("pk")
    )
    shown: dict[int, list[str]] = {}
    for warband_id in warband_ids:
        own = [c for c in containers if c.warband_id == warband_id]
        labels = table_labels(own)
        shown[warband_id] = [labels[c.pk] for c in own]
    return shown


def enemies_of(game: Game, fighter: Fighter) -> list:
    """The enemy warriors who may have taken ``fighter`` out of action (one per warrior)."""
    seen, warriors = set(), []
    for f in (
        Fighter.objects.filter(game=game)
        .exclude(side=fighter.side)
        .select_related("warrior__warband")
        .order_by("side__position", "-warrior__is_leader", "-warrior__is_hero", "warrior_id")
    ):
        if f.warrior_id not in seen:
            seen.add(f.warrior_id)
            warriors.append(f.warrior)
    return warriors


def carried_labels(game: Game) -> list[str]:
    """Every carried container on the table, "Large Sack 2 of Scourge", for loot."""
    sides = GameSide.objects.filter(game=game).select_related("participant__warband")
    names = {s.participant.warband_id: s.participant.warband.name for s in sides}
    carried = _carried(game.battle.campaign, list(names))
    return [f"{label} of {names[w]}" for w, labels in carried.items() for label in labels]
