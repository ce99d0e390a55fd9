"""Each task of the post-battle sequence says how many dice it takes, and takes exactly that
many (``battles.aftermath.task_dice``), so a roll typed from the table is never misread: the
table against the rules it declares (the first roll each rule makes), and for every kind of
task its form accepting the declared count and refusing one fewer and one more, naming the
count, with nothing changed."""

from html import unescape
from types import SimpleNamespace

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath import task_dice
from battles.aftermath.task_dice import ASKS_FIRST, NO_DICE, Need, TaskFacts, first_roll
from battles.models import DiceRoll, SequenceTask
from battles.rules import experience as xp_rules
from battles.rules import exploration as exploration_rules
from battles.rules import injuries as injury_rules
from battles.rules.exploration_finds import Hero, LocationContext
from battles.rules.exploration_locations import LOCATION_RULES, LOCATIONS, resolve_location
from battles.rules.tasks import NeedsAnswer
from core.dice import (
    DiceError,
    EnteredDice,
    MoreDice,
    ReplayDice,
    ScriptedDice,
    ServerDice,
    TypedDice,
)
from tests.helpers import at, fingerprint
from warbands.rules.roster import Profile

HTMX = {"HX-Request": "true"}
TYPED = (4, 1, 6, 2, 5, 3, 4, 1)  # no double among the first six: no exploration location


# --- The label and the count ----------------------------------------------------------------


@pytest.mark.parametrize("typed", [[41], [4, 1]])
def test_a_d66_takes_41_as_one_number_or_two(typed):
    assert Need(2, "D66").check(typed, "Brandt's serious injury") == [4, 1]


@pytest.mark.parametrize(("typed", "count"), [([4], 1), ([4, 1, 3], 3), ([12345], 5)])
def test_more_or_fewer_dice_are_refused_naming_the_count(typed, count):
    with pytest.raises(DiceError) as refused:
        Need(2, "D66").check(typed, "Brandt's serious injury")
    assert str(refused.value) == (f"Brandt's serious injury needs 2 dice (D66); you typed {count}.")


def test_an_impossible_face_is_refused():
    with pytest.raises(DiceError, match="7 is not a possible roll of a D6"):
        Need(2, "2D6").check([7, 1], "Veterans")


def test_the_labels_say_how_many_dice_and_of_which_kind():
    assert Need(2, "D66").label == "Type 2 dice (D66), e.g. 41 or 4 1"
    assert Need(3, "one D6 per model out of action").label == (
        "Type 3 dice (one D6 per model out of action), e.g. 4 1 6"
    )
    assert Need(1, "D6 gold crowns").label == "Type 1 die (D6 gold crowns), e.g. 4"
    assert Need(0, note=ASKS_FIRST).label == ASKS_FIRST


# --- The table against the rules ------------------------------------------------------------


def test_every_kind_and_every_location_has_its_first_roll():
    assert set(task_dice.FIRST_ROLLS) == {
        "hero_injury", "henchman_injury", "hero_advance", "henchman_advance", "exploration",
        "location", "veterans", "rarity", "daemonic_instability", "silk_ruin",
    }  # fmt: skip
    assert set(task_dice.LOCATION_FIRST_ROLLS) == set(LOCATION_RULES)
    assert first_roll("something new", {}, TaskFacts()) == Need(0, note=NO_DICE)


class FirstRoll(Exception):
    pass


class Probe:
    """Dice that stop the rule at its first roll, to see how many dice it takes."""

    def roll(self, n, sides, purpose=""):
        raise FirstRoll(n)


def first_made(rule) -> tuple[str, int]:
    """("roll", n): the rule's first roll takes n dice; ("asks", 0) or ("ends", 0)."""
    try:
        rule(Probe())
    except FirstRoll as stopped:
        return "roll", stopped.args[0]
    except NeedsAnswer:
        return "asks", 0
    return "ends", 0


KARL = Hero(1, "Karl", T=3, Ld=7)
FAMILIES = ("Human", "Skaven", "Cult of the Possessed", "Undead", "Witch Hunters")
CONTEXTS = [
    LocationContext(family=family, heroes=heroes, leader=leader, prisoner_groups=((9, "Men"),))
    for family in FAMILIES
    for heroes, leader in (((KARL,), KARL), ((KARL,), None), ((), None))
]


@pytest.mark.parametrize(("face", "count"), sorted(LOCATIONS))
def test_each_location_declares_the_first_roll_its_rule_makes(face, count):
    for context in CONTEXTS:
        need = first_roll("location", {"face": face, "count": count}, TaskFacts(location=context))
        made = first_made(lambda dice, c=context: resolve_location(dice, face, count, context=c))
        assert (made[1], made[0] == "asks") == (need.count, need.note == ASKS_FIRST), context


