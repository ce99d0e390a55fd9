"""The battle helper's services (battles.helper): a game set up, the turn sequence with its
recovery phase, tests with typed dice, the Rout test and the report written at the end."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from battles.helper import checks, end, moves, rout, start, wounds
from battles.models import Battle, DiceRoll, Fighter, Participant, WarriorOutcome
from battles.report import services, sides
from battles.rules import play
from core.errors import RuleViolation
from tests.factories import hire
from tests.helpers import side_as_played, warriors
from warbands import hired_swords
from warbands.models import Warband

pytestmark = pytest.mark.django_db


def begin(duel, scenario_key="skirmish"):
    return start.start_game(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario_key=scenario_key,
        warband_ids=[duel["reavers"].pk, duel["scourge"].pk],
    )  # fmt: skip


def fighter(battle, warrior, number=1) -> Fighter:
    return Fighter.objects.get(game__battle=battle, warrior=warrior, number=number)


def to_next_turn(battle, actor_of_turn):
    """Move the current player's turn on to the next warband's recovery phase."""
    for _ in play.PHASE_ORDER:
        moves.next_phase(battle.pk, actor=actor_of_turn)


def test_a_game_puts_every_model_on_the_table(duel):
    battle = begin(duel)
    captain, _champion, group = warriors(duel["reavers"])

    assert battle.status == Battle.Status.PLAYING
    assert Participant.objects.filter(battle=battle, result="").count() == 2
    assert Fighter.objects.filter(game__battle=battle, warrior=group).count() == group.group_size
    assert fighter(battle, captain).state == play.STANDING


def test_stunned_becomes_knocked_down_then_stands_up(duel):
    battle = begin(duel)
    reavers, scourge = duel["reavers"].owner, duel["scourge"].owner
    captain = fighter(battle, warriors(duel["reavers"])[0])
    moves.set_state(battle.pk, captain.pk, play.STUNNED, actor=reavers)
    with pytest.raises(RuleViolation, match="stunned"):
        moves.set_state(battle.pk, captain.pk, play.STANDING, actor=reavers)

    to_next_turn(battle, reavers)  # the Scourge's turn: the captain stays stunned
    assert fighter(battle, captain.warrior).state == play.STUNNED
    to_next_turn(battle, scourge)  # turn 2, the Reavers' recovery: knocked down
    captain.refresh_from_db()
    assert (captain.state, captain.may_stand) == (play.KNOCKED_DOWN, False)
    with pytest.raises(RuleViolation, match="stands up in his own recovery phase"):
        moves.set_state(battle.pk, captain.pk, play.STANDING, actor=reavers)

    to_next_turn(battle, reavers)
    to_next_turn(battle, scourge)  # turn 3: he may stand up now
    moves.set_state(battle.pk, captain.pk, play.STANDING, actor=reavers)
    assert fighter(battle, captain.warrior).state == play.STANDING


def test_only_the_owner_taps_his_warriors(duel):
    battle = begin(duel)
    captain = fighter(battle, warriors(duel["reavers"])[0])

    with pytest.raises(PermissionDenied):
        moves.set_state(battle.pk, captain.pk, play.STUNNED, actor=duel["scourge"].owner)
    moves.set_state(battle.pk, captain.pk, play.STUNNED, actor=duel["organiser"])


def test_a_rally_test_on_typed_dice(duel):
    battle = begin(duel)
    reavers = duel["reavers"].owner
    champion = fighter(battle, warriors(duel["reavers"])[1])
    moves.set_state(battle.pk, champion.pk, play.FLEEING, actor=reavers)
    with pytest.raises(RuleViolation, match="cannot hide"):
        moves.set_state(battle.pk, champion.pk, play.HIDDEN, actor=reavers)

    checks.rally(battle.pk, champion.pk, nearest_is_enemy=False, entered="6 6", actor=reavers)
    assert fighter(battle, champion.warrior).state == play.FLEEING
    with pytest.raises(RuleViolation, match="this turn already"):
        checks.rally(battle.pk, champion.pk, nearest_is_enemy=False, entered="1 1", actor=reavers)
    to_next_turn(battle, reavers)
    to_next_turn(battle, duel["scourge"].owner)
    checks.rally(battle.pk, champion.pk, nearest_is_enemy=False, entered="2 3", actor=reavers)

    assert fighter(battle, champion.warrior).state == play.STANDING
    rolls = list(DiceRoll.objects.filter(battle=battle).values_list("faces", "source", "result"))
    assert rolls == [
        ([6, 6], "entered", "Brandt fails to rally (12 against Ld 7) and flees on."),
        ([2, 3], "entered",
         "Brandt rallies (5 against Ld 7): he neither moves nor shoots this turn."),
    ]  # fmt: skip


def test_a_jump_down_and_its_fall(duel):
    battle = begin(duel)
    reavers = duel["reavers"].owner
    captain = fighter(battle, warriors(duel["reavers"])[0])

    result = checks.initiative_test(
        battle.pk, captain.pk, "jump_down", height=5, entered="1 6", actor=reavers
    )
    assert (result.passed, result.rolls, result.fall_height) == (False, (1, 6), 5)
    with pytest.raises(RuleViolation, match="Roll first the fall of Captain Adler"):
        moves.next_phase(battle.pk, actor=reavers)
    # 2 hits at S5 on T3: the first wounds (2+), his one wound gone, a 6 on the injury chart
    assert wounds.fall(battle.pk, captain.pk, entered="4 2 1 6", actor=reavers).wounds == 1

    captain.refresh_from_db()
    assert (captain.state, captain.cause) == (play.OUT_OF_ACTION, "fall")


def test_a_quarter_out_of_action_tests_and_routs_and_the_report_writes_itself(duel):
    battle = begin(duel)
    reavers, scourge = duel["reavers"].owner, duel["scourge"].owner
    _captain, champion, _ = warriors(duel["reavers"])
    their = list(Fighter.objects.filter(game__battle=battle, side__position=1))
    for target in their[:2]:
        moves.set_state(battle.pk, target.pk, play.OUT_OF_ACTION, actor=scourge, cause="enemy",
                        by_id=champion.pk)  # fmt: skip
    to_next_turn(battle, reavers)
    with pytest.raises(RuleViolation, match="Rout test first"):
        moves.next_phase(battle.pk, actor=scourge)
    rout.take_rout_test(battle.pk, their[0].side_id, entered="6 6", actor=scourge)

    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    results = dict(battle.participants.values_list("warband__name", "result"))
    assert results == {"Reavers": "won", "Scourge": "lost"}
    loser = battle.participants.get(warband=duel["scourge"])
    assert (loser.routed, loser.rout_order) == (True, 1)
    credited = WarriorOutcome.objects.get(participant__warband=duel["reavers"], warrior=champion)
    assert credited.enemies_out_of_action == 2
    assert len(sides.missing_sides(list(battle.participants.all()))) == 2  # each checks his

    for warband in (duel["reavers"], duel["scourge"]):
        side_as_played(battle, warband)
    for warband in (duel["reavers"], duel["scourge"]):
        services.respond(battle, actor=warband.owner, agree=True)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED


def test_with_the_leader_out_a_hired_sword_never_lends_his_leadership_to_the_rout_test(duel):
    """Hired-swords chapter: his Leadership is never used for Rout tests. The Scourge's captain
    and every warrior of Ld 7 or more are out; the Ogre Bodyguard (Ld 7) still stands, but the
    test takes Hunch's (a Youngblood, Ld 6)."""
    scourge_band = duel["scourge"]
    Warband.objects.filter(pk=scourge_band.pk).update(status="draft", gold_crowns=200)
    hire(scourge_band, "youngblood", name="Hunch")
    hired_swords.hire_at_muster(scourge_band, actor=scourge_band.owner, sword_key="ogre_bodyguard")
    Warband.objects.filter(pk=scourge_band.pk).update(status="active", gold_crowns=0)
    battle = begin(duel)
    reavers, scourge = duel["reavers"].owner, scourge_band.owner
    their = list(Fighter.objects.filter(game__battle=battle, side__position=1)
                 .select_related("warrior"))  # fmt: skip
    ogre = next(f for f in their if f.warrior.hired_sword_id)
    out = [f for f in their if f != ogre and f.warrior.Ld >= ogre.warrior.Ld]  # the captain too
    best = max(f.warrior.Ld for f in their if f not in out and f != ogre)
    assert len(out) * 4 >= len(their) and any(f.warrior.is_leader for f in out)
    for target in out:
        moves.set_state(battle.pk, target.pk, play.OUT_OF_ACTION, actor=scourge, cause="enemy",
                        by_id=warriors(duel["reavers"])[1].pk)  # fmt: skip
    to_next_turn(battle, reavers)

    rout.take_rout_test(battle.pk, ogre.side_id, entered="1 1", actor=scourge)

    taken = DiceRoll.objects.filter(battle=battle).latest("pk").result
    assert f"against Ld {best})" in taken, taken


