"""Post-battle step 6 through the services: who makes a rarity roll. Each hero who took part
and was not taken out of action searches; one who missed the battle, is held captive or has
died since does not (a battle without outcomes for the side: every hero free to fight)."""

import pytest

from battles import aftermath as sequences
from battles.models import WarriorOutcome
from tests.helpers import fought, play_to, sequence_of, warriors
from warbands.models import Warrior, WarriorType

pytestmark = pytest.mark.django_db


def youngblood(warband, name, **fields):
    kind = WarriorType.objects.get(warband_type=warband.warband_type, key="youngblood")
    return Warrior.objects.create(
        warband=warband, warrior_type=kind, name=name, is_hero=True,
        **{**kind.profile.as_dict(), **fields},
    )  # fmt: skip


def searchers(sequence) -> list[str]:
    sequences.prepare(sequence)
    return [t.warrior.name for t in sequence.tasks.filter(step=6, kind="rarity", void=False)]


def test_heroes_who_missed_the_battle_or_went_out_of_action_do_not_search(duel):
    reavers = duel["reavers"]
    captain, champion, guards = warriors(reavers)
    youngblood(reavers, "Ulf")  # free to fight, not fielded
    youngblood(reavers, "Otto", games_to_miss=1)  # could not take part
    battle = fought(
        duel,
        [(captain, False, 0, 0, None), (champion, True, 0, 0, None),
         (guards, False, 0, 0, None)],
    )  # fmt: skip

    sequence = play_to(sequence_of(battle, reavers), 6, reavers.owner)

    assert searchers(sequence) == ["Captain Adler"]


def test_a_hero_held_captive_or_dead_does_not_search(duel):
    reavers = duel["reavers"]
    captain, champion, guards = warriors(reavers)
    otto = youngblood(reavers, "Otto")
    battle = fought(
        duel,
        [(captain, False, 0, 0, None), (champion, False, 0, 0, None), (otto, False, 0, 0, None),
         (guards, False, 0, 0, None)],
    )  # fmt: skip
    sequence = play_to(sequence_of(battle, reavers), 5, reavers.owner)
    # Since the battle: Otto is held by the enemy, Brandt died (lost in the Pit, say).
    Warrior.objects.filter(pk=otto.pk).update(status=Warrior.Status.CAPTURED)
    Warrior.objects.filter(pk=champion.pk).update(status=Warrior.Status.DEAD)
    sequence = play_to(sequence, 6, reavers.owner)  # its rolls listed as it is reached

    assert searchers(sequence) == ["Captain Adler"]


def test_without_outcomes_for_the_side_every_hero_free_to_fight_searches(duel):
    reavers = duel["reavers"]
    youngblood(reavers, "Ulf")
    otto = youngblood(reavers, "Otto")
    battle = fought(duel)
    WarriorOutcome.objects.filter(participant__battle=battle, participant__warband=reavers).delete()
    Warrior.objects.filter(pk=otto.pk).update(status=Warrior.Status.CAPTURED)

    sequence = play_to(sequence_of(battle, reavers), 6, reavers.owner)

    assert searchers(sequence) == ["Captain Adler", "Brandt", "Ulf"]
