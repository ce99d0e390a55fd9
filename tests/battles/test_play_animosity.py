"""Animosity in the battle helper (Orc Mob list, its special rules): as the turn of a warband
whose warriors carry the rule begins, each of its models subject to it rolls a D6 (not those
in hand-to-hand combat, which the player spares); on a 1 a second D6 says what he does. The
results are in the log and on the rows both players see; the turn does not move on before."""

import re
from unittest.mock import ANY

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from battles.helper import animosity, moves, start
from battles.models import DiceRoll, Fighter, Game, GameEvent
from battles.rules import animosity as animosity_rules
from battles.rules import play
from core.errors import RuleViolation
from tests.factories import WarbandFactory, finish, hire
from warbands.models import WarbandType, WarriorType
from warbands.rules.special_rules import APPLIED, handling_for

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def orc_mob(duel):
    mob = WarbandFactory(
        campaign=duel["campaign"], name="Da Mob",
        warband_type=WarbandType.objects.get(key="orc_mob"),
    )  # fmt: skip
    hire(mob, "orc_boss", name="Gorbag")
    hire(mob, "orc_boy", models=2, name="Boyz")
    hire(mob, "goblin_warrior", name="Snikkit")
    return finish(mob)


def begin(duel, first):
    """The Orc Mob against the Reavers, ``first`` taking the first turn."""
    ids = [first.pk, *(w.pk for w in (duel["mob"], duel["reavers"]) if w.pk != first.pk)]
    return start.start_game(actor=first.owner, campaign=duel["campaign"],
                            scenario_key="skirmish", warband_ids=ids)  # fmt: skip


@pytest.fixture
def mob(duel):
    duel["mob"] = orc_mob(duel)
    return duel["mob"]


def models_of(battle, warband) -> list[Fighter]:
    """Gorbag, Boyz #1, Boyz #2, Snikkit #1."""
    return list(
        Fighter.objects.filter(game__battle=battle, side__participant__warband=warband)
        .select_related("warrior")
        .order_by("-warrior__is_leader", "warrior__pk", "number")
    )


@pytest.mark.parametrize("key", ["orc_boy", "goblin_warrior"])
def test_the_orc_mobs_henchmen_carry_animosity_as_an_effect_the_app_applies(key):
    warrior_type = WarriorType.objects.get(warband_type__key="orc_mob", key=key)
    rule = next(r for r in warrior_type.special_rules if r["name"] == "Animosity")
    assert rule["effect"] == "animosity"
    assert handling_for(rule, warrior_type).kind == APPLIED


def test_the_orc_mobs_turn_waits_for_its_animosity_rolls(duel, mob):
    battle = begin(duel, mob)
    gorbag, boy1, boy2, snikkit = models_of(battle, mob)

    with pytest.raises(RuleViolation, match="Animosity"):
        moves.next_phase(battle.pk, actor=mob.owner)
    # Boyz #1: a 1, then 3 (insults); Boyz #2: 4; Snikkit #1: a 1, then 1 (the charge).
    animosity.roll(battle.pk, boy1.side_id, entered="1 3 4 1 1", actor=mob.owner)

    results = dict(Fighter.objects.filter(side=boy1.side).values_list("pk", "animosity"))
    assert results == {gorbag.pk: "", boy1.pk: "wud_yoo_say", boy2.pk: "", snikkit.pk: "i_erd_dat"}
    rolls = list(
        DiceRoll.objects.filter(battle=battle).order_by("pk").values_list("purpose", "faces")
    )
    assert rolls == [
        ("Animosity: Boyz #1", [1]), ("Animosity: Boyz #1, the result", [3]),
        ("Animosity: Boyz #2", [4]),
        ("Animosity: Snikkit #1", [1]), ("Animosity: Snikkit #1, the result", [1]),
    ]  # fmt: skip
    lines = list(GameEvent.objects.filter(game__battle=battle, kind="test")
                 .order_by("pk").values_list("text", flat=True))  # fmt: skip
    assert lines[0] == "Animosity, Da Mob: 3 models rolled; 2 rolled a 1."
    assert lines[1].startswith("Boyz #1 (1, then 3): Wud Yoo Say?")
    assert lines[2].startswith("Snikkit #1 (1, then 1): I 'Erd Dat!")
    assert "never charges an Orc" in lines[2]  # the Goblin's own note
    with pytest.raises(RuleViolation, match="rolled for Animosity this turn"):
        animosity.roll(battle.pk, boy1.side_id, entered="1 1 1", actor=mob.owner)
    moves.next_phase(battle.pk, actor=mob.owner)  # on to movement


def test_a_model_in_hand_to_hand_combat_is_spared_and_the_out_of_action_never_roll(duel, mob):
    battle = begin(duel, mob)
    _gorbag, boy1, boy2, snikkit = models_of(battle, mob)
    moves.set_state(battle.pk, snikkit.pk, play.OUT_OF_ACTION, actor=mob.owner, cause="other")

    animosity.roll(battle.pk, boy1.side_id, spared=[boy2.pk], entered="6", actor=mob.owner)

    assert list(DiceRoll.objects.filter(battle=battle).values_list("purpose", flat=True)) == [
        "Animosity: Boyz #1"
    ]
    line = GameEvent.objects.filter(game__battle=battle, kind="test").get().text
    assert line == "Animosity, Da Mob: 1 model rolled; none rolled a 1. Spared: Boyz #2."


