"""The benchmark's writes really write, and leave the league as they found it: each script of
bench/plan.py, and a league night's pass of bench/night.py, posted through Django's test
client on a small league of bench/generate.py."""

import copy
from collections import Counter
from dataclasses import asdict

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles.models import DiceRoll, Fighter, Game, PostBattleSequence, SequenceTask
from bench import night, plan, viewers
from bench.generate import generate
from bench.load import capture, fill
from tests.sharing import built_once
from warbands.models import LedgerEntry, StorageContainer

pytestmark = pytest.mark.django_db


def small_league() -> dict:
    built = generate(warbands=6, warriors=15, containers=20, ledger=20, battles=4, played=1,
                     writers=2, rolls=1, night=1, helper=True, progress=lambda m: None)  # fmt: skip
    return asdict(built)


@pytest.fixture(scope="module")
def built_league(django_db_setup, django_db_blocker):
    """The league is built once for the module (``tests.sharing.built_once``); each test
    starts from it as built, what the test before it wrote rolled back."""
    yield from built_once(django_db_blocker, small_league)


@pytest.fixture
def league(db, built_league) -> dict:
    """The league's description (primary keys, user names, scripts), a copy of its own for
    the test."""
    return copy.deepcopy(built_league)


class Answer:
    """What bench/load.py's requests return, from the test client's response."""

    def __init__(self, response):
        self.status = response.status_code
        self.text = response.content.decode()
        self.size = len(response.content)


def send(step: dict, variables: dict | None = None) -> Answer:
    return statements(step, variables)[0]


def statements(step: dict, variables: dict | None = None) -> tuple[Answer, int]:
    """The answer to one scripted request, and the SQL statements it ran (as X-Queries
    counts them: not the transaction's BEGIN and COMMIT)."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=step["user"]))
    variables = variables or {}
    path = fill(step["path"], variables)
    with CaptureQueriesContext(connection) as captured:
        if step.get("method", "GET") == "GET":
            htmx = {"HX-Request": "true"} if step.get("htmx") else {}
            answer = Answer(client.get(path, headers=htmx))
        else:
            form = {k: fill(str(v), variables) for k, v in step["form"].items()}
            answer = Answer(client.post(path, form, headers={"HX-Request": "true"}))
    return answer, sum(q["sql"] not in ("BEGIN", "COMMIT") for q in captured)


def run(script: list[dict]) -> list[int]:
    """One pass of a worker's script, as bench/load.py makes it; the statuses."""
    statuses, variables = [], {}
    for step in script:
        answer = send(step, variables)
        statuses.append(answer.status)
        assert capture(step, answer, variables), step
    return statuses


def writes(league) -> dict:
    return {row["name"]: row for row in plan.writes(league)}


def balances(*pks) -> list[int]:
    return [StorageContainer.objects.get(pk=pk).gold_crowns for pk in pks]


def check_treasury_move(league):
    (script, *_) = writes(league)["treasury move"]["scripts"]
    pair = [script[0]["form"]["source"], script[0]["form"]["target"]]
    before, entries = balances(*pair), LedgerEntry.objects.count()
    assert run(script) == [200, 200]
    assert balances(*pair) == before and min(before) >= 1
    assert LedgerEntry.objects.count() == entries + 4


def check_buy_and_sell(league):
    (script, *_) = writes(league)["buy a container (+ sell)"]["scripts"]
    chest = script[0]["form"]["pay_from"]
    (before,) = balances(chest)
    held = StorageContainer.objects.filter(status="held").count()
    assert run(script[:2]) == [200, 200]
    assert balances(chest) == [before - 1]  # 2 gc paid, 1 gc back
    assert StorageContainer.objects.filter(status="held").count() == held
    newest = StorageContainer.objects.latest("pk")
    assert (newest.kind, newest.status) == ("large_sack", "sold")


def check_injury_roll(league):
    steps = writes(league)["injury roll (step 1, dice)"]["steps"]
    assert len(steps) == len(league["rolls"]) >= 8
    assert send(steps[0]).status == 200
    task = SequenceTask.objects.get(pk=league["rolls"][0]["task_id"])
    assert task.done and task.faces[:2] == [4, 4]
    assert DiceRoll.objects.filter(source="entered").exists()
    assert not SequenceTask.objects.get(pk=league["rolls"][1]["task_id"]).done


def check_step_9_move(league):
    (script, *_) = writes(league)["step 9 move"]["scripts"]
    pair = [script[0]["form"]["source"], script[0]["form"]["target"]]
    before, entries = balances(*pair), LedgerEntry.objects.count()
    assert run(script) == [200, 200]
    assert balances(*pair) == before and LedgerEntry.objects.count() == entries + 4


