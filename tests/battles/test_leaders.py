"""After the death of a leader (campaigns text, Death of a leader), through the services with
scripted dice: the Undead buy a new Vampire after the next game and the Necromancer steps down;
a Sisters of Sigmar or Possessed successor who learned magic casts from then on."""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.models import SequenceTask
from core.errors import RuleViolation
from core.words import possessive
from tests.factories import WarbandFactory, finish, hire
from tests.helpers import act, fought, play_to, roll, sequence_of
from warbands.models import Spell, WarbandType, Warrior, WarriorSpell

pytestmark = pytest.mark.django_db


def mustered(duel, type_key: str, hires):
    """A warband of another list in the duel's campaign: ``hires`` are (type, models, name)."""
    warband = WarbandFactory(
        campaign=duel["campaign"], warband_type=WarbandType.objects.get(key=type_key)
    )
    for key, models, name in hires:
        hire(warband, key, models=models, name=name)
    return finish(warband)


def against_the_scourge(duel, warband, outcomes=()):
    """A battle of ``warband`` (in the Reavers' place) against the Scourge, which it wins."""
    return fought({**duel, "reavers": warband}, outcomes)


# --- Undead: a new Vampire after the next game --------------------------------------------------


@pytest.fixture
def undead(duel):
    return mustered(
        duel, "undead",
        [("vampire", 1, "Count Orlok"), ("necromancer", 1, "Mortis"), ("zombie", 3, "Shamblers")],
    )  # fmt: skip


def vampire_dies(duel, undead):
    """The Count is taken out of action and dies of his wounds (D66 11): Mortis leads. Returns
    the sequence of that battle, at step 8."""
    count = undead.warriors.get(name="Count Orlok")
    mortis = undead.warriors.get(name="Mortis")
    zombies = undead.warriors.get(name="Shamblers")
    battle = against_the_scourge(
        duel, undead, [(count, True, 0, 0, None), (mortis, False, 0, 0, None),
                       (zombies, False, 0, 0, None)],
    )  # fmt: skip
    sequence = play_to(sequence_of(battle, undead), 1, undead.owner)
    sequences.prepare(sequence)
    roll(sequence, sequence.tasks.get(step=1, warrior=count), [1, 1], undead.owner)
    return play_to(sequence, 8, undead.owner)


def test_the_necromancer_leads_when_the_vampire_dies(duel, undead):
    vampire_dies(duel, undead)
    assert undead.warriors.get(name="Count Orlok").status == Warrior.Status.DEAD
    assert Warrior.objects.get(warband=undead, is_leader=True).name == "Mortis"


def test_a_new_vampire_is_refused_after_the_game_he_died_in_and_bought_after_the_next(duel, undead):
    owner = undead.owner
    vampire = undead.warband_type.warrior_types.get(key="vampire")
    sequence = vampire_dies(duel, undead)
    with pytest.raises(RuleViolation, match="after the next game"):
        act(sequence, "hire", owner, warrior_type=vampire.pk, name="Countess")
    play_to(sequence, 11, owner)

    nxt = play_to(sequence_of(against_the_scourge(duel, undead), undead), 8, owner)
    said = act(nxt, "hire", owner, warrior_type=vampire.pk, name="Countess")

    assert said == (
        "Hired Countess (Vampire) for 110 gc; Countess leads; Mortis steps down as leader."
    )
    countess = undead.warriors.get(name="Countess")
    mortis = undead.warriors.get(name="Mortis")
    assert (countess.is_leader, countess.experience) == (True, 20)
    assert mortis.is_leader is False  # he steps down and loses the Leader ability
    with pytest.raises(RuleViolation, match="at most 1 Vampire"):
        act(nxt, "hire", owner, warrior_type=vampire.pk, name="A third")


