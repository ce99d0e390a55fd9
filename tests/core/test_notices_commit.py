"""A mail for each event under a real commit (the other tests of ``core.notices`` capture
the commit's callbacks): sent once the service's transaction commits, not when an outer one
rolls back."""

import pytest
from django.core import mail
from django.db import transaction

from battles.captives import ransom
from battles.models import Battle, Captive
from core import notices
from tests.helpers import mustered_duel
from warbands.models import Warrior

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_ransom_is_mailed_once_when_it_commits_and_never_when_it_rolls_back(reference_data):
    duel = mustered_duel()
    reavers, scourge = duel["reavers"], duel["scourge"]
    notices.set_preference(reavers.owner, choice="each", email="reavers@example.org")
    brandt = reavers.warriors.get(name="Brandt")
    Warrior.objects.filter(pk=brandt.pk).update(status=Warrior.Status.CAPTURED)
    battle = Battle.objects.create(
        campaign=duel["campaign"], scenario="Skirmish", status=Battle.Status.CONFIRMED
    )
    held = Captive.objects.create(warrior=brandt, captor=scourge, battle=battle)
    chest = scourge.containers.get(kind="treasure_chest")

    with pytest.raises(RuntimeError), transaction.atomic():
        ransom.set_ransom(held, actor=scourge.owner, ransom=40, into=chest)
        raise RuntimeError("the request failed after the service")
    assert mail.outbox == []

    ransom.set_ransom(held, actor=scourge.owner, ransom=40, into=chest)
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (
            ["reavers@example.org"],
            f"A ransom is asked for one of your heroes ({duel['campaign'].name})",
        )
    ]
