"""Death of a leader (campaigns text): the Undead buy a new Vampire after the next game, and
whoever led in his place steps down (``warbands.rules.succession``)."""

import pytest

from core.errors import RuleViolation
from warbands.rules import RosterEntry, WarbandLimits, WarriorKind, check_hire
from warbands.rules.succession import acting_leader_steps_down, leader_bought_again

VAMPIRE = WarriorKind("vampire", "Vampire", is_hero=True, is_leader=True, cost=110,
                      min_count=1, max_count=1)  # fmt: skip
MORTIS = RosterEntry("necromancer", is_hero=True, is_leader=True, models=1)
ZOMBIES = RosterEntry("zombie", is_hero=False, is_leader=False, models=3)


def test_not_in_the_sequence_of_the_game_the_vampire_was_lost_in():
    with pytest.raises(RuleViolation, match="A new Vampire may be bought after the next game"):
        leader_bought_again("Undead", "Vampire", games_since_lost=0)


@pytest.mark.parametrize("games", [1, 2, 5])
def test_after_the_next_game_the_vampire_returns_and_the_necromancer_steps_down(games):
    assert leader_bought_again("Undead", "Vampire", games_since_lost=games) is True
    roster = acting_leader_steps_down([MORTIS, ZOMBIES])
    assert [entry.is_leader for entry in roster] == [False, False]
    assert check_hire(WarbandLimits(max_warriors=15), roster, VAMPIRE, models=1, gold=None) == 110


def test_other_lists_never_buy_their_leader_again():
    assert leader_bought_again("Mercenaries", "Mercenary Captain", games_since_lost=3) is False
    assert leader_bought_again("Undead", "Vampire", games_since_lost=None) is False
    with pytest.raises(RuleViolation, match="may never hire a second"):
        check_hire(WarbandLimits(max_warriors=15), [MORTIS], VAMPIRE, models=1, gold=None)
