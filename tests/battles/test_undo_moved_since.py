"""Undo and reopening put back only what is still as the step left it
(``battles.aftermath.undoing``): a helmet the step bought and the owner stored since, a recruit
given a sword since, a backpack filled since, a sword equipped and stored again, a warrior
whose experience moved on, a sack sold on the treasury page. Each refuses the whole undo,
saying what moved and what would work instead, and changes nothing; a refusal about a
container reaches an organiser who may not see the treasury without its story."""

import pytest

from battles import aftermath as sequences
from battles.aftermath.undoing import REOPEN_REFUSED
from core.errors import RuleViolation
from tests.helpers import act, at, backpack_bought_in_step_9, fingerprint, warriors
from warbands import treasury
from warbands.models import Item, StorageContainer, Warrior, WarriorType

pytestmark = pytest.mark.django_db


def sword(container):
    return treasury.add_item(
        container, item=Item.objects.get(key="sword"), reason=treasury.Reason.INCOME
    )


def refused(sequence, actor, step: int, *, reopen: bool = False) -> str:
    """The undo (or an organiser's reopening) of ``step``, refused, having changed nothing:
    the refusal."""
    before = fingerprint()
    with pytest.raises(RuleViolation) as refusal:
        if reopen:
            sequences.reopen_step(sequence, step, actor=actor, reason="Misread", seen=step + 1)
        else:
            sequences.undo_last_step(sequence, actor=actor, step=step)
    assert fingerprint() == before
    return str(refusal.value)


class TestAtStep8:
    """The Reavers at step 8, played once for the class."""

    AT_STEP = 8

    def test_a_helmet_bought_in_step_8_and_stored_since_is_not_paid_back(self, reavers_at, duel):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        captain = warriors(reavers)[0]
        act(sequence, "buy", reavers.owner, warrior=captain.pk, item="helmet")
        sequences.complete_step(sequence, actor=reavers.owner, step=8)
        treasury.store_warrior_item(
            captain.items.get(item__key="helmet"), reavers.containers.get(kind="treasure_chest"),
            actor=reavers.owner,
        )  # fmt: skip

        said = refused(sequence, reavers.owner, 8)

        assert said == (
            "Step 8 cannot be undone: the Helmet of Captain Adler, added in that step, is gone "
            "since (stored, sold, lost or taken). Take that change back first, or leave the step "
            "as it is and correct the roster by hand."
        )

    def test_a_recruit_given_a_sword_since_is_not_dismissed_with_it(self, reavers_at, duel):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        kind = WarriorType.objects.get(warband_type=reavers.warband_type, key="warrior")
        act(sequence, "hire", reavers.owner, warrior_type=kind.pk, group_size=1, name="Recruit")
        sequences.complete_step(sequence, actor=reavers.owner, step=8)
        recruit = reavers.warriors.get(name="Recruit")
        treasury.equip_stored_item(
            sword(reavers.containers.get(kind="treasure_chest")), recruit, actor=reavers.owner
        )

        assert "Recruit, added in that step, has been given equipment since" in refused(
            sequence, reavers.owner, 8
        )


class TestAtStep9:
    """The Reavers at step 9, played once for the class."""

    AT_STEP = 9

    def test_a_backpack_bought_in_step_9_and_filled_since_stays(self, reavers_at, duel):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        pack = backpack_bought_in_step_9(sequence, reavers)
        chest = reavers.containers.get(kind="treasure_chest")
        treasury.move_treasure(chest, pack, actor=reavers.owner, gold=5)

        said = refused(sequence, reavers.owner, 9)

        assert "the Backpack, added in that step, has changed since (gold crowns)" in said

    def test_a_sword_equipped_in_step_9_and_stored_since_does_not_come_back_twice(
        self, reavers_at, duel
    ):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        champion = warriors(reavers)[1]
        stored = sword(reavers.containers.get(kind="treasure_chest"))
        act(sequence, "equip", reavers.owner, stored_item=stored.pk, warrior=champion.pk)
        sequences.complete_step(sequence, actor=reavers.owner, step=9)
        sack = reavers.containers.filter(kind="large_sack").first()
        treasury.store_warrior_item(
            champion.items.get(item__key="sword"), sack, actor=reavers.owner
        )

        assert "the Sword of Brandt, added in that step, is gone since" in refused(
            sequence, reavers.owner, 9
        )

    def test_a_sack_sold_since_step_9_emptied_it_cannot_be_reopened(self, reavers_at, duel):
        """The sold sack cannot take its gold back: a refusal, not the database's "gone
        containers are empty"."""
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        sack = reavers.containers.filter(kind="large_sack").order_by("-pk").first()  # 27 gc
        spare = StorageContainer.objects.create(warband=reavers, kind="large_sack")
        act(sequence, "move", reavers.owner, source=sack.pk, target=spare.pk, gold=27)
        sequences.complete_step(sequence, actor=reavers.owner, step=9)
        treasury.sell_container(sack, actor=reavers.owner, proceeds_to=spare)
        duel["campaign"].organiser_sees_secrets = True
        duel["campaign"].save(update_fields=["organiser_sees_secrets"])

        said = refused(sequence, duel["organiser"], 9, reopen=True)

        assert "is no longer the warband's (sold, lost or captured since)" in said

    def test_an_organiser_who_may_not_see_the_treasury_hears_only_that_it_moved(
        self, reavers_at, duel
    ):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        pack = backpack_bought_in_step_9(sequence, reavers)
        chest = reavers.containers.get(kind="treasure_chest")
        treasury.move_treasure(chest, pack, actor=reavers.owner, gold=5)

        said = refused(sequence, duel["organiser"], 9, reopen=True)

        assert said == REOPEN_REFUSED


def test_experience_moved_on_since_step_2_is_not_overwritten(duel):
    sequence, reavers = at(duel, 3)
    captain = warriors(reavers)[0]
    Warrior.objects.filter(pk=captain.pk).update(experience=captain.experience + 1)

    said = refused(sequence, reavers.owner, 2)

    assert said.startswith("Step 2 cannot be undone: Captain Adler has changed since (experience)")