def test_the_result_lasts_the_turn_and_a_warband_without_the_rule_is_never_asked(duel, mob):
    battle = begin(duel, mob)
    reavers = duel["reavers"].owner
    _gorbag, boy1, *_ = models_of(battle, mob)
    with pytest.raises(PermissionDenied):
        animosity.roll(battle.pk, boy1.side_id, actor=reavers)
    animosity.roll(battle.pk, boy1.side_id, entered="1 6 2 3", actor=mob.owner)
    assert Fighter.objects.get(pk=boy1.pk).animosity == "ill_show_yer"
    for _ in play.PHASE_ORDER:
        moves.next_phase(battle.pk, actor=mob.owner)

    assert Fighter.objects.get(pk=boy1.pk).animosity == ""  # forgotten as the next turn begins
    moves.next_phase(battle.pk, actor=reavers)  # the Reavers have no Animosity to roll
    reavers_side = Fighter.objects.filter(game__battle=battle, warrior__warband=duel["reavers"])
    with pytest.raises(RuleViolation, match="no models subject to Animosity"):
        animosity.roll(battle.pk, reavers_side.first().side_id, actor=reavers)


def test_both_players_see_the_prompt_then_the_results(client, duel, mob):
    battle = begin(duel, mob)
    _gorbag, boy1, boy2, snikkit = models_of(battle, mob)
    client.force_login(mob.owner)
    page = client.get(reverse("play_page", args=[battle.pk])).content.decode()
    assert f'data-testid="animosity-{mob.pk}"' in page
    assert 'data-testid="roll-animosity"' in page
    # Each model that rolls may be spared: a checkbox of the move's "spared", one per model.
    for model in (boy1, boy2, snikkit):
        assert f'name="spared" value="{model.pk}"' in page
    client.force_login(duel["reavers"].owner)
    theirs = client.get(reverse("play_page", args=[battle.pk])).content.decode()
    assert f'data-testid="animosity-{mob.pk}"' in theirs
    assert 'data-testid="roll-animosity"' not in theirs  # the Mob's player rolls
    seen = Game.objects.get(battle=battle).version

    client.force_login(mob.owner)
    answer = client.post(reverse("play_move", args=[battle.pk]), {
        "action": "animosity", "side": boy1.side_id, "spared": [snikkit.pk], "dice": "2 1 2",
        "shown": seen,
    }, headers=HTMX).content.decode()  # fmt: skip
    client.force_login(duel["reavers"].owner)
    polled = client.get(reverse("play_board", args=[battle.pk]) + f"?v={seen}", headers=HTMX)

    for shown in (answer, polled.content.decode()):
        assert 'id="board"' not in shown
        assert "Boyz #2 (1, then 2): Wud Yoo Say?" in shown
        assert re.search(rf'id="fighter-{boy2.pk}"[^>]*>.*?data-testid="animosity"', shown, re.S)
        assert 'data-testid="roll-animosity"' not in shown  # the prompt is gone


def test_the_night_goblins_lists_carry_animosity_each_as_its_text_has_it():
    """Night Goblins (web): a D6 a warrior and the result table, as the Orcs; Night Goblins
    (Mordheimer's Information Centre): one D6 for them all as the turn begins."""
    web = WarriorType.objects.get(warband_type__key="night_goblins_web", key="night_goblin_warrior")
    assert animosity_rules.subject(web.special_rules) == {
        "name": "Animosity", "effect": "animosity", "text": ANY,
    }  # fmt: skip
    gits = WarriorType.objects.get(warband_type__key="night_goblins", key="night_goblin")
    assert animosity_rules.subject(gits.special_rules)["one_roll"] is True


def test_the_night_goblins_squabble_together_on_one_roll(duel):
    gits = WarbandFactory(
        campaign=duel["campaign"], name="Night Gits",
        warband_type=WarbandType.objects.get(key="night_goblins"),
    )  # fmt: skip
    hire(gits, "big_boss", name="Skarsnik", items=["sword"])
    hire(gits, "night_goblin", models=3, name="Gits")
    gits = finish(gits)
    battle = start.start_game(
        actor=gits.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[gits.pk, duel["reavers"].pk],
    )  # fmt: skip
    skarsnik, first, second, third = models_of(battle, gits)

    animosity.roll(battle.pk, first.side_id, spared=[third.pk], entered="1", actor=gits.owner)

    results = dict(Fighter.objects.filter(side=first.side).values_list("pk", "animosity"))
    assert results == {skarsnik.pk: "", first.pk: "squabble", second.pk: "squabble", third.pk: ""}
    assert list(DiceRoll.objects.filter(battle=battle).values_list("purpose", "faces")) == [
        ("Animosity: Night Gits, one roll for 2 models", [1])
    ]
    lines = list(GameEvent.objects.filter(game__battle=battle, kind="test")
                 .order_by("pk").values_list("text", flat=True))  # fmt: skip
    assert (
        lines[0]
        == "Animosity, Night Gits: one roll for 2 models: 1, they squabble. Spared: Gits #3."
    )
    assert lines[1].startswith("Squabbling (1): Gits #1, Gits #2")
    moves.next_phase(battle.pk, actor=gits.owner)
