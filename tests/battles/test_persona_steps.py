"""Dramatis personae after a battle: heroes sent in step 6 to look for one (a D6 each under
his Initiative, logged for every player, their rarity rolls not made), hired in step 7 for
his fee through the ledger, one warband of the campaign at a time; no experience for him,
serious injuries as a hero, upkeep after his first battle, a wanderer gone after his."""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.aftermath import persona_search
from battles.aftermath.dramatis_personae import swords_due
from battles.models import DiceRoll, SequenceTask
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.helpers import (
    act,
    at_step,
    battle_of,
    fought,
    gold,
    play_to,
    sequence_of,
    warriors,
)
from warbands import dramatis_personae, hired_swords
from warbands.models import HiredSwordType, HouseRules, Injury, LedgerEntry, Warrior

pytestmark = pytest.mark.django_db


def with_persona(warband, key: str) -> Warrior:
    """A persona with the warband before the battle (hired after an earlier one)."""
    return hired_swords.new_hired_sword(
        warband, HiredSwordType.objects.get(key=key), at_creation=False
    )


def rarity_rolls(sequence):
    sequences.prepare(sequence)
    return {t.warrior_id: t for t in sequence.tasks.filter(step=6, kind="rarity")}


def seek(sequence, owner, persona, heroes, dice):
    return act(
        sequence, "seek_persona", owner, dice=dice, persona=persona, heroes=[h.pk for h in heroes]
    )


class TestAtStep6:
    """The Reavers at step 6, played once for the class."""

    AT_STEP = 6

    def test_found_when_a_searcher_rolls_under_his_initiative_then_hired_for_his_fee(
        self, reavers_at, duel
    ):
        reavers = duel["reavers"]
        captain, champion, _guards = warriors(reavers)
        sequence, owner = reavers_at
        rarity_rolls(sequence)

        # The champion's 6 fails; the captain's 3 is under his Initiative 4.
        summary = seek(sequence, owner, "johann_the_knife", [champion, captain], dice=[6, 3])

        assert (captain.I, champion.I) == (4, 3)
        assert "found" in summary and "not found" not in summary
        rolls = rarity_rolls(sequence)
        assert rolls[captain.pk].void and rolls[champion.pk].void  # no rare items for them
        with pytest.raises(RuleViolation, match="looked for Johann the knife already"):
            seek(sequence, owner, "johann_the_knife", [captain], dice=[1])
        sequences.complete_step(sequence, actor=owner, step=6)
        sequence.refresh_from_db()
        before = gold(reavers)

        said = act(sequence, "hire_sword", owner, sword="johann_the_knife", name="Johann")

        assert "Hired Johann (Johann the knife, dramatis persona) for 70 gc" in said
        johann = reavers.warriors.get(name="Johann")
        assert johann.hired_sword.is_persona and johann.is_hero and not johann.is_leader
        assert gold(reavers) == before - 70
        assert LedgerEntry.objects.filter(warband=reavers, note__contains="hiring Johann").exists()
        with pytest.raises(RuleViolation, match="one of each type"):
            act(sequence, "hire_sword", owner, sword="johann_the_knife")
        sequences.complete_step(sequence, actor=owner, step=7)  # no upkeep before his battle

    def test_not_found_when_no_searcher_rolls_under_his_initiative(self, reavers_at, duel):
        reavers = duel["reavers"]
        captain, champion, _guards = warriors(reavers)
        sequence, owner = reavers_at

        summary = seek(sequence, owner, "johann_the_knife", [captain, champion], dice=[4, 3])

        assert summary.endswith("not found.")  # equal to his Initiative is not under it
        play_to(sequence, 7, owner)
        with pytest.raises(RuleViolation, match="has not been found"):
            act(sequence, "hire_sword", owner, sword="johann_the_knife")
        assert not reavers.warriors.filter(hired_sword__key="johann_the_knife").exists()

    def test_the_search_refuses_a_persona_the_warband_may_not_hire(self, reavers_at, duel):
        reavers = duel["reavers"]
        captain, _champion, _guards = warriors(reavers)
        sequence, owner = reavers_at
        with pytest.raises(RuleViolation, match="may not hire"):
            seek(sequence, owner, "veskit", [captain], dice=[1])  # Skaven only
        assert not rarity_rolls(sequence)[captain.pk].void

    def test_one_warband_of_the_campaign_has_him_at_a_time(self, reavers_at, duel):
        reavers, scourge = duel["reavers"], duel["scourge"]
        captain, _champion, _guards = warriors(reavers)
        sequence, owner = reavers_at
        seek(sequence, owner, "aenur", [captain], dice=[1])
        play_to(sequence, 7, owner)
        with_persona(scourge, "aenur")  # the Scourge has him meanwhile (as if hired)

        with pytest.raises(RuleViolation, match="fights for another warband of this campaign"):
            act(sequence, "hire_sword", owner, sword="aenur")

        assert not reavers.warriors.filter(hired_sword__key="aenur").exists()

    def test_the_search_dice_are_logged_for_every_player(self, reavers_at, duel, client):
        reavers = duel["reavers"]
        captain, _champion, _guards = warriors(reavers)
        sequence, owner = reavers_at
        client.force_login(owner)

        client.post(
            reverse("sequence_act", args=[sequence.pk]),
            {"step": 6, "action": "seek_persona", "persona": "johann_the_knife",
             "heroes": [captain.pk], "dice": "2"},
            headers={"HX-Request": "true"},
        )  # fmt: skip

        roll = DiceRoll.objects.get(battle=sequence.participant.battle, purpose__contains="looking")
        assert (roll.faces, roll.secret) == ([2], False)
        assert "Johann the knife" in roll.purpose and captain.name in roll.purpose
        sequence.refresh_from_db()
        assert sequence.state["persona_searches"][0]["found"] is True

    def test_the_step_6_page_offers_the_search_and_tells_what_was_found(
        self, reavers_at, duel, client
    ):
        reavers = duel["reavers"]
        captain, _champion, _guards = warriors(reavers)
        sequence, owner = reavers_at
        client.force_login(owner)
        page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
        assert "Look for a dramatis persona" in page and "Johann the knife (70 gc)" in page
        assert "Veskit, high executioner of clan eshin (80 gc): A Mercenaries" in page
        assert f"{captain.name} (I 4)" in page

        seek(sequence, owner, "johann_the_knife", [captain], dice=[2])

        page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
        assert "Johann the knife: rolled 2, found: hire him in step 7" in page

    def test_undoing_step_6_takes_back_the_search_and_gives_back_the_rarity_rolls(
        self, reavers_at, duel
    ):
        reavers = duel["reavers"]
        captain, _champion, _guards = warriors(reavers)
        sequence, owner = reavers_at
        rarity_rolls(sequence)
        seek(sequence, owner, "johann_the_knife", [captain], dice=[1])
        for task in sequence.tasks.filter(step=6, void=False, done=False):
            sequences.run_task(sequence, task, actor=owner, step=6, dice=ScriptedDice([1, 1]))
        sequences.complete_step(sequence, actor=owner, step=6)

        sequences.undo_last_step(sequence, actor=owner, step=6)

        sequence.refresh_from_db()
        assert "persona_searches" not in sequence.state or not sequence.state["persona_searches"]
        assert not rarity_rolls(sequence)[captain.pk].void