CHAMPION = Profile(M=4, WS=4, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)


@pytest.mark.parametrize(
    ("kind", "rule"),
    [
        ("hero_injury",
         lambda d: injury_rules.hero_injuries(d, context=injury_rules.InjuryContext("B"),
                                              answers={})),
        ("hero_advance",
         lambda d: xp_rules.hero_advance(d, context=xp_rules.HeroContext(
             name="B", current=CHAMPION, maximum=None, skills={}), answers={})),
        ("henchman_advance",
         lambda d: xp_rules.henchman_advance(d, context=xp_rules.HenchmanContext(
             name="S", starting=CHAMPION, current=CHAMPION, maximum=None, heroes=2,
             max_heroes=6), answers={})),
    ],
)  # fmt: skip
def test_a_roll_on_a_chart_declares_the_chart_s_dice(kind, rule):
    assert first_made(rule) == ("roll", first_roll(kind, {}, TaskFacts()).count)


def test_a_new_leader_learning_magic_is_asked_before_any_die():
    context = xp_rules.HeroContext(name="B", current=CHAMPION, maximum=None, skills={},
                                   learns_magic_first=True)  # fmt: skip
    assert first_made(lambda d: xp_rules.hero_advance(d, context=context, answers={})) == (
        "asks", 0
    )  # fmt: skip
    assert first_roll("hero_advance", {}, TaskFacts(learns_magic_first=True)).count == 0


def test_henchmen_take_one_die_per_model_out_of_action():
    need = first_roll("henchman_injury", {"models": 3}, TaskFacts())
    dice = TypedDice(need.check([4, 4, 1], "Stadtwache"))

    assert injury_rules.henchmen_lost(dice, name="S", models=3) == (1, [4, 4, 1])
    assert need.count == 3 and dice.remaining == ()


@pytest.mark.parametrize("standing", [0, 1, 3, 6, 7])
@pytest.mark.parametrize("won", [False, True])
@pytest.mark.parametrize(("augur", "straggler"), [(False, False), (True, False), (True, True)])
def test_exploration_takes_every_die_thrown_at_once(standing, won, augur, straggler):
    setup = exploration_rules.ExplorationSetup(
        heroes_standing=standing, won=won, augur=augur, straggler=straggler
    )
    need = first_roll("exploration", {}, TaskFacts(exploration=setup))
    # The choices come after the dice: the Augur's, the Straggler's, the six kept of more.
    answers = {"augur": "0", "discard": "0", **{f"set_aside_{n}": "0" for n in range(3)}}

    thrown = (TYPED * 2)[: need.count]  # up to ten dice: seven heroes, a win, Augur, Straggler
    dice = TypedDice(list(thrown))
    exploration_rules.explore(dice, setup, answers)
    assert dice.remaining == ()
    if need.count:
        with pytest.raises((MoreDice, DiceError)):
            exploration_rules.explore(TypedDice(list(thrown[:-1])), setup, answers)


@pytest.mark.parametrize(("straggler", "count"), [(False, 8), (True, 9)])
def test_exploration_declares_every_die_even_past_six(straggler, count):
    """Seven heroes standing and a win: eight dice thrown (nine with the Straggler's), not
    six; the six kept are chosen after the roll."""
    setup = exploration_rules.ExplorationSetup(heroes_standing=7, won=True, straggler=straggler)
    need = first_roll("exploration", {}, TaskFacts(exploration=setup))
    assert need.count == count and need.reads.startswith("8 exploration dice")


def test_the_augurs_choice_keeps_the_dice_typed_after_hers():
    setup = exploration_rules.ExplorationSetup(heroes_standing=3, augur=True)
    dice = TypedDice([1, 2, 3, 4])
    replay = ReplayDice([], dice)
    with pytest.raises(NeedsAnswer) as asked:
        exploration_rules.explore(replay, setup, {})

    kept = task_dice.question(asked.value, dice)
    assert (kept["key"], kept["typed"], kept["left"]) == ("augur", True, [3, 4])

    found = exploration_rules.explore(
        ReplayDice(replay.faces, TypedDice(kept["left"])), setup, {"augur": "1"}
    )
    assert found.faces == [2, 3, 4]


# --- The dice a post rolls with ---------------------------------------------------------------


def task(**fields):
    defaults = {"pk": 1, "kind": "veterans", "data": {}, "label": "Veterans", "question": None,
                "done": False}  # fmt: skip
    return SimpleNamespace(**{**defaults, **fields})


def test_typed_dice_become_dice_that_ask_for_what_comes_after_them():
    dice = task_dice.live_dice(None, task(), EnteredDice([41]))
    assert isinstance(dice, TypedDice) and dice.remaining == (4, 1)
    dice.roll(2, 6)
    with pytest.raises(MoreDice) as more:
        dice.roll(1, 6, "Veterans: again (D6)")
    assert task_dice.question(more.value, dice) == {
        "key": "dice", "text": "Veterans: again (D6)", "options": [], "dice": [1, 6],
        "typed": True,
    }  # fmt: skip


