"""Warband special rules that change the post-battle sequence (steps 1 and 2), through the
services. The Reikland types stand in for the new lists' types: each test gives a type the
special rule (its ``effect``, as the list files encode it) of the warrior it plays."""

import pytest

from battles import aftermath as sequences
from battles.aftermath.engine import step_context
from battles.aftermath.exploration import location_context
from battles.captives import holding as captives
from battles.models import Captive
from battles.report import sides
from core.errors import RuleViolation
from tests.battles.test_sequence import advance_to
from tests.helpers import act, at_step, fought, roll, sequence_of
from warbands.models import Item, Warrior, WarriorItem, WarriorType
from warbands.rules.families import POSSESSED

pytestmark = pytest.mark.django_db


def give_rule(warrior: Warrior, effect: str, **parameters) -> None:
    WarriorType.objects.filter(pk=warrior.warrior_type_id).update(
        special_rules=[{"name": effect, "effect": effect, "text": "…", **parameters}]
    )


def injuries_step(duel, outcomes):
    reavers = duel["reavers"]
    battle = fought(duel, outcomes)
    sequence = advance_to(sequence_of(battle, reavers), 1, reavers.owner)
    sequences.prepare(sequence)
    return sequence


# --- Step 1 --------------------------------------------------------------------------------


def test_a_troll_never_rolls_for_injury(duel):
    """Regeneration (Orc Mob Troll): out of action, it has no injury roll to make."""
    group = duel["reavers"].warriors.get(warrior_type__key="warrior")
    give_rule(group, "no_serious_injury")

    sequence = injuries_step(duel, [(group, True, 3, 0, None)])

    assert not sequence.tasks.filter(step=1).exists()


def test_daemons_out_of_action_are_banished_on_one_to_three(duel):
    """Daemonic instability (Plague Bearers, Nurglings): a 3 banishes, which a henchman's
    injury roll would not."""
    group = duel["reavers"].warriors.get(warrior_type__key="warrior")
    give_rule(group, "daemonic_instability")
    sequence = injuries_step(duel, [(group, True, 3, 0, None)])
    (task,) = sequence.tasks.filter(step=1)

    roll(sequence, task, [3, 4, 6], duel["reavers"].owner)

    group.refresh_from_db()
    assert task.kind == "daemonic_instability"
    assert group.group_size == 2


def bear_and_tamer(duel):
    """The champion plays the Bear Tamer, the warriors his Trained Bear."""
    reavers = duel["reavers"]
    tamer = reavers.warriors.get(warrior_type__key="champion")
    bear = reavers.warriors.get(warrior_type__key="warrior")
    give_rule(bear, "protects_tamer")
    reavers.warband_type.roster_rules = {
        "needs": [{"type": "warrior", "any_of": ["champion"], "message": "a Tamer"}]
    }
    reavers.warband_type.save(update_fields=["roster_rules"])
    return tamer, bear


def test_a_bear_that_stood_keeps_its_tamer_from_being_robbed(duel):
    """Fiercely Loyal: Robbed (36) counts as a Full recovery; he keeps his axe."""
    tamer, bear = bear_and_tamer(duel)
    sequence = injuries_step(duel, [(tamer, True, 0, 0, None), (bear, False, 0, 0, None)])

    task = roll(sequence, sequence.tasks.get(step=1), [3, 6], duel["reavers"].owner)

    assert "Full recovery" in task.summary
    assert tamer.items.filter(item__key="axe").exists()


def test_a_bear_taken_out_of_action_does_not_protect_its_tamer(duel):
    tamer, bear = bear_and_tamer(duel)
    sequence = injuries_step(duel, [(tamer, True, 0, 0, None), (bear, True, 3, 0, None)])
    task = sequence.tasks.get(step=1, kind="hero_injury")

    task = roll(sequence, task, [3, 6], duel["reavers"].owner)

    assert "Robbed" in task.summary
    assert not tamer.items.exists()


