"""The battle helper's pages: start a game, the live page, its board (polled), a warrior's
panel of tests and deeds, and the moves.

Live, by polling: the page asks for its board every ``BATTLE_HELPER_POLL_SECONDS`` (a second
unless the settings say otherwise) with the version it shows (``?v=``). While the game has not
changed the answer is an empty 204, which htmx leaves alone (three small queries: the session,
the user, the version). After a change it is only what changed since that version, as pieces
swapped out of band by their ids (the rows of the warriors that changed, the sides' counts and
Rout prompts, the turn, the new lines of the log, the dice log, and the page's new version:
``battles.helper.delta``); a page too far behind, or after a change that redraws everything (a
new turn, a rout, the end), is sent the whole board.
No connection stays open, so any number of viewers share the ordinary workers of ``make run``
or gunicorn.

Thin views: a move is a ``MoveForm`` whose ``action`` picks one service of ``battles.helper``.
For htmx its answer is what the move changed, drawn from what it wrote (``common.recording``)
with what happened (or the whole board after a change of turn); the page's version
(``shown``) comes with the move, so that a page that had missed a change is left to catch up
at its next poll. A refusal (422) changes nothing and says why next to what was sent: in the
warrior's row, in the panel, or above the board; the warrior's panel is closed once its move
is made.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from battles.forms import rolled_key, scenario_picker
from battles.helper import animosity, checks, delta, end, moves, rout, start, wounds
from battles.helper.board import board, carried_labels, enemies_of
from battles.helper.common import recording
from battles.helper.forms import (
    ROW_ID,
    AnimosityForm,
    EndForm,
    MoveForm,
    NoteForm,
    RollForm,
    StartForm,
    panel_forms,
)
from battles.models import Fighter, Game
from battles.permissions import get_battle_for_user
from battles.rules import play
from battles.schedule import starting
from campaign.permissions import get_campaign_for_user, members_only
from core.dice import DiceError
from core.errors import RuleViolation
from core.queries import one
from warbands.models import Warband


@require_http_methods(["GET", "POST"])
def play_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a game: the scenario and the warbands in turn order."""
    campaign = get_campaign_for_user(request, pk, write=True)
    warbands = list(
        Warband.objects.in_campaign(campaign).playing().select_related("owner").order_by("name")
    )
    data = request.POST if request.method == "POST" else None
    own = next((w.pk for w in warbands if w.owner_id == request.user.pk), None)
    picked = scenario_picker(request, campaign, back="play")
    initial = {
        "fought_on": timezone.localdate(),
        "first": own,
        "scenario_key": rolled_key(request) or "skirmish",
    }
    # a planned game (``?fixture=``, then a hidden field) fills in its warbands and scenario
    planned = starting.planned(campaign, (data or request.GET).get("fixture"))
    if planned.fixture is not None:
        initial.update(planned.form)
        seats = ("first", "second", "third", "fourth")
        initial.update(zip(seats, planned.fixture.warband_ids, strict=False))
    form = StartForm(data, warbands=warbands, initial=initial, shown=picked["shown"])
    error = planned.problem
    if data is not None and form.is_valid() and not error:
        values = form.cleaned_data
        try:
            battle = start.start_game(
                actor=request.user, campaign=campaign, warband_ids=form.warband_ids(),
                scenario_key=values["scenario_key"], scenario=values["scenario"],
                fought_on=values["fought_on"], random_fortune=values["random_fortune"],
                fixture_id=planned.fixture_id,
            )  # fmt: skip
        except RuleViolation as refusal:
            error = str(refusal)
        else:
            return redirect("play_page", battle.pk)
    return render(
        request,
        "battles/helper/start.html",
        {
            "campaign": campaign,
            "form": form,
            "error": error,
            "warbands": warbands,
            "fixture": planned.fixture,
            **picked,
        },
        status=422 if data is not None else 200,
    )


def _game(request: HttpRequest, pk: int) -> Game:
    battle = get_battle_for_user(request, pk)
    game = Game.objects.filter(battle=battle).first()
    if game is None:
        raise Http404("This battle was not played with the battle helper.")
    game.battle = battle
    return game


def _context(
    request, game: Game, *, note="", error="", fighter_id=None, whole=True, drawn=None
) -> dict:
    """The page's context; ``drawn``: the board when the caller has drawn it already."""
    if drawn is None and whole:
        drawn = board(game, request.user)
    return {
        "board": drawn,
        # the forms the board draws (drawn lazily: an answer of changes draws few of them)
        "note_fields": NoteForm,
        "roll_form": RollForm,
        "rout_form": lambda: RollForm(testid="rout-dice"),
        "animosity_forms": lambda: {
            s.side.pk: AnimosityForm(fighters=s.animosity) for s in drawn.sides if s.animosity
        },
        "end_form": lambda: EndForm(sides=drawn.sides),
        "move": _move_url(game),
        "note": note,
        "error": error,
        "error_fighter": fighter_id if error else None,
        "poll": settings.BATTLE_HELPER_POLL_SECONDS,
    }


