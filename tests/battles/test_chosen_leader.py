"""A leader the player named while mustering (a list's ``leader`` roster rule) is the leader for
every rule that asks who leads, as a list's leader type is: the battle helper's Rout test uses
his Leadership, he earns the winning leader's experience, and when he dies the hero of the
highest Leadership takes command (campaigns text, Death of a leader)."""

import pytest

from battles import aftermath as sequences
from battles.helper.rout import models_of, side_fighters
from battles.helper.start import start_game
from battles.models import GameSide
from battles.rules import play
from tests.factories import WarbandFactory, finish, hire, lead
from tests.helpers import fought, play_to, roll, sequence_of
from warbands.models import WarbandType, Warrior

pytestmark = pytest.mark.django_db


@pytest.fixture
def court(duel):
    """A Court in the duel's campaign, led by its Danseuse (Ld 7), not its Whipmaster (Ld 8)."""
    warband = WarbandFactory(
        campaign=duel["campaign"],
        warband_type=WarbandType.objects.get(key="court_of_the_profane_pleasures"),
    )
    hire(warband, "slaaneshi_whipmaster", name="Vex")
    hire(warband, "slaaneshi_danseuse", name="Lira")
    hire(warband, "cultist", models=2, name="Cultists")
    lead(warband, "slaaneshi_danseuse")
    return finish(warband)


def test_the_rout_test_takes_the_named_leaders_leadership(duel, court):
    battle = start_game(
        actor=court.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[court.pk, duel["scourge"].pk],
    )  # fmt: skip
    side = GameSide.objects.get(game__battle=battle, participant__warband=court)
    assert play.rout_leadership(models_of(side_fighters(side))) == 7  # Lira's, not Vex's 8


def test_the_named_leader_earns_the_winning_leaders_experience(duel, court):
    battle = fought({**duel, "reavers": court})
    play_to(sequence_of(battle, court), 3, court.owner)
    lira, vex = court.warriors.get(name="Lira"), court.warriors.get(name="Vex")
    assert (lira.experience, vex.experience) == (8 + 1 + 1, 8 + 1)  # survived; she led


def test_when_the_named_leader_dies_the_hero_of_the_highest_leadership_takes_command(duel, court):
    lira = court.warriors.get(name="Lira")
    others = [w for w in court.warriors.all() if w != lira]
    battle = fought(
        {**duel, "reavers": court},
        [(lira, True, 0, 0, None), *[(w, False, 0, 0, None) for w in others]],
    )
    sequence = play_to(sequence_of(battle, court), 1, court.owner)
    sequences.prepare(sequence)
    roll(sequence, sequence.tasks.get(step=1, warrior=lira), [1, 1], court.owner)  # 11: dead

    lira.refresh_from_db()
    assert (lira.status, lira.is_leader) == (Warrior.Status.DEAD, False)
    assert Warrior.objects.get(warband=court, is_leader=True).name == "Vex"
