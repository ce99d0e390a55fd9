"""The Undead's raised Zombie joins within the warband's size, counted as the hiring rules
count it (hired swords apart; a Halfling Scout's Cook adds one)."""

import pytest

from battles.captives import fates as captive_fates
from core.errors import RuleViolation
from tests.battles.test_captives import capture, empty_chest, fought, hero
from tests.factories import WarbandFactory, finish, hire
from warbands import hired_swords
from warbands.models import WarbandType, Warrior


@pytest.mark.django_db
def test_a_hired_sword_does_not_fill_the_room_for_a_raised_zombie(duel):
    """Captured: the Undead's new Zombie joins within the warband's size, which hired swords
    are no part of."""
    undead = WarbandFactory(
        campaign=duel["campaign"], warband_type=WarbandType.objects.get(key="undead")
    )
    hire(undead, "vampire", name="Count")
    hire(undead, "zombie", models=2, name="Shamblers")
    hired_swords.hire_at_muster(undead, actor=undead.owner, sword_key="pathfinder")
    finish(undead)
    limit = undead.warband_type.max_warriors
    Warrior.objects.filter(warband=undead, name="Shamblers").update(group_size=limit - 2)
    captive = capture(hero(duel["reavers"], "Brandt"), undead, fought(duel))

    captive_fates.decide_fate(captive, actor=undead.owner, fate="zombie", into=empty_chest(undead))

    models = sum(w.group_size for w in undead.warriors.on_roster() if not w.hired_sword_id)
    assert models == limit
    second = capture(hero(duel["reavers"], "Captain Adler"), undead, fought(duel))
    with pytest.raises(RuleViolation, match=f"has {limit} warriors already"):
        captive_fates.decide_fate(
            second, actor=undead.owner, fate="zombie", into=empty_chest(undead)
        )