@require_GET
def play_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk)
    return render(request, "battles/helper/play.html", {"game": game, **_context(request, game)})


# What the poll reads of the game, in the statement that checks the user's membership.
POLLED = ("battle_id", "turn", "player", "phase", "version", "changes", "ended_at")


@require_GET
def play_board(request: HttpRequest, pk: int) -> HttpResponse:
    """What changed since the version the page shows (``?v=``), 204 while nothing did, or
    the whole board. The game is read only for the campaign's members, in the statement
    that checks it (``members_only``), with whether the user is one of its organisers: to
    anyone else a game answers as one that does not exist."""
    game = one(
        members_only(Game.objects.filter(battle_id=pk), request.user)
        .only(*POLLED)
        .annotate(organiser=F("battle__campaign__memberships__is_organiser"))
    )
    if game is None:
        raise Http404("No such battle.")
    shown = request.GET.get("v", "")
    if shown == str(game.version):
        return HttpResponse(status=204)
    changes = None
    if request.htmx and ROW_ID.fullmatch(shown):
        changes = delta.since(game, int(shown), request.user, organiser=game.organiser)
    if changes is None:
        game = _game(request, pk)
        if not request.htmx:
            context = {"game": game, **_context(request, game)}
            return render(request, "battles/helper/play.html#board", context)
    return _answer(request, game, changes)


def _answer(request, game: Game, changes, *, status=200, note="", error="", fighter_id=None,
            **context) -> HttpResponse:  # fmt: skip
    """An htmx answer of the board: ``changes`` (a ``delta.Delta``), or the whole board when
    there are none to send, with what happened or why not."""
    said = _context(request, game, note=note, error=error, fighter_id=fighter_id,
                    whole=changes is None)  # fmt: skip
    if changes is None:
        said["board_oob"] = True
    else:
        said.update(board=changes, delta=True)
    return render(request, "battles/helper/play.html#answer", {"game": game, **said, **context},
                  status=status)  # fmt: skip


def _move_url(game: Game) -> str:
    """Where every form of the page posts its move (reversed once, not once a form)."""
    return reverse("play_move", args=[game.battle_id])


def _panel(request, game: Game, fighter_pk: int, drawn=None) -> dict | None:
    """The panel of one of the user's warriors, or None when he is not the user's. It is
    found on the board (``drawn``, when the caller needs the board too)."""
    if drawn is None:
        drawn = board(game, request.user)
    view = next((f for s in drawn.sides for f in s.fighters if f.fighter.pk == fighter_pk), None)
    if view is None:
        raise Http404("No such warrior in this game.")
    if not view.mine:
        return None
    causes = [c for c in Fighter.Cause.choices if c[0] != "enemy"]
    reach = checks.leader_reach(view.fighter.side_id) if view.may_rally else play.LEADER_REACH
    return {
        "view": view,
        "forms": panel_forms(
            view.fighter, enemies=enemies_of(game, view.fighter), causes=causes, reach=reach
        ),
        "carried": carried_labels(game),
        "move": _move_url(game),
    }


@require_GET
def play_panel(request: HttpRequest, pk: int, fighter_pk: int) -> HttpResponse:
    """One of the user's warriors: his tests, his fall, out of action, loot."""
    game = _game(request, pk)
    closed = request.GET.get("close")
    # the whole page, the panel open, draws the board once for both
    drawn = None if request.htmx or closed else board(game, request.user)
    panel = None if closed else _panel(request, game, fighter_pk, drawn)
    if panel is None:
        return render(request, "battles/helper/play.html#panel", {"closed": True})
    if not request.htmx:
        context = {"game": game, **_context(request, game, drawn=drawn), **panel}
        return render(request, "battles/helper/play.html", context)
    return render(request, "battles/helper/play.html#panel", {"game": game, **panel})


