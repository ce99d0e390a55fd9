"""Campaign rules of the lists applied when a warband is mustered or its roster checked, read
from the list files' ``effect`` keys (warbands/data/README.md): a starting skill, the
Druzhina's heirloom, the wardogs Animal Friendship keeps out of the warband's size."""

import pytest

from tests.factories import WarbandFactory, hire
from warbands.models import WarbandType

pytestmark = pytest.mark.django_db


def warband_of(key: str):
    return WarbandFactory(warband_type=WarbandType.objects.get(key=key))


# --- starting_skill: the Brutes' Unnatural Strength ----------------------------------------


def test_a_brute_is_hired_with_strongman():
    carnival = warband_of("carnival_of_chaos")

    brute = hire(carnival, "brute")
    tainted = hire(carnival, "tainted_one")

    learned = brute.skills.select_related("skill__skill_list").get()
    assert (learned.skill.key, learned.skill.skill_list.key) == ("strongman", "strength")
    assert not tainted.skills.exists()