def test_undoing_the_hire_of_the_new_vampire_gives_the_lead_back(duel, undead):
    owner = undead.owner
    vampire = undead.warband_type.warrior_types.get(key="vampire")
    play_to(vampire_dies(duel, undead), 11, owner)
    nxt = play_to(sequence_of(against_the_scourge(duel, undead), undead), 8, owner)
    act(nxt, "hire", owner, warrior_type=vampire.pk, name="Countess")
    sequences.complete_step(nxt, actor=owner, step=8)

    sequences.undo_last_step(nxt, actor=owner, step=8)

    assert not undead.warriors.filter(name="Countess").exists()
    assert Warrior.objects.get(warband=undead, is_leader=True).name == "Mortis"


def test_the_hire_list_offers_the_vampire_only_after_the_next_game(duel, undead, client):
    owner = undead.owner
    client.force_login(owner)
    sequence = vampire_dies(duel, undead)
    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
    assert "Vampire, 110 gc (A new Vampire may be bought after the next game" in page
    play_to(sequence, 11, owner)

    nxt = play_to(sequence_of(against_the_scourge(duel, undead), undead), 8, owner)
    page = client.get(reverse("sequence_detail", args=[nxt.pk])).content.decode()
    vampire = undead.warband_type.warrior_types.get(key="vampire")
    assert f'<option value="{vampire.pk}">Vampire, 110 gc</option>' in page


# --- A successor who learned magic is a caster from then on ------------------------------------


@pytest.fixture
def sisters(duel):
    return mustered(
        duel, "sisters_of_sigmar",
        [("sigmarite_matriarch", 1, "Mother Hildegard"), ("sister_superior", 1, "Ilse"),
         ("novice", 2, "Novices")],
    )  # fmt: skip


def advance(sequence, warrior, faces, answers=None):
    task = SequenceTask.objects.create(
        sequence=sequence, step=2, kind="hero_advance", warrior=warrior,
        label=f"{possessive(warrior.name)} advance",
    )  # fmt: skip
    return roll(sequence, task, faces, sequence.participant.warband.owner, answers)


def test_a_successor_who_learned_a_prayer_may_learn_another_instead_of_a_skill(duel, sisters):
    """The Matriarch died; Ilse took over. Her first advance is a prayer of the Matriarch's
    list instead of a roll; after that she prays as a Matriarch does: a new-skill result may
    be a new prayer instead."""
    Warrior.objects.filter(name="Mother Hildegard").update(status="dead", is_leader=False)
    ilse = sisters.warriors.get(name="Ilse")
    Warrior.objects.filter(pk=ilse.pk).update(is_leader=True, learns_magic_next=True)
    sequence = play_to(sequence_of(against_the_scourge(duel, sisters), sisters), 2, sisters.owner)

    first = advance(sequence, ilse, [3], {"successor_magic": "spell"})
    assert first.done and "new spell" in first.summary
    assert list(WarriorSpell.objects.filter(warrior=ilse).values_list("roll", flat=True)) == [3]

    second = advance(sequence, ilse, [5, 5])  # 10: a new skill, or as a caster a new prayer
    assert second.question["key"] == "skill_or_spell"
    second = roll(sequence, second, [3, 6], sisters.owner, {"skill_or_spell": "spell"})
    assert second.done  # the 3 she knows is rolled again
    known = WarriorSpell.objects.filter(warrior=ilse).order_by("roll")
    assert [(k.roll, k.spell.spell_list.key) for k in known] == [
        (3, "prayers_of_sigmar"), (6, "prayers_of_sigmar"),
    ]  # fmt: skip
    assert Spell.objects.get(pk=known[1].spell_id).d6 == 6


def test_a_successor_who_declined_magic_is_no_caster(duel, sisters):
    Warrior.objects.filter(name="Mother Hildegard").update(status="dead", is_leader=False)
    ilse = sisters.warriors.get(name="Ilse")
    Warrior.objects.filter(pk=ilse.pk).update(is_leader=True, learns_magic_next=True)
    sequence = play_to(sequence_of(against_the_scourge(duel, sisters), sisters), 2, sisters.owner)

    first = advance(sequence, ilse, [3, 3, 2], {"successor_magic": "advance"})
    assert first.done and not WarriorSpell.objects.filter(warrior=ilse).exists()
    second = advance(sequence, ilse, [5, 5])
    assert second.question["key"] == "skill"