def test_a_hero_out_of_action_or_who_rolled_for_rare_items_does_not_search(duel):
    reavers = duel["reavers"]
    captain, champion, _guards = warriors(reavers)
    sequence, owner = at_step(duel, 6, champion_out=True)
    assert set(rarity_rolls(sequence)) == {captain.pk}

    with pytest.raises(RuleViolation, match="Only heroes who stood"):
        seek(sequence, owner, "johann_the_knife", [champion], dice=[1])
    task = rarity_rolls(sequence)[captain.pk]
    sequences.run_task(sequence, task, actor=owner, step=6, dice=ScriptedDice([1, 1]))
    with pytest.raises(RuleViolation, match="Only heroes who stood"):
        seek(sequence, owner, "johann_the_knife", [captain], dice=[1])
    assert "persona_searches" not in sequence_of(sequence.participant.battle, reavers).state


# --- With the warband: no experience, injuries as a hero, upkeep, a wanderer leaves -----------


def test_he_gains_no_experience(duel):
    reavers = duel["reavers"]
    johann = with_persona(reavers, "johann_the_knife")
    captain, champion, guards = warriors(reavers)
    battle = fought(
        duel,
        [(captain, False, 0, 0, None), (champion, False, 0, 0, None),
         (guards, False, 0, 0, None), (johann, False, 0, 2, None)],
    )  # fmt: skip
    sequence = sequence_of(battle, reavers)
    play_to(sequence, 2, reavers.owner)
    sequences.act(sequence, actor=reavers.owner, step=2, action="award")

    johann.refresh_from_db()
    captain.refresh_from_db()
    assert johann.experience == 0
    assert not SequenceTask.objects.filter(sequence=sequence, warrior=johann).exists()
    assert captain.experience > 20  # the others earned theirs


