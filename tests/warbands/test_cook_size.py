"""The Halfling Scout's Cook: while he is with the warband its maximum size is one more, on
the pages that show it and in the hiring that enforces it."""

import pytest
from django.urls import reverse

from core.errors import RuleViolation
from tests.factories import WarbandFactory, hire
from warbands import hired_swords, services
from warbands.models import Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def full():
    """Mercenaries with 15 models, their list's maximum, and gold to spare."""
    warband = WarbandFactory()
    Warband.objects.filter(pk=warband.pk).update(gold_crowns=2000)
    warband.refresh_from_db()
    hire(warband, "mercenary_captain")
    for models in (5, 5, 4):
        hire(warband, "warrior", models=models)
    assert warband.warband_type.max_warriors == 15
    return warband


def test_without_the_cook_the_sixteenth_is_refused(full):
    with pytest.raises(RuleViolation):
        hire(full, "warrior")


def test_the_cook_makes_room_for_one_more_and_no_more(client, full):
    hired_swords.hire_at_muster(full, actor=full.owner, sword_key="halfling_scout")
    assert services.max_size(full, list(services.roster(full))) == 16

    hire(full, "warrior")
    with pytest.raises(RuleViolation):
        hire(full, "warrior")

    client.force_login(full.owner)
    muster = client.get(reverse("warband_muster", args=[full.pk])).content.decode()
    assert "16 / 16" in muster
    roster = client.get(reverse("warband_roster", args=[full.pk])).content.decode()
    assert "16 / 16" in roster
    printed = client.get(reverse("warband_print", args=[full.pk])).content.decode()
    assert "16 / 16" in printed