def _move(form: MoveForm, pk: int, actor) -> str:
    """Make the move the form names; what happened, as the page says it."""
    data = form.cleaned_data
    action, fighter = data["action"], data["fighter"]
    needs_fighter = action in ("state", "mark", "rally", "test", "fall", "loot", "wound")
    if needs_fighter and not fighter:
        raise RuleViolation("Pick a warrior.")
    if action in ("rout_test", "reroll", "rout", "animosity") and not data["side"]:
        raise RuleViolation("Pick a warband.")
    dice, side = data["dice"], data["side"]
    match action:
        case "state":
            cause, by_id = form.what_took_out()
            moved = moves.set_state(pk, fighter, data["state"], actor=actor, cause=cause,
                                    by_id=by_id)  # fmt: skip
            return f"{moved.name}: {play.STATES[moved.state].lower()}."
        case "wound":
            cause, by_id = form.what_took_out()
            moved = wounds.wound(pk, fighter, cause=cause, by_id=by_id, entered=dice,
                                 actor=actor)  # fmt: skip
            if moved.wounds_left:
                return f"{moved.name}: {moved.wounds_left} of {moved.wounds} wounds left."
            return f"{moved.name}: {play.STATES[moved.state].lower()}."
        case "mark":
            moved = moves.mark(pk, fighter, data["deed"], doing=data["doing"], actor=actor)
            return f"{moved.name}: noted."
        case "rally":
            moved = checks.rally(
                pk, fighter, nearest_is_enemy=data["nearest_is_enemy"],
                near_leader=data["near_leader"], entered=dice, actor=actor,
            )  # fmt: skip
            rallied = moved.state != play.FLEEING
            return f"{moved.name} {'rallies' if rallied else 'flees on'}."
        case "test":
            result = checks.initiative_test(pk, fighter, data["test"], height=data["height"] or 0,
                                            entered=dice, actor=actor)  # fmt: skip
            return "Passed." if result.passed else "Failed."
        case "fall":
            fell = wounds.fall(pk, fighter, height=data["height"], entered=dice, actor=actor)
            hits, hurt = fell.hits, fell.wounds
            return f"{hits} hit{'s' if hits > 1 else ''}, {hurt} wound{'s' if hurt != 1 else ''}."
        case "rout_test":
            rout.take_rout_test(pk, side, entered=dice, actor=actor)
            return "The Rout test is taken."
        case "reroll":
            rout.reroll(pk, side, data["reroll"], entered=dice, actor=actor)
            return "The Rout test is re-rolled."
        case "rout":
            rout.rout(pk, side, actor=actor)
            return "The warband routs."
        case "animosity":
            offended = animosity.roll(pk, side, spared=data["spared"], entered=dice, actor=actor)
            return f"Animosity rolled: {len(offended) or 'none'} took offence."
        case "next_phase":
            moves.next_phase(pk, actor=actor, seen=data["seen"])
            return ""
        case "undo":
            if not data["event"]:
                raise RuleViolation("Say which change to undo.")
            return f"Undone: {moves.undo(pk, data['event'], actor=actor)}"
        case "loot":
            moves.pick_up(pk, fighter, loot=data["loot"], amount=data["amount"] or 1,
                          what=data["what"], actor=actor)  # fmt: skip
            return "Picked up."
        case "note":
            moves.note(pk, data["text"], actor=actor)
            return "Noted."
        case _:
            if not data["winner"]:
                raise RuleViolation("Say who won, or that it was a draw.")
            end.end_game(pk, actor=actor, winner_id=form.winner_id())
            return ""  # the board's own line says so, with the way to the report


@require_POST
def play_move(request: HttpRequest, pk: int) -> HttpResponse:
    """A move. The game is read (and locked) by the move's service, for the campaign's
    members only (``common.locked``): a refused move, and only then, reads it again here to
    answer a stranger as for a game that does not exist."""
    form = MoveForm(request.POST)
    note, error, record = "", "", None
    if not form.is_valid():
        name, problems = next(iter(form.errors.items()))
        error = f"{form.fields[name].label or name}: {problems[0]}"
    else:
        try:
            with recording() as record:
                note = _move(form, pk, request.user)
        except (RuleViolation, DiceError, PermissionDenied) as refusal:
            error = str(refusal)
    fighter_id = form.cleaned_data.get("fighter") if hasattr(form, "cleaned_data") else None
    if error:
        return _refused(request, pk, error, fighter_id)
    if not request.htmx:
        if note:
            messages.success(request, note)
        return redirect("play_page", pk)
    changes = delta.of_move(record, request.user)
    game = record.game
    shown = form.cleaned_data["shown"]
    behind = changes is not None and shown != record.entries[0]["v"] - 1
    if changes is None:  # a new turn, a rout, the end: the whole board, as it is now
        game = _game(request, pk)
    return _answer(request, game, changes, note=note, close_panel=True, behind=behind,
                   note_form=form.cleaned_data["action"] == "note")  # fmt: skip


def _refused(request, pk: int, error: str, fighter_id) -> HttpResponse:
    """Why not, where the move was sent from (422), after the check that answers a stranger
    as for a game that does not exist: in the panel, in the warrior's row, or above the
    board (then the whole board, its forms drawn afresh)."""
    game = _game(request, pk)
    if not request.htmx:
        messages.error(request, error)
        return redirect("play_page", pk)
    if fighter_id and request.POST.get("panel"):
        panel = _panel(request, game, fighter_id)
        if panel is not None:  # the refusal in the panel, beside the form that was sent
            context = {"game": game, "panel_error": error, **panel}
            response = render(request, "battles/helper/play.html#panel", context, status=422)
            return retarget(reswap(response, "outerHTML"), "#panel")
    changes = delta.of_fighter(game, fighter_id, request.user) if fighter_id else None
    return _answer(request, game, changes, status=422, error=error, behind=True,
                   fighter_id=fighter_id if changes else None)  # fmt: skip
