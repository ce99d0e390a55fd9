"""A three-warband game end to end: played in the battle helper until two warbands rout, each
side checked by its own player, confirmed by all three, the carried items recovered among the
two still standing, a hero taken captive by the warband that put him out of action, the
underdog bonus measured against the strongest enemy, and each warband's post-battle sequence
played to its end."""

import pytest

from battles import aftermath as sequences
from battles.aftermath import carried_items
from battles.helper import moves, rout, start
from battles.models import (
    Battle,
    Captive,
    Fighter,
    Game,
    GameSide,
    PostBattleSequence,
    WarriorOutcome,
)
from battles.report import services
from battles.rules import play
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.battles.test_recovery_dice import declared
from tests.factories import mustered_warband
from tests.helpers import play_to, sequence_of, side_as_played, warriors
from warbands import treasury
from warbands.models import Warrior
from warbands.services import ratings_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(duel):
    """The duel's Reavers and Scourge and a third warband, the Rats, whose captain's 120
    experience makes them the strongest of the three."""
    rats = mustered_warband(campaign=duel["campaign"], name="Rats")
    Warrior.objects.filter(warband=rats, warrior_type__key="mercenary_captain").update(
        experience=120
    )
    return duel["reavers"], duel["scourge"], rats


def side_fighters(battle, warband):
    return list(
        Fighter.objects.filter(game__battle=battle, side__participant__warband=warband).order_by(
            "pk"
        )
    )


def to_next_turn(battle, actor):
    for _ in play.PHASE_ORDER:
        moves.next_phase(battle.pk, actor=actor)


def test_three_warbands_play_report_recover_capture_and_finish_every_sequence(duel, three):
    reavers, scourge, rats = three
    rats_captain = rats.warriors.get(warrior_type__key="mercenary_captain")
    reavers_captain, _, _ = warriors(reavers)
    their_captain, their_champion, _ = warriors(scourge)
    ratings = ratings_of([reavers, scourge, rats])
    assert ratings[rats.pk] > ratings[reavers.pk] == ratings[scourge.pk]

    # The helper seats all three; the turn goes round them in order.
    battle = start.start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk, rats.pk],
    )  # fmt: skip
    assert battle.participants.count() == 3

    # The Scourge lose their captain to the Rats' captain and their champion to the Reavers'.
    theirs = {f.warrior_id: f for f in side_fighters(battle, scourge)}
    moves.set_state(battle.pk, theirs[their_captain.pk].pk, play.OUT_OF_ACTION, actor=scourge.owner,
                    cause="enemy", by_id=rats_captain.pk)  # fmt: skip
    moves.set_state(battle.pk, theirs[their_champion.pk].pk, play.OUT_OF_ACTION,
                    actor=scourge.owner, cause="enemy", by_id=reavers_captain.pk)  # fmt: skip
    to_next_turn(battle, reavers.owner)
    rout.take_rout_test(battle.pk, theirs[their_captain.pk].side_id, entered="6 6",
                        actor=scourge.owner)  # fmt: skip
    # The Rats lose a quarter to the Reavers' captain and rout on their own turn's test.
    rats_fighters = side_fighters(battle, rats)
    for target in rats_fighters[:2]:
        moves.set_state(battle.pk, target.pk, play.OUT_OF_ACTION, actor=rats.owner,
                        cause="enemy", by_id=reavers_captain.pk)  # fmt: skip
    for _ in range(6):  # round the table until the Rats' turn begins with their test
        game = Game.objects.get(battle=battle)
        side = GameSide.objects.select_related("participant__warband__owner").get(
            game=game, position=game.player
        )
        owner = side.participant.warband.owner
        if side.participant.warband_id == rats.pk:
            try:
                rout.take_rout_test(battle.pk, side.pk, entered="6 6", actor=owner)
                break
            except RuleViolation:
                pass
        to_next_turn(battle, owner)
    battle.refresh_from_db()

    assert battle.status == Battle.Status.REPORTED
    results = {p.warband_id: (p.result, p.routed, p.rout_order) for p in battle.participants.all()}
    assert results == {
        reavers.pk: ("won", False, None),
        scourge.pk: ("lost", True, 1),
        rats.pk: ("lost", True, 2),
    }
    credited = WarriorOutcome.objects.get(participant__warband=reavers, warrior=reavers_captain)
    assert credited.enemies_out_of_action == 3

    # Each player checks his own side as the helper wrote it, and all three confirm.
    for warband in three:
        side_as_played(battle, warband)
    for warband in three:
        battle.refresh_from_db()
        if battle.status != Battle.Status.CONFIRMED:
            services.respond(battle, actor=warband.owner, agree=True)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED
    assert PostBattleSequence.objects.filter(participant__battle=battle).count() == 3

    # Step 0: the Scourge routed first and left their chest; the Reavers, standing, recover it.
    declared(battle, scourge)
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    chest = battle.carried_items.get(owner=scourge, outcome="pending")
    recovery = carried_items.resolve_item(
        battle, chest, actor=reavers.owner, dice=ScriptedDice([4])
    )
    assert recovery.winner == reavers.pk
    for warband in three:
        sequences.complete_step(sequence_of(battle, warband), actor=warband.owner, step=0)

    # Step 1: each captured hero is held by the warband that put him out of action.
    theirs_seq = sequence_of(battle, scourge)
    sequences.prepare(theirs_seq)
    for task in theirs_seq.tasks.filter(step=1, void=False):
        sequences.run_task(theirs_seq, task, actor=scourge.owner, step=1,
                           dice=ScriptedDice([6, 1]))  # fmt: skip
    sequences.complete_step(theirs_seq, actor=scourge.owner, step=1)
    held = dict(Captive.objects.filter(battle=battle).values_list("warrior_id", "captor_id"))
    assert held == {their_captain.pk: rats.pk, their_champion.pk: reavers.pk}

    # Step 2: the Reavers and the Scourge are underdogs against the Rats, the strongest enemy;
    # the Rats against nobody.
    expected_underdog = {reavers.pk: True, scourge.pk: True, rats.pk: False}
    for warband in three:
        seq = sequence_of(battle, warband)
        play_to(seq, 2, warband.owner)
        gains = sequences.handler(2).gains(seq)
        assert gains, warband.name
        has_underdog = any("underdog" in str(line) for gain in gains for line in gain.lines)
        assert has_underdog is expected_underdog[warband.pk], warband.name

    # Every sequence is played to its end, and nothing was minted or lost.
    for warband in three:
        seq = play_to(sequence_of(battle, warband), PostBattleSequence.COMPLETE, warband.owner)
        assert seq.current_step == PostBattleSequence.COMPLETE
    assert not treasury.conservation_problems()
