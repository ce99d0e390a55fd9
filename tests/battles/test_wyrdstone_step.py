"""Post-battle steps 4 and 5 through the services: who counts. The wyrdstone price reads the
warband's size without its captives (they count against its limits, not in its size); an
experienced group held captive takes no veterans."""

import pytest

from tests.helpers import act, at_step, chest, gold, play_to, warriors
from warbands import treasury
from warbands.models import Warrior, WarriorType

pytestmark = pytest.mark.django_db


def test_captives_do_not_count_in_the_warband_size_for_the_wyrdstone_price(duel):
    reavers = duel["reavers"]
    kind = WarriorType.objects.get(warband_type=reavers.warband_type, key="youngblood")
    for name in ("Ulf", "Otto"):  # held by an enemy: seven models on the roster, five free
        Warrior.objects.create(
            warband=reavers, warrior_type=kind, name=name, is_hero=True,
            status=Warrior.Status.CAPTURED, **kind.profile.as_dict(),
        )  # fmt: skip
    treasury.add_treasure(chest(reavers), gold=-80, wyrdstone=1, reason="income")
    sequence, owner = at_step(duel, 4)  # exploring found 2 more shards
    before = gold(reavers)

    summary = act(sequence, "sell", owner, shards=3, into=chest(reavers).pk)

    assert "70 gc (5 warriors)" in summary  # 3 shards, 4-6 warriors: 70 (7-9 would be 65)
    assert gold(reavers) == before + 70


def test_an_experienced_group_held_captive_takes_no_veterans(duel):
    reavers = duel["reavers"]
    _, _, guards = warriors(reavers)
    Warrior.objects.filter(pk=guards.pk).update(experience=2)
    sequence, owner = at_step(duel, 4)
    Warrior.objects.filter(pk=guards.pk).update(status=Warrior.Status.CAPTURED)

    sequence = play_to(sequence, 5, owner)  # its rolls listed as it is reached

    assert sequence.current_step == 5
    assert not sequence.tasks.filter(step=5).exists()