def test_a_question_takes_no_dice_and_keeps_the_way_its_task_is_rolled():
    choice = {"key": "skill", "text": "Which skill?", "options": [["a", "A"]]}
    with pytest.raises(DiceError, match="answer the question without dice"):
        task_dice.live_dice(None, task(question=choice), EnteredDice([3]))
    server = ServerDice()
    assert task_dice.live_dice(None, task(question={**choice, "typed": False}), server) is server
    typed = task_dice.live_dice(None, task(question={**choice, "typed": True, "left": [5]}),
                                server)  # fmt: skip
    assert isinstance(typed, TypedDice) and typed.remaining == (5,)
    scripted = ScriptedDice([1, 2, 3])
    assert task_dice.live_dice(None, task(), scripted) is scripted


def test_a_first_roll_left_empty_is_the_servers_and_one_with_no_dice_asks_as_it_goes():
    server = ServerDice()
    assert task_dice.live_dice(None, task(), server) is server
    successor = task(kind="hero_advance", warrior=SimpleNamespace(learns_magic_next=True))
    asks = task_dice.live_dice(None, successor, server)  # asked first: no dice yet
    assert isinstance(asks, TypedDice) and asks.remaining == ()


def test_typed_dice_left_over_are_refused():
    dice = TypedDice([4, 1, 3])
    dice.roll(2, 6)
    with pytest.raises(DiceError, match=r"Veterans rolled 2 dice; 1 die typed was left over"):
        task_dice.check_all_rolled(task(), dice)


# --- Every kind of task, through its form -----------------------------------------------------


def _task(sequence, step, kind, warrior=None, **data):
    return SequenceTask.objects.create(
        sequence=sequence, step=step, kind=kind, warrior=warrior, data=data, label=kind
    )


def hero_injury(duel):
    sequence, reavers = at(duel, 1)
    return sequence, _task(sequence, 1, "hero_injury", reavers.warriors.get(name="Brandt")), 2


def henchman_injury(duel):
    sequence, reavers = at(duel, 1)
    guards = reavers.warriors.get(name="Stadtwache")
    return sequence, _task(sequence, 1, "henchman_injury", guards, models=3), 3


def hero_advance(duel):
    sequence, reavers = at(duel, 2)
    return sequence, _task(sequence, 2, "hero_advance", reavers.warriors.get(is_leader=True)), 2


def henchman_advance(duel):
    sequence, reavers = at(duel, 2)
    guards = reavers.warriors.get(name="Stadtwache")
    return sequence, _task(sequence, 2, "henchman_advance", guards), 2


def exploration(duel):
    sequence, _ = at(duel, 3)
    sequences.prepare(sequence)
    return sequence, sequence.tasks.get(step=3, kind="exploration"), 3  # 2 heroes, won


def location(duel):
    sequence, _ = at(duel, 3)
    return sequence, _task(sequence, 3, "location", face=5, count=3), 2  # Market Hall: 2D6


def veterans(duel):
    sequence, _ = at(duel, 5)
    return sequence, _task(sequence, 5, "veterans"), 2


def rarity(duel):
    sequence, reavers = at(duel, 6)
    captain = reavers.warriors.get(is_leader=True)
    return sequence, _task(sequence, 6, "rarity", captain, streetwise=False), 2


KINDS = [hero_injury, henchman_injury, hero_advance, henchman_advance, exploration, location,
         veterans, rarity]  # fmt: skip


def post(client, sequence, task, dice):
    url = reverse("sequence_task", args=[sequence.pk, task.pk])
    response = client.post(url, {"step": task.step, "dice": dice}, headers=HTMX)
    return response.status_code, unescape(response.content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize("make", KINDS, ids=lambda make: make.__name__)
def test_each_kind_of_task_takes_exactly_the_dice_it_declares(client, duel, make):
    sequence, task, count = make(duel)
    client.force_login(sequence.participant.warband.owner)
    page = unescape(client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode())
    assert f'data-dice="{count}"' in page and f"Type {count} dice (" in page
    before = fingerprint()

    for wrong in (count - 1, count + 1):
        status, text = post(client, sequence, task, " ".join(map(str, TYPED[:wrong])))
        assert status == 422
        assert f"{task.label} needs {count} dice (" in text and f"you typed {wrong}." in text
        assert fingerprint() == before

    status, _ = post(client, sequence, task, " ".join(map(str, TYPED[:count])))
    assert status == 200
    task.refresh_from_db()
    assert task.faces[:count] == list(TYPED[:count])
    assert DiceRoll.objects.filter(source="entered").exists()