def check_finish_and_undo(league):
    (script, *_) = writes(league)["finish a step (+ undo)"]["scripts"]
    sequence = PostBattleSequence.objects.get(pk=league["step8"][0]["sequence_id"])
    assert sequence.current_step == 8
    assert send(script[0]).status == 200
    sequence.refresh_from_db()
    assert sequence.current_step == 9
    assert send(script[1]).status == 200
    sequence.refresh_from_db()
    assert sequence.current_step == 8


def test_every_write_applies_and_its_return_leg_restores_the_league(league):
    """One test, one league: building it takes most of the time."""
    check_treasury_move(league)
    check_buy_and_sell(league)
    check_injury_roll(league)
    check_step_9_move(league)
    check_finish_and_undo(league)


class Window:
    """bench/load.py's window for one player, through the test client."""

    def __init__(self):
        self.labels, self.notes = [], {}

    def over(self) -> bool:
        return False

    async def send(self, step: dict, variables=None):
        self.labels.append(step["label"])
        return send(step, variables)


def finish(coroutine):
    """Run a coroutine that never waits (the window above answers at once) to its end, in
    this thread and this test's transaction, without an event loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("the coroutine waited for something")


def test_a_league_night_player_plays_steps_1_and_2_of_a_waiting_sequence(league):
    player = next(p for p in league["players"] if p["night"])
    window = Window()
    played = finish(night.play(window, player["username"], player["night"][0], "4"))
    sequence = PostBattleSequence.objects.get(pk=player["night"][0])
    assert played and sequence.current_step == 3
    assert not sequence.tasks.filter(step__in=(1, 2), done=False, void=False).exists()
    rolls = window.labels.count("injury roll")
    assert rolls == sequence.tasks.filter(step=1).count() >= 2
    assert window.labels[:1] + window.labels[-1:] == ["sequence page", "complete step"]


class Scene(Window):
    """The window of the helper's scene, over after ``sends`` requests; each request's label
    is the one bench/load.py would count it under."""

    def __init__(self, sends: int):
        super().__init__()
        self.left, self.notes = sends, Counter()

    def over(self) -> bool:
        return self.left <= 0

    async def send(self, step: dict, variables=None, *, leg=None, count=True):
        self.left -= 1
        answer = send(step, variables)
        self.labels.append((leg(answer) if leg else step.get("label")) if count else None)
        return answer


def test_the_helper_taps_apply_and_each_undo_puts_the_game_back(league):
    game = Game.objects.get(battle_id=league["helper"]["battle_id"])
    tapper = league["helper"]["tappers"][0]
    states = dict(Fighter.objects.filter(game=game).values_list("pk", "state"))
    window = Scene(sends=4)

    finish(viewers.tapper(window, tapper, f"/battles/{game.battle_id}/play/move/", 0))

    assert window.labels == ["tap", "undo", "tap", "undo"]
    assert window.notes == {"taps undone": 2}
    assert dict(Fighter.objects.filter(game=game).values_list("pk", "state")) == states
    assert {states[pk] for pk in tapper["fighters"]} == {"standing"}
    assert Game.objects.get(pk=game.pk).version == game.version + 4


def test_a_poll_carries_the_change_a_tap_made_and_an_idle_poll_is_empty(league):
    helper = league["helper"]
    battle, viewer = helper["battle_id"], helper["viewers"][2]  # the organiser
    path = f"/battles/{battle}/play/board/"
    assert len(helper["viewers"]) == 4 and len(helper["tappers"]) == 2
    shown = finish(viewers.shown_version(Scene(sends=1), viewer, path))
    poll = {"user": viewer, "method": "GET", "path": f"{path}?v={shown}", "htmx": True}

    idle, idle_queries = statements(poll)
    tapper = helper["tappers"][1]
    tap = {"user": tapper["username"], "method": "POST", "path": f"/battles/{battle}/play/move/",
           "form": {"action": "state", "fighter": tapper["fighters"][0],
                    "state": "knocked_down"}}  # fmt: skip
    tapped = send(tap)  # its statements are the bench's to count: a test never commits
    changed = send(poll)

    assert (idle.status, idle.size, viewers.poll_label(shown, idle)) == (204, 0, ("idle", None))
    assert idle_queries == plan.IDLE_QUERIES
    assert tapped.status == 200
    assert viewers.poll_label(shown, changed) == ("1 change", shown + 1)
    assert changed.size <= plan.POLL_BYTES


def test_idle_viewers_poll_with_the_version_their_page_shows(league):
    helper = league["helper"]
    window = Scene(sends=3)

    path = f"/battles/{helper['battle_id']}/play/board/"
    finish(viewers.viewer(window, helper["viewers"][0], path, 0))

    assert window.labels == [None, "idle", "idle"]