def test_out_of_action_he_rolls_on_the_heroes_chart(duel):
    reavers = duel["reavers"]
    johann = with_persona(reavers, "johann_the_knife")
    battle = fought(duel, [(johann, True, 0, 0, None)])
    sequence = sequence_of(battle, reavers)
    play_to(sequence, 1, reavers.owner)
    sequences.prepare(sequence)
    task = SequenceTask.objects.get(sequence=sequence, warrior=johann, step=1)
    assert task.kind == "hero_injury"


def test_his_upkeep_is_due_after_his_first_battle_or_he_leaves(duel):
    reavers = duel["reavers"]
    johann = with_persona(reavers, "johann_the_knife")
    sequence, owner = at_step(duel, 7)
    assert swords_due(sequence) == [johann]
    before = gold(reavers)

    act(sequence, "upkeep", owner, warrior=johann.pk, decision="pay")

    assert gold(reavers) == before - 30


def test_a_wanderer_leaves_after_his_battle_and_is_not_sought_straight_again(duel):
    reavers = duel["reavers"]
    captain, _champion, _guards = warriors(reavers)
    aenur = with_persona(reavers, "aenur")
    battle = battle_of(duel)
    sequence = sequence_of(battle, reavers)
    play_to(sequence, 6, reavers.owner)
    owner = reavers.owner

    with pytest.raises(RuleViolation, match="already: one of each type"):
        seek(sequence, owner, "aenur", [captain], dice=[1])
    play_to(sequence, 7, owner)
    with pytest.raises(RuleViolation, match="one battle only"):
        act(sequence, "upkeep", owner, warrior=aenur.pk, decision="pay")
    act(sequence, "upkeep", owner, warrior=aenur.pk, decision="leave")
    aenur.refresh_from_db()
    assert aenur.status == Warrior.Status.DISMISSED
    sequences.complete_step(sequence, actor=owner, step=7)

    # Gone, he fought this battle: not sought again until one without him.
    fought_it = persona_search.fought_last_battle(sequence)
    persona = HiredSwordType.objects.get(key="aenur")
    refusal = dramatis_personae.persona_refusal(reavers, persona, fought_last_battle=fought_it)
    assert "fought the warband's last battle" in refusal
    next_one = sequence_of(battle_of(duel), reavers)
    assert persona_search.fought_last_battle(next_one) == set()


def test_the_step_7_page_offers_the_persona_found_and_lets_a_wanderer_go(duel, client):
    reavers = duel["reavers"]
    captain, _champion, _guards = warriors(reavers)
    aenur = with_persona(reavers, "aenur")
    sequence, owner = at_step(duel, 6)
    seek(sequence, owner, "johann_the_knife", [captain], dice=[1])
    play_to(sequence, 7, owner)
    client.force_login(owner)

    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()

    assert "Hire a dramatis persona" in page and "Johann the knife" in page
    assert "dramatis persona · 70 gc to hire, 30 gc upkeep after each battle" in page
    row = page[page.index(f'value="{aenur.pk}"') :]
    assert "He stays for one battle only." in row[: row.index("</form>")]
    assert "Pay 0 gc" not in row[: row.index("</form>")]
    response = client.post(
        reverse("sequence_act", args=[sequence.pk]),
        {"step": 7, "action": "hire_sword", "sword": "johann_the_knife", "name": "Jo"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert reavers.warriors.get(name="Jo").hired_sword.key == "johann_the_knife"


def test_a_hero_sees_the_physician_or_looks_for_a_persona_not_both(duel):
    """Both take the place of his rarity roll (Sawbones, where the campaign plays it)."""
    HouseRules.objects.create(campaign=duel["campaign"], sawbones=True)
    reavers = duel["reavers"]
    captain, brandt, _guards = warriors(reavers)
    for hero in (captain, brandt):
        Injury.objects.create(warrior=hero, name="Leg wound", effect="Leg wound: -1 Movement")
    sequence, owner = at_step(duel, 6)
    rarity_rolls(sequence)
    leg = brandt.injuries.get()
    act(sequence, "treat", owner, [6, 5], hero=brandt.pk, injury=leg.pk, pay_from="")
    seek(sequence, owner, "johann_the_knife", [captain], dice=[6])

    with pytest.raises(RuleViolation, match="Only heroes who stood"):
        seek(sequence, owner, "aenur", [brandt], dice=[1])
    with pytest.raises(RuleViolation, match="looked for a dramatis persona"):
        act(sequence, "treat", owner, [6, 5], hero=captain.pk,
            injury=captain.injuries.get().pk, pay_from="")  # fmt: skip
    assert set(rarity_rolls(sequence)) == {captain.pk, brandt.pk}  # none listed again