def test_a_ruffian_never_takes_command(duel):
    """No Respect: the promoted Ruffian (Ld 9) is passed over for the champion (Ld 7)."""
    reavers = duel["reavers"]
    captain = reavers.warriors.get(is_leader=True)
    champion = reavers.warriors.get(warrior_type__key="champion")
    group = reavers.warriors.get(warrior_type__key="warrior")
    ruffian = Warrior.objects.create(
        warband=reavers, warrior_type=group.warrior_type, name="Big Hans", is_hero=True,
        experience=20, **group.profile.with_value("Ld", 9).as_dict(),
    )  # fmt: skip
    give_rule(ruffian, "never_leader")
    sequence = injuries_step(duel, [(captain, True, 0, 0, None), (champion, False, 0, 0, None),
                                    (ruffian, False, 0, 0, None)])  # fmt: skip

    roll(sequence, sequence.tasks.get(step=1), [1, 3], reavers.owner)

    assert Warrior.objects.get(warband=reavers, is_leader=True) == champion


# --- Step 2 --------------------------------------------------------------------------------


def experience_step(duel, group, experience):
    reavers = duel["reavers"]
    Warrior.objects.filter(pk=group.pk).update(experience=experience)
    battle = fought(duel, [(group, False, 0, 0, None)])
    sequence = advance_to(sequence_of(battle, reavers), 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")
    return sequence


def test_a_goblin_who_rolls_the_lads_talent_is_killed_and_the_rest_roll_again(duel):
    """Runts (Orc Mob Goblins): 11 removes one model; the group rolls its advance again."""
    group = duel["reavers"].warriors.get(warrior_type__key="warrior")
    give_rule(group, "talent_kills")
    sequence = experience_step(duel, group, 1)  # 1 → 2: an advance

    roll(sequence, sequence.tasks.get(step=2), [5, 6], duel["reavers"].owner)

    group.refresh_from_db()
    assert group.group_size == 2 and group.is_hero is False
    assert not Warrior.objects.filter(name__contains="(the lad)").exists()
    (again,) = sequence.tasks.filter(step=2, done=False)
    assert again.data.get("after_talent")


def test_an_ungor_rolls_the_lads_talent_again(duel):
    """Lowest of the Low: 11 is rolled again; 8 gives the group +1 Attack."""
    group = duel["reavers"].warriors.get(warrior_type__key="warrior")
    give_rule(group, "talent_reroll")
    sequence = experience_step(duel, group, 1)

    roll(sequence, sequence.tasks.get(step=2), [5, 6, 4, 4], duel["reavers"].owner)

    group.refresh_from_db()
    assert (group.group_size, group.A) == (3, 2)


def test_an_ogre_advances_at_half_rate(duel):
    """Slow Witted: the box at 2 experience gives an Ogre nothing; 4 would."""
    group = duel["reavers"].warriors.get(warrior_type__key="warrior")
    give_rule(group, "half_rate_advances")
    sequence = experience_step(duel, group, 1)

    assert not sequence.tasks.filter(step=2).exists()


def test_a_promoted_ogre_picks_from_combat_and_strength_only(duel):
    reavers = duel["reavers"]
    group = reavers.warriors.get(warrior_type__key="warrior")
    give_rule(group, "talent_skill_lists", lists=["combat", "strength"])
    sequence = experience_step(duel, group, 1)

    task = roll(sequence, sequence.tasks.get(step=2), [5, 6], reavers.owner)

    assert [label for _, label in task.question["options"]] == ["Combat", "Strength"]


# --- Items with a post-battle roll ---------------------------------------------------------


@pytest.mark.parametrize(("face", "kept"), [(3, False), (4, True)])
def test_a_leader_out_of_action_rolls_for_his_cathayan_silk(duel, face, kept):
    """Cathayan silk clothes: after a battle in which the leader wearing them went out of
    action, a D6 of 1-3 ruins them."""
    captain = duel["reavers"].warriors.get(is_leader=True)
    WarriorItem.objects.create(
        warrior=captain, item=Item.objects.get(key="cathayan_silk_clothes"), price_paid=55
    )
    sequence = injuries_step(duel, [(captain, True, 0, 0, None)])
    task = sequence.tasks.get(step=1, kind="silk_ruin")

    roll(sequence, task, [face], duel["reavers"].owner)

    assert captain.items.filter(item__key="cathayan_silk_clothes").exists() is kept


# --- Step 8 --------------------------------------------------------------------------------


def test_a_recruit_starts_with_his_types_skill(duel):
    """Unnatural Strength (the Brutes'): a recruit hired after a battle starts with Strongman;
    the one hired before keeps what he had."""
    reavers = duel["reavers"]
    brandt = reavers.warriors.get(warrior_type__key="champion")
    give_rule(brandt, "starting_skill", skill="strongman")
    sequence, owner = at_step(duel, 8)

    act(sequence, "hire", owner, warrior_type=brandt.warrior_type_id, name="Gunther")

    gunther = reavers.warriors.get(name="Gunther")
    assert list(gunther.skills.values_list("skill__key", "skill__skill_list__key")) == [
        ("strongman", "strength")
    ]
    assert not brandt.skills.exists()


# --- A list that counts as the Possessed (the Carnival's Tainted) --------------------------


def tainted(warband) -> None:
    """The Reavers' list given the Carnival's Tainted (``counts_as_possessed``)."""
    warband.warband_type.special_rules = [
        {"name": "Tainted", "effect": "counts_as_possessed", "text": "…"}
    ]
    warband.warband_type.save(update_fields=["special_rules"])


def test_a_list_that_counts_as_the_possessed_explores_and_keeps_captives_as_them(duel):
    reavers = duel["reavers"]
    assert Captive.Status.SACRIFICED not in dict(captives.fates_for(reavers))
    tainted(reavers)
    sequence, owner = at_step(duel, 3)

    assert location_context(step_context(sequence, owner)).family == POSSESSED
    assert Captive.Status.SACRIFICED in dict(captives.fates_for(reavers))


def test_its_new_leader_learns_magic_as_the_possessed_do(duel):
    """The captain dies (D66 11); Brandt leads and may learn a spell instead of his next
    advance, as a Magister's successor does."""
    reavers = duel["reavers"]
    tainted(reavers)
    captain = reavers.warriors.get(is_leader=True)
    brandt = reavers.warriors.get(warrior_type__key="champion")
    sequence = injuries_step(duel, [(captain, True, 0, 0, None), (brandt, False, 0, 0, None)])

    roll(sequence, sequence.tasks.get(step=1, warrior=captain), [1, 1], reavers.owner)

    brandt.refresh_from_db()
    assert (brandt.is_leader, brandt.learns_magic_next) == (True, True)


# --- Taking part: a Trained Bear only beside its Tamer --------------------------------------


def trained_bear(duel):
    """The champion plays the Bear Tamer, the warriors his Trained Bear (``needs_tamer``, and
    the list's ``needs`` rule naming its tamer)."""
    tamer, bear = bear_and_tamer(duel)
    give_rule(bear, "needs_tamer")
    return tamer, bear


def test_a_bear_is_refused_in_a_side_without_its_tamer(duel):
    tamer, bear = trained_bear(duel)
    captain = duel["reavers"].warriors.get(is_leader=True)

    with pytest.raises(RuleViolation, match="Stadtwache takes part only in a battle its Champion"):
        fought(duel, [(captain, False, 0, 0, None), (bear, False, 0, 0, None)])

    fought(duel, [(captain, False, 0, 0, None), (tamer, False, 0, 0, None),
                  (bear, False, 0, 0, None)])  # fmt: skip


def test_a_bear_whose_tamer_cannot_fight_stays_at_camp(duel):
    reavers = duel["reavers"]
    tamer, bear = trained_bear(duel)
    assert bear in sides.fighters(reavers)
    Warrior.objects.filter(pk=tamer.pk).update(games_to_miss=1)

    assert bear not in sides.fighters(reavers)
    assert (bear, "stays at camp: no tamer free to fight") in sides.absentees(reavers)
    assert bear.pk not in {o.warrior_id for o in sides.whole_side(reavers)}
