"""Items bought after the founding that take more than their price
(``warbands.rules.purchases``): the Wolfcloak's hunt, with scripted dice."""

import pytest

from core.dice import ScriptedDice
from warbands.rules.purchases import needs_wolf_hunt, wolf_hunt


@pytest.mark.parametrize(("roll", "strength", "slain"), [(1, 3, True), (3, 3, True),
                                                         (4, 3, False), (4, 4, True),
                                                         (6, 4, False)])  # fmt: skip
def test_the_wolf_is_slain_on_a_d6_equal_to_or_under_the_heros_strength(roll, strength, slain):
    hunt = wolf_hunt(ScriptedDice([roll]), hero="Ulrich", strength=strength)
    assert (hunt.roll, hunt.slain) == (roll, slain)


def test_only_a_wolfcloak_bought_after_the_founding_is_hunted():
    assert needs_wolf_hunt("wolfcloak", being_founded=False)
    assert not needs_wolf_hunt("wolfcloak", being_founded=True)
    assert not needs_wolf_hunt("helmet", being_founded=False)
