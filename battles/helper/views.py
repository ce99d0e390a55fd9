"""The battle helper's pages: start a game, the live page, its board (polled), a warrior's
panel of tests and deeds, and the moves.

Live, by polling: the page asks for its board every second with the version it shows
(``?v=``); while the game has not changed the answer is an empty 204, which htmx leaves alone
(three small queries: the session, the user, the version); after a change it is the new board.
No connection stays open, so any number of viewers share the ordinary workers of ``make run``
or gunicorn.

Thin views: a move is a ``MoveForm`` whose ``action`` picks one service of ``battles.helper``;
for htmx the answer is the board again (with what happened, or why not, 422), and the
warrior's panel is closed once its move is made.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from battles.helper import checks, end, moves, rout, start
from battles.helper.board import board, carried_labels, enemies_of
from battles.helper.forms import MoveForm, StartForm
from battles.models import Fighter, Game
from battles.permissions import get_battle_for_user
from battles.rules import play
from campaign.permissions import get_campaign_for_user, members_only
from core.dice import DiceError
from core.errors import RuleViolation
from warbands.models import Warband

POLL_SECONDS = 1


@require_http_methods(["GET", "POST"])
def play_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a game: the scenario and the warbands in turn order."""
    campaign = get_campaign_for_user(request, pk, write=True)
    warbands = list(
        Warband.objects.in_campaign(campaign).playing().select_related("owner").order_by("name")
    )
    data = request.POST if request.method == "POST" else None
    own = next((w.pk for w in warbands if w.owner_id == request.user.pk), None)
    initial = {"fought_on": timezone.localdate(), "first": own, "scenario_key": "skirmish"}
    form = StartForm(data, warbands=warbands, initial=initial)
    error = ""
    if data is not None and form.is_valid():
        values = form.cleaned_data
        try:
            battle = start.start_game(
                actor=request.user, campaign=campaign, warband_ids=form.warband_ids(),
                scenario_key=values["scenario_key"], scenario=values["scenario"],
                fought_on=values["fought_on"], random_fortune=values["random_fortune"],
            )  # fmt: skip
        except RuleViolation as refusal:
            error = str(refusal)
        else:
            return redirect("play_page", battle.pk)
    return render(
        request,
        "battles/helper/start.html",
        {"campaign": campaign, "form": form, "error": error, "warbands": warbands},
        status=422 if data is not None else 200,
    )


def _game(request: HttpRequest, pk: int) -> Game:
    battle = get_battle_for_user(request, pk)
    game = Game.objects.filter(battle=battle).first()
    if game is None:
        raise Http404("This battle was not played with the battle helper.")
    game.battle = battle
    return game


def _context(request, game: Game, *, note: str = "", error: str = "", fighter_id=None) -> dict:
    return {
        "board": board(game, request.user),
        "note": note,
        "error": error,
        "error_fighter": fighter_id if error else None,
        "poll": POLL_SECONDS,
    }


@require_GET
def play_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk)
    return render(request, "battles/helper/play.html", {"game": game, **_context(request, game)})


@require_GET
def play_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The board, or 204 while the game is as the page shows it (``?v=``). The version is
    read only for the campaign's members, in the statement that checks it
    (``members_only``): to anyone else a game answers as one that does not exist."""
    games = members_only(Game.objects.filter(battle_id=pk), request.user)
    version = games.values_list("version", flat=True).first()
    if version is None:
        raise Http404("No such battle.")
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    game = _game(request, pk)
    return render(
        request, "battles/helper/play.html#board", {"game": game, **_context(request, game)}
    )


def _panel(request, game: Game, fighter_pk: int) -> dict | None:
    """The panel of one of the user's warriors, or None when he is not the user's."""
    view = next(
        (f for s in board(game, request.user).sides for f in s.fighters
         if f.fighter.pk == fighter_pk),
        None,
    )  # fmt: skip
    if view is None:
        raise Http404("No such warrior in this game.")
    if not view.mine:
        return None
    return {
        "view": view,
        "enemies": enemies_of(game, view.fighter),
        "tests": play.TESTS.values(),
        "carried": carried_labels(game),
        "causes": [c for c in Fighter.Cause.choices if c[0] != "enemy"],
    }


@require_GET
def play_panel(request: HttpRequest, pk: int, fighter_pk: int) -> HttpResponse:
    """One of the user's warriors: his tests, his fall, out of action, loot."""
    game = _game(request, pk)
    panel = None if request.GET.get("close") else _panel(request, game, fighter_pk)
    if panel is None:
        return render(request, "battles/helper/play.html#panel", {"closed": True})
    if not request.htmx:  # the whole page, the panel open
        return render(request, "battles/helper/play.html", {"game": game, **_context(request, game),
                                                     **panel})  # fmt: skip
    return render(request, "battles/helper/play.html#panel", {"game": game, **panel})


def _move(form: MoveForm, pk: int, actor) -> str:
    """Make the move the form names; what happened, as the page says it."""
    data = form.cleaned_data
    action, fighter = data["action"], data["fighter"]
    needs_fighter = action in ("state", "fall_outcome", "mark", "rally", "test", "fall", "loot")
    if needs_fighter and not fighter:
        raise RuleViolation("Pick a warrior.")
    if action in ("rout_test", "reroll", "rout") and not data["side"]:
        raise RuleViolation("Pick a warband.")
    dice, side = data["dice"], data["side"]
    match action:
        case "state":
            cause, by_id = form.what_took_out()
            moved = moves.set_state(pk, fighter, data["state"], actor=actor, cause=cause,
                                    by_id=by_id)  # fmt: skip
            return f"{moved.name}: {play.STATES[moved.state].lower()}."
        case "fall_outcome":
            moved = moves.record_fall(pk, fighter, data["outcome"], actor=actor)
            return f"{moved.name}'s fall is recorded."
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
            hits = checks.fall(pk, fighter, entered=dice, actor=actor)
            return f"{hits} hit{'s' if hits > 1 else ''}: say what they did."
        case "rout_test":
            rout.take_rout_test(pk, side, entered=dice, actor=actor)
            return "The Rout test is taken."
        case "reroll":
            rout.reroll(pk, side, data["reroll"], entered=dice, actor=actor)
            return "The Rout test is re-rolled."
        case "rout":
            rout.rout(pk, side, actor=actor)
            return "The warband routs."
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
            return "The game is over: check your side of the report."


@require_POST
def play_move(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk)
    form = MoveForm(request.POST)
    note, error = "", ""
    if not form.is_valid():
        name, problems = next(iter(form.errors.items()))
        error = f"{form.fields[name].label or name}: {problems[0]}"
    else:
        try:
            note = _move(form, pk, request.user)
        except (RuleViolation, DiceError, PermissionDenied) as refusal:
            error = str(refusal)
    fighter_id = form.cleaned_data.get("fighter") if hasattr(form, "cleaned_data") else None
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif note:
            messages.success(request, note)
        return redirect("play_page", pk)
    game = _game(request, pk)
    if error and fighter_id and request.POST.get("panel"):
        panel = _panel(request, game, fighter_id)
        if panel is not None:  # the refusal in the panel, beside the form that was sent
            context = {"game": game, "panel_error": error, **panel}
            response = render(request, "battles/helper/play.html#panel", context, status=422)
            return retarget(reswap(response, "outerHTML"), "#panel")
    context = {"game": game, **_context(request, game, note=note, error=error,
                                        fighter_id=fighter_id)}  # fmt: skip
    context["close_panel"] = not error
    return render(request, "battles/helper/play.html#board", context, status=422 if error else 200)
