"""What the battle helper's page shows: the turn, each side with its models, their states and
the moves their own player may make, the Rout test when one is due, the log and the dice.

A handful of queries whatever the size of the warbands. Nothing of a treasury: the carried
containers on the table by their public names only (``battles.aftermath.carried_items``'
``table_labels``, the names everybody at the table uses)."""

from __future__ import annotations

from dataclasses import dataclass, field

from battles.aftermath.carried_items import table_labels
from battles.helper.moves import refusal
from battles.helper.rout import models_of, rerolls, rout_due
from battles.models import DiceRoll, Fighter, Game, GameEvent, GameSide
from battles.rules import play
from campaign import permissions
from warbands.models import StorageContainer

EVENTS_SHOWN = 40
ROLLS_SHOWN = 20
TAPS = (play.STANDING, play.KNOCKED_DOWN, play.STUNNED, play.FLEEING, play.HIDDEN)


@dataclass
class FighterView:
    fighter: Fighter
    mine: bool
    buttons: list[tuple[str, str]] = field(default_factory=list)
    may_rally: bool = False
    deeds: bool = False

    @property
    def state_label(self) -> str:
        return play.STATES[self.fighter.state]


@dataclass
class SideView:
    side: GameSide
    fighters: list[FighterView]
    mine: bool
    out: int
    total: int
    due: bool
    leadership: int
    rerolls: list
    carried: list[str]

    @property
    def warband(self):
        return self.side.participant.warband


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


def _view(game: Game, fighter: Fighter, mine: bool, own_turn: bool) -> FighterView:
    view = FighterView(fighter, mine)
    if not mine or fighter.is_out:
        return view
    if not fighter.hits_taken and not fighter.fall_height:
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
    return view


def board(game: Game, user) -> Board:
    """The page's view of the game for ``user`` (``game`` with its battle and campaign)."""
    campaign = game.battle.campaign
    sides = list(
        GameSide.objects.filter(game=game).select_related(
            "participant__warband__warband_type", "participant__warband__owner"
        )
    )
    # An organiser moves for every side, unless one of them is his (``acts_for_players``,
    # read here from the sides loaded).
    plays = any(s.participant.warband.owner_id == user.pk for s in sides)
    runs = permissions.can_run_campaign(user, campaign) and not plays
    fighters = list(
        Fighter.objects.filter(game=game).select_related(
            "warrior__warrior_type", "taken_out_by__warband"
        )
    )
    carried = _carried(campaign, [s.participant.warband_id for s in sides])
    views = []
    for side in sides:
        own = [f for f in fighters if f.side_id == side.pk]
        for f in own:
            f.side = side
        mine = not game.is_over and (side.participant.warband.owner_id == user.pk or runs)
        own_turn = side.position == game.player
        due = not game.is_over and rout_due(game, side, own)
        models = models_of(own)
        views.append(
            SideView(
                side=side,
                fighters=[_view(game, f, mine, own_turn) for f in own],
                mine=mine,
                out=sum(1 for f in own if f.is_out),
                total=len(own),
                due=due,
                leadership=play.rout_leadership(models),
                rerolls=rerolls(side, own) if side.rout_failed else [],
                carried=carried.get(side.participant.warband_id, []),
            )
        )
    # the player's own side first: on a phone it is the one he taps
    views.sort(key=lambda v: (v.side.participant.warband.owner_id != user.pk, v.side.position))
    current = next(v for v in views if v.side.position == game.player)
    events = list(
        GameEvent.objects.filter(game=game).select_related("by").order_by("-pk")[:EVENTS_SHOWN]
    )
    rolls = list(
        DiceRoll.objects.filter(battle_id=game.battle_id, secret=False)
        .select_related("warband", "rolled_by")
        .order_by("-pk")[:ROLLS_SHOWN]
    )
    return Board(
        game=game,
        sides=views,
        current=current,
        events=events,
        rolls=rolls,
        may_advance=not game.is_over and (current.warband.owner_id == user.pk or runs),
        plays=not game.is_over and (any(v.mine for v in views)),
        undoable=next(
            (e for e in events if e.by_id == user.pk and e.kind == "state" and e.before),
            None,
        ),
        phases=list(play.PHASES.items()),
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