def _a_quarter_of_the_reavers_out(battle, duel):
    by = warriors(duel["scourge"])[0].pk
    theirs = list(Fighter.objects.filter(game__battle=battle, side__position=0))
    for target in theirs[: (len(theirs) + 3) // 4]:
        moves.set_state(battle.pk, target.pk, play.OUT_OF_ACTION, actor=duel["reavers"].owner,
                        cause="enemy", by_id=by)  # fmt: skip
    return theirs[0].side_id


def test_losses_in_its_own_turn_are_tested_as_its_next_turn_begins_not_at_once(duel):
    """FACTS.md §8: the Rout test is taken at the start of the warband's own turn. The Reavers
    lose a quarter in their own movement phase: no test then, nor in the Scourge's turn; one
    as their next turn begins."""
    battle = begin(duel)
    reavers, scourge = duel["reavers"].owner, duel["scourge"].owner
    moves.next_phase(battle.pk, actor=reavers)  # the Reavers' movement
    side = _a_quarter_of_the_reavers_out(battle, duel)

    moves.next_phase(battle.pk, actor=reavers)  # on to shooting: nothing holds them
    with pytest.raises(RuleViolation, match="no Rout test to take now"):
        rout.take_rout_test(battle.pk, side, entered="1 1", actor=reavers)
    moves.next_phase(battle.pk, actor=reavers)
    moves.next_phase(battle.pk, actor=reavers)  # the Scourge's turn
    to_next_turn(battle, scourge)  # the Reavers' turn 2 begins
    with pytest.raises(RuleViolation, match="Rout test first"):
        moves.next_phase(battle.pk, actor=reavers)
    rout.take_rout_test(battle.pk, side, entered="1 1", actor=reavers)
    moves.next_phase(battle.pk, actor=reavers)
    assert DiceRoll.objects.filter(battle=battle, result__contains="Rout test").count() == 1


def test_occupy_takes_no_rout_test_but_a_warband_may_still_give_up(client, duel):
    """Occupy: no Rout tests (eight turns at most); a warband that routs of its own accord
    ends the game."""
    battle = begin(duel, scenario_key="occupy")
    reavers, scourge = duel["reavers"].owner, duel["scourge"].owner
    side = _a_quarter_of_the_reavers_out(battle, duel)
    to_next_turn(battle, reavers)
    to_next_turn(battle, scourge)  # the Reavers' turn 2 begins a quarter down

    with pytest.raises(RuleViolation, match="Occupy has no Rout tests"):
        rout.take_rout_test(battle.pk, side, entered="6 6", actor=reavers)
    moves.next_phase(battle.pk, actor=reavers)  # nothing holds them
    with pytest.raises(RuleViolation, match="at the start of its turn"):
        rout.rout(battle.pk, side, actor=reavers)
    for _ in range(3):
        moves.next_phase(battle.pk, actor=reavers)
    to_next_turn(battle, scourge)  # turn 3 begins: they give up
    client.force_login(reavers)
    page = client.get(reverse("play_page", args=[battle.pk])).content.decode()
    assert "This scenario takes no Rout tests" in page and "Rout of our own accord" in page
    assert "Take the Rout test" not in page
    rout.rout(battle.pk, side, actor=reavers)

    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    assert dict(battle.participants.values_list("warband__name", "result")) == {
        "Reavers": "lost", "Scourge": "won",
    }  # fmt: skip


def test_a_wyrdstone_hunt_counter_drops_where_its_carrier_fell(duel):
    """Wyrdstone Hunt: a carrier taken out of action drops his counter where he fell, so
    neither its experience nor its shard is his; the champion who picks it up and keeps it to
    the end has both, and the captain's own stays with him."""
    battle = begin(duel, scenario_key="wyrdstone_hunt")
    reavers = duel["reavers"].owner
    captain, champion, _ = warriors(duel["reavers"])
    carrier = Fighter.objects.filter(game__battle=battle, side__position=0, warrior__is_hero=False)
    carrier = carrier.first()
    for who in (fighter(battle, captain), carrier):
        moves.pick_up(battle.pk, who.pk, loot="wyrdstone", actor=reavers)
    moves.set_state(battle.pk, carrier.pk, play.OUT_OF_ACTION, actor=reavers, cause="enemy",
                    by_id=warriors(duel["scourge"])[0].pk)  # fmt: skip
    moves.pick_up(battle.pk, fighter(battle, champion).pk, loot="wyrdstone", actor=reavers)

    end.end_game(battle.pk, actor=reavers, winner_id=duel["reavers"].pk)

    awards = dict(
        WarriorOutcome.objects.filter(participant__warband=duel["reavers"])
        .values_list("warrior", "awards")
    )  # fmt: skip
    assert awards[carrier.warrior_id] == {}
    assert awards[captain.pk] == awards[champion.pk] == {"wyrdstone_counter": 1}
    assert battle.participants.get(warband=duel["reavers"]).scenario_shards == 2


def test_nothing_is_reported_before_the_game_ends(duel):
    battle = begin(duel)

    with pytest.raises(RuleViolation, match="still being played"):
        services.respond(battle, actor=duel["scourge"].owner, agree=True)
    with pytest.raises(RuleViolation, match="still being played"):
        services.confirm_for_everybody(battle, actor=duel["organiser"])
    end.end_game(battle.pk, actor=duel["scourge"].owner, winner_id=None)
    assert set(battle.participants.values_list("result", flat=True)) == {"draw"}
    with pytest.raises(RuleViolation, match="over"):
        moves.next_phase(battle.pk, actor=duel["reavers"].owner)
