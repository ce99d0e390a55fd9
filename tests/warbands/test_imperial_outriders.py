"""The Imperial Outriders hire only mounted hired swords: the Freelance Knight and the
Roadwarden their text names, never the Highwayman nor anyone on foot (their list's
``hired_swords`` rule, with both entries naming the Outriders)."""

import pytest

from tests.factories import WarbandFactory
from warbands import hired_swords
from warbands.models import HiredSwordType, WarbandType

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("key", "allowed"),
    [
        ("freelancer", True),
        ("roadwarden", True),
        ("highwayman", False),
        ("ogre_bodyguard", False),
    ],
)
def test_only_mounted_hired_swords_join_the_outriders(key, allowed):
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="imperial_outriders"))
    sword = HiredSwordType.objects.get(key=key)
    assert (hired_swords.sword_refusal(warband, sword) is None) == allowed
