"""Hired swords after a battle: hired from the catalogue in step 7 with
the fee paid through the ledger, upkeep paid or he leaves, and experience and advances as a
hero in step 2.

The Reavers (Reikland) muster with Captain Adler, Brandt the champion and three Stadtwache;
277 gc sit in the chest (100) and four large sacks.
"""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath.dramatis_personae import swords_due
from battles.models import SequenceTask, WarriorOutcome
from core.errors import RuleViolation
from tests.battles.test_warband_special_rules import give_rule
from tests.helpers import (
    act,
    at_step,
    chest,
    fought,
    gold,
    play_to,
    roll,
    sequence_of,
    warriors,
)
from warbands import hired_swords, services, treasury
from warbands.models import HiredSwordType, LedgerEntry, Warrior

pytestmark = pytest.mark.django_db


def with_sword(warband, key: str = "ogre_bodyguard") -> Warrior:
    """A hired sword with the warband before the battle (as if hired at muster)."""
    return hired_swords.new_hired_sword(
        warband, HiredSwordType.objects.get(key=key), at_creation=True
    )


class TestAtStep7:
    """The Reavers at step 7, played once for the class."""

    AT_STEP = 7

    def test_hired_in_step_7_from_the_catalogue_through_the_ledger(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        before = gold(reavers)

        summary = act(sequence, "hire_sword", owner, sword="pit_fighter", name="Krug")

        assert "Hired Krug (Pit Fighter) for 30 gc" in summary
        krug = reavers.warriors.get(name="Krug")
        assert krug.hired_sword.key == "pit_fighter" and krug.is_hero and not krug.hired_at_creation
        assert gold(reavers) == before - 30
        assert LedgerEntry.objects.filter(warband=reavers, note__contains="hiring Krug").exists()
        with pytest.raises(RuleViolation, match="one of each type"):
            act(sequence, "hire_sword", owner, sword="pit_fighter")
        sequences.complete_step(sequence, actor=owner, step=7)  # no upkeep in his first sequence

    def test_step_7_refuses_a_fee_the_treasury_cannot_pay(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        for box in reavers.containers.filter(gold_crowns__gt=0):
            treasury.add_treasure(box, gold=-box.gold_crowns, reason="income")
        treasury.add_treasure(chest(reavers), gold=29, reason="income")

        with pytest.raises(RuleViolation):
            act(sequence, "hire_sword", owner, sword="pit_fighter")  # 30 gc

        assert gold(reavers) == 29
        assert not reavers.warriors.filter(hired_sword__isnull=False).exists()

    def test_the_warlock_hired_in_step_7_rolls_his_two_spells(self, reavers_at, duel):
        reavers = duel["reavers"]
        sequence, owner = reavers_at

        act(sequence, "hire_sword", owner, dice=(2, 2, 5), sword="warlock", name="Zed")

        zed = reavers.warriors.get(name="Zed")
        assert sorted(zed.spells.values_list("roll", flat=True)) == [2, 5]  # the second 2 rerolled
        assert set(zed.spells.values_list("spell__spell_list__key", flat=True)) == {"lesser_magic"}


def test_step_7_refuses_a_sword_the_warband_may_not_hire(duel):
    reavers = duel["reavers"]
    reavers.warband_type.special_rules = [{"effect": "hired_swords", "hired_swords": "none"}]
    reavers.warband_type.save()
    sequence, owner = at_step(duel, 7)
    with pytest.raises(RuleViolation, match="hire no hired swords"):
        act(sequence, "hire_sword", owner, sword="ogre_bodyguard")


def test_upkeep_paid_keeps_him(duel):
    reavers = duel["reavers"]
    ogre = with_sword(reavers)
    sequence, owner = at_step(duel, 7)
    with pytest.raises(RuleViolation, match="Pay Ogre Bodyguard's upkeep"):
        sequences.complete_step(sequence, actor=owner, step=7)
    before = gold(reavers)

    act(sequence, "upkeep", owner, warrior=ogre.pk, decision="pay")

    assert gold(reavers) == before - 30
    with pytest.raises(RuleViolation, match="settled already"):
        act(sequence, "upkeep", owner, warrior=ogre.pk, decision="leave")
    sequences.complete_step(sequence, actor=owner, step=7)
    ogre.refresh_from_db()
    assert ogre.status == Warrior.Status.ACTIVE


def test_upkeep_unpaid_he_leaves_and_the_rating_drops(duel):
    reavers = duel["reavers"]
    ogre = with_sword(reavers)
    sequence, owner = at_step(duel, 7)
    with_ogre = services.ratings_of([reavers])[reavers.pk]

    act(sequence, "upkeep", owner, warrior=ogre.pk, decision="leave")

    ogre.refresh_from_db()
    assert ogre.status == Warrior.Status.DISMISSED
    assert services.ratings_of([reavers])[reavers.pk] == with_ogre - 25 - ogre.experience
    sequences.complete_step(sequence, actor=owner, step=7)


def test_dearer_upkeep_with_a_race_he_dislikes(duel):
    reavers = duel["reavers"]
    ranger = with_sword(reavers, "elf_ranger")
    assert hired_swords.upkeep_of(ranger) == 20
    with_sword(reavers, "dwarf_troll_slayer")
    assert hired_swords.upkeep_of(ranger) == 40


def test_he_gains_experience_and_advances_as_a_hero(duel):
    reavers = duel["reavers"]
    ogre = with_sword(reavers)
    captain, champion, guards = warriors(reavers)
    battle = fought(
        duel,
        [(captain, False, 0, 0, None), (champion, False, 0, 0, None),
         (guards, False, 0, 0, None), (ogre, False, 0, 1, None)],
    )  # fmt: skip
    sequence = sequence_of(battle, reavers)
    play_to(sequence, 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")

    ogre.refresh_from_db()
    assert ogre.experience == 2  # survived (+1) and the scenario's 1
    task = SequenceTask.objects.get(sequence=sequence, warrior=ogre)
    assert task.kind == "hero_advance"  # the Heroes' advance table, as the rules say


def test_step_7_page_offers_the_catalogue_and_asks_the_upkeep(duel, client):
    reavers = duel["reavers"]
    with_sword(reavers, "warlock")
    sequence, owner = at_step(duel, 7)
    client.force_login(owner)

    url = reverse("sequence_detail", args=[sequence.pk])
    page = client.get(url).content.decode()
    # the step links to the catalogue, which draws its rows when asked
    assert "Hire a hired sword" in page and "Ogre Bodyguard" not in page
    assert f'href="{url}?catalogue=swords#sword-catalogue-heading"' in page
    assert "Warlock" in page and "Pay 15 gc" in page
    page = client.get(f"{url}?catalogue=swords").content.decode()
    assert "Ogre Bodyguard" in page and 'value="ogre_bodyguard"' in page

    response = client.post(
        reverse("sequence_act", args=[sequence.pk]),
        {"step": 7, "action": "hire_sword", "sword": "halfling_scout", "name": "Pip"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert reavers.warriors.get(name="Pip").hired_sword.key == "halfling_scout"
    assert "Ogre Bodyguard" not in response.content.decode()  # not posted from the catalogue
    response = client.post(
        reverse("sequence_act", args=[sequence.pk]),
        {"step": 7, "action": "hire_sword", "sword": "elf_ranger", "catalogue": "swords"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert reavers.warriors.filter(hired_sword__key="elf_ranger").exists()
    page = response.content.decode()  # posted from it: the catalogue, his row saying so
    row = page[page.index('value="elf_ranger"') :]
    assert "already" in row[: row.index("</form>")] and "Ogre Bodyguard" in page


def test_a_refused_hire_from_the_catalogue_is_told_in_its_row(duel, client):
    """A post from the catalogue (its rows say so: ``catalogue``) that the step refuses
    draws the catalogue again, with the refusal above the step. Nothing paid, nobody hired."""
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 7)
    act(sequence, "hire_sword", owner, sword="pit_fighter", name="Krug")
    client.force_login(owner)
    before = gold(reavers)
    response = client.post(
        reverse("sequence_act", args=[sequence.pk]),
        {"step": 7, "action": "hire_sword", "sword": "pit_fighter", "name": "Grom",
         "catalogue": "swords"},
        headers={"HX-Request": "true"},
    )  # fmt: skip
    page = response.content.decode()
    assert response.status_code == 422
    assert "one of each type" in page
    assert 'value="ogre_bodyguard"' in page and 'name="catalogue" value="swords"' in page
    assert gold(reavers) == before
    assert not reavers.warriors.filter(name="Grom").exists()
    # the same refusal posted from elsewhere (a script): the step as it is, catalogue closed
    response = client.post(
        reverse("sequence_act", args=[sequence.pk]),
        {"step": 7, "action": "hire_sword", "sword": "pit_fighter", "name": "Grom"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 422 and 'value="ogre_bodyguard"' not in response.content.decode()


def test_he_earns_as_a_henchman_on_the_henchmens_track_and_rolls_the_heroes_table(duel):
    """Hired swords text: experience "exactly as Henchmen" (no kills), advances on the
    Heroes' table; 4 → 5 crosses the henchmen's box at 5 and none of the heroes' boxes."""
    reavers = duel["reavers"]
    ogre = with_sword(reavers)
    Warrior.objects.filter(pk=ogre.pk).update(experience=4)
    battle = fought(duel, [(ogre, False, 0, 0, None)])
    WarriorOutcome.objects.filter(warrior=ogre).update(enemies_out_of_action=2)
    sequence = sequence_of(battle, reavers)
    play_to(sequence, 2, reavers.owner)

    gain = next(g for g in sequences.handler(2).gains(sequence) if g.warrior == ogre)
    assert [str(line) for line in gain.lines] == ["+1 survived"]
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")
    task = SequenceTask.objects.get(sequence=sequence, warrior=ogre)
    assert (task.kind, task.data["threshold"]) == ("hero_advance", 5)


def test_out_of_action_he_rolls_as_a_henchman(duel):
    reavers = duel["reavers"]
    ogre = with_sword(reavers)
    battle = fought(duel, [(ogre, True, 0, 0, None)])
    sequence = sequence_of(battle, reavers)
    play_to(sequence, 1, reavers.owner)
    sequences.prepare(sequence)

    task = sequence.tasks.get(step=1, warrior=ogre)
    assert (task.kind, task.data["models"]) == ("henchman_injury", 1)


# --- Who is asked for upkeep, and who is not ------------------------------------------------


def test_a_captive_or_dead_hired_sword_is_not_asked_for_upkeep(duel):
    """Hired Swords: no upkeep for one killed; one held captive by the enemy is not with the
    warband either, so he is not asked (nor does he block the step)."""
    reavers = duel["reavers"]
    ogre = with_sword(reavers)
    slayer = with_sword(reavers, "dwarf_troll_slayer")
    Warrior.objects.filter(pk=ogre.pk).update(status=Warrior.Status.CAPTURED)
    Warrior.objects.filter(pk=slayer.pk).update(status=Warrior.Status.DEAD)
    sequence, owner = at_step(duel, 7)
    before = gold(reavers)

    assert swords_due(sequence) == []
    with pytest.raises(RuleViolation, match="whose upkeep is due"):
        act(sequence, "upkeep", owner, warrior=ogre.pk, decision="pay")
    sequences.complete_step(sequence, actor=owner, step=7)
    assert gold(reavers) == before


@pytest.mark.parametrize(
    ("key", "skill", "also"),
    [
        ("dwarf_troll_slayer", "ferocious_charge", {"monster_slayer", "berserker", "mighty_blow"}),
        ("elf_ranger", "luck", {"fey", "quick_shot", "sprint"}),
        ("imperial_assassin", "backstabber", {"hide_in_shadows", "strike_to_injure"}),
    ],
)
def test_his_advance_offers_his_own_skills(duel, key, skill, also):
    reavers = duel["reavers"]
    sword = with_sword(reavers, key)
    Warrior.objects.filter(pk=sword.pk).update(experience=4)
    battle = fought(duel, [(sword, False, 0, 0, None)])
    sequence = sequence_of(battle, reavers)
    play_to(sequence, 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")
    task = SequenceTask.objects.get(sequence=sequence, warrior=sword)

    asked = roll(sequence, task, [1, 1], reavers.owner)  # 2: a new skill

    offered = {option for option, _ in asked.question["options"]}
    assert {skill, *also} <= offered
    roll(sequence, asked, [], reavers.owner, answers={"skill": skill})
    learned = sword.skills.select_related("skill__skill_list").get()
    assert (learned.skill.key, learned.skill.skill_list.key) == (skill, key)


# --- Always Hungry: a warrior of the list who asks an upkeep --------------------------------


def hungry(warband, upkeep: int = 15) -> Warrior:
    """Brandt the champion plays the Orc Mob's Troll: his type asks ``upkeep`` gc after every
    battle (the list file's ``upkeep`` effect)."""
    champion = warband.warriors.get(warrior_type__key="champion")
    give_rule(champion, "upkeep", upkeep=upkeep)
    return champion


def test_a_troll_is_asked_his_upkeep_and_paid_from_the_treasury(duel):
    reavers = duel["reavers"]
    troll = hungry(reavers)
    sequence, owner = at_step(duel, 7)
    with pytest.raises(RuleViolation, match="Pay Brandt's upkeep"):
        sequences.complete_step(sequence, actor=owner, step=7)
    before = gold(reavers)

    summary = act(sequence, "upkeep", owner, warrior=troll.pk, decision="pay")

    assert summary == "Paid 15 gc upkeep to Brandt."
    assert gold(reavers) == before - 15
    assert LedgerEntry.objects.filter(warband=reavers, note__contains="Brandt's upkeep").exists()
    sequences.complete_step(sequence, actor=owner, step=7)
    troll.refresh_from_db()
    assert troll.status == Warrior.Status.ACTIVE


def test_a_troll_unfed_wanders_off(duel):
    reavers = duel["reavers"]
    troll = hungry(reavers, upkeep=20)  # the Black Orcs' Troll
    sequence, owner = at_step(duel, 7)
    before = gold(reavers)

    act(sequence, "upkeep", owner, warrior=troll.pk, decision="leave")

    troll.refresh_from_db()
    assert troll.status == Warrior.Status.DISMISSED
    assert gold(reavers) == before
    sequences.complete_step(sequence, actor=owner, step=7)


def test_a_troll_the_treasury_cannot_feed_is_refused_payment(duel):
    reavers = duel["reavers"]
    troll = hungry(reavers)
    sequence, owner = at_step(duel, 7)
    for box in reavers.containers.filter(gold_crowns__gt=0):
        treasury.add_treasure(box, gold=-box.gold_crowns, reason="income")
    treasury.add_treasure(chest(reavers), gold=14, reason="income")

    with pytest.raises(RuleViolation):
        act(sequence, "upkeep", owner, warrior=troll.pk, decision="pay")

    assert gold(reavers) == 14
    assert swords_due(sequence) == [troll]  # still to be fed or let go


def test_step_7_page_asks_the_trolls_upkeep(duel, client):
    reavers = duel["reavers"]
    hungry(reavers)
    sequence, owner = at_step(duel, 7)
    client.force_login(owner)

    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()

    assert 'Brandt <small class="muted">(Champion, 15 gc)</small>' in page
    assert "Pay 15 gc" in page
