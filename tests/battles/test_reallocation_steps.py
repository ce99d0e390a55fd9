"""Post-battle steps 9 and 10 through the services: reallocating equipment and treasure,
the rating, and the whole sequence to its end."""

import pytest
from django.core.exceptions import PermissionDenied

from battles import aftermath as sequences
from core.errors import RuleViolation
from tests.helpers import (
    act,
    at_step,
    chest,
    gold,
    pile,
    roster_state,
    sack_with_room,
    warriors,
)
from warbands import services as warband_services
from warbands import treasury
from warbands.models import (
    Item,
    LedgerEntry,
    RatingSnapshot,
    StoredItem,
    WarriorItem,
)

pytestmark = pytest.mark.django_db


# --- Step 9: reallocation ------------------------------------------------------------------


class TestAtStep9:
    """The Reavers at step 9, played once for the class."""

    AT_STEP = 9

    def test_reallocation_moves_equips_stores_and_trades_containers(self, reavers_at, duel):
        reavers = duel["reavers"]
        captain, champion, _ = warriors(reavers)
        sequence, owner = reavers_at
        box = chest(reavers)
        sack = sack_with_room(reavers)

        act(sequence, "move", owner, source=box.pk, target=sack.pk, gold=20)
        sword = captain.items.get(item__key="sword")
        act(sequence, "unequip", owner, owned=sword.pk, target=box.pk)
        stored = StoredItem.objects.get(container=box, item__key="sword")
        act(sequence, "equip", owner, stored_item=stored.pk, warrior=champion.pk)
        act(sequence, "buy_container", owner, kind="backpack", pay_from=sack.pk)

        assert champion.items.filter(item__key="sword").exists()
        assert not captain.items.filter(item__key="sword").exists()
        assert reavers.containers.filter(kind="backpack", status="held").count() == 1
        entries = LedgerEntry.objects.filter(step=9, battle=sequence.participant.battle)
        assert set(entries.values_list("reason", flat=True)) == {"transfer", "unequip", "equip",
                                                                 "purchase"}  # fmt: skip
        backpack = reavers.containers.get(kind="backpack")
        act(sequence, "sell_container", owner, container=backpack.pk, proceeds_to=sack.pk)
        backpack.refresh_from_db()
        assert backpack.status == "sold"
        assert not treasury.ledger_mismatches()

    def test_undo_of_trading_restores_roster_and_treasury(self, reavers_at, duel):
        reavers = duel["reavers"]
        captain, _, _ = warriors(reavers)
        sequence, owner = reavers_at
        state = roster_state(reavers)
        sack = sack_with_room(reavers)
        act(sequence, "move", owner, source=chest(reavers).pk, target=sack.pk, gold=10)
        act(sequence, "buy_container", owner, kind="backpack", pay_from=chest(reavers).pk)
        backpack = reavers.containers.get(kind="backpack")
        act(sequence, "move", owner, source=chest(reavers).pk, target=backpack.pk, gold=5)
        act(sequence, "unequip", owner, owned=captain.items.get(item__key="sword").pk,
            target=backpack.pk)  # fmt: skip
        sequences.complete_step(sequence, actor=owner, step=9)

        sequences.undo_last_step(sequence, actor=owner)

        after = roster_state(reavers)
        # The bought backpack stays in the books (its ledger is append-only), marked sold.
        backpack.refresh_from_db()
        assert backpack.status == "sold" and backpack.is_empty
        after["containers"] = [c for c in after["containers"] if c[0] != backpack.pk]
        assert {k: v for k, v in after.items() if k != "items"} == {
            k: v for k, v in state.items() if k != "items"
        }
        assert sorted(i[1:] for i in after["items"]) == sorted(i[1:] for i in state["items"])
        assert not treasury.ledger_mismatches()

    def test_each_action_of_a_step_is_a_row_of_its_own(self, reavers_at, duel):
        """An action writes its own changes and lines (``StepAction``) and never rewrites the
        earlier ones; the record counts the changes, and the done step's summary is its actions'
        lines in order."""
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        sack = sack_with_room(reavers)
        said = [act(sequence, "move", owner, source=chest(reavers).pk, target=sack.pk, gold=10)]
        record = sequence.records.get(step=9, undone_at__isnull=True)
        first = list(record.actions.values_list("pk", "journal", "summary"))
        said.append(act(sequence, "move", owner, source=sack.pk, target=chest(reavers).pk, gold=4))
        sequences.complete_step(sequence, actor=owner, step=9)

        actions = list(record.actions.values_list("pk", "journal", "summary"))
        assert actions[:1] == first  # untouched by the later actions
        assert len(actions) == 2  # finishing the step changed and said nothing here
        # A move's journal: its two ledger lines, nothing of the other move.
        for _, journal, _ in actions:
            assert [op["op"] for op in journal] == ["ledger"] and len(journal[0]["pks"]) == 2
        record.refresh_from_db()
        assert record.changes == 2 and record.completed_by == owner
        assert record.journal() == [op for _, journal, _ in actions for op in journal]
        sequence.refresh_progress()
        shown = sequences.live_records(sequence).get(step=9).summary
        assert shown == "\n".join(said) and said[0] and said[1]
        # Each sack by its number (several of one kind), and nothing said of a zero.
        assert said == [f"Moved 10 gc from the Treasure Chest to the {sack}.",
                        f"Moved 4 gc from the {sack} to the Treasure Chest."]  # fmt: skip
        assert str(sack).startswith("Large Sack ") and str(sack)[-1].isdigit()

    def test_stray_input_is_refused_with_a_reason(self, reavers_at, duel):
        sequence, owner = reavers_at
        with pytest.raises(RuleViolation, match="whole number"):
            act(sequence, "move", owner, source="pile", target="pile", gold="lots")
        with pytest.raises(RuleViolation, match="Choose one of your containers"):
            act(sequence, "move", owner, source=999999, target="pile", gold=1)
        theirs = chest(duel["scourge"]).pk
        with pytest.raises(RuleViolation, match="Choose one of your containers"):
            act(sequence, "move", owner, source=chest(duel["reavers"]).pk, target=theirs, gold=1)
        with pytest.raises(RuleViolation, match="Choose one of your containers"):
            act(sequence, "store", owner, target=theirs, gold=1)
        with pytest.raises(RuleViolation, match="Choose a container to store it in"):
            act(sequence, "store", owner, target=pile(duel["reavers"]).pk, gold=1)
        with pytest.raises(RuleViolation, match="Nothing to do"):
            act(sequence, "explode", owner)
        assert not LedgerEntry.objects.filter(step=9).exists()

    def test_a_second_backpack_bought_in_step_9_is_numbered_as_one_bought_anywhere(
        self, reavers_at, duel
    ):
        """Two backpacks read "Backpack 1" and "Backpack 2" on every form, whether bought on the
        treasury page or in the sequence (as the carried-items form then tells them apart)."""
        reavers = duel["reavers"]
        sequence, owner = reavers_at
        sack = sack_with_room(reavers)

        act(sequence, "buy_container", owner, kind="backpack", pay_from=sack.pk)
        act(sequence, "buy_container", owner, kind="backpack", pay_from=sack.pk)

        backpacks = reavers.containers.filter(kind="backpack").order_by("pk")
        assert [str(b) for b in backpacks] == ["Backpack 1", "Backpack 2"]


def test_an_item_off_the_warriors_list_is_refused(duel):
    reavers = duel["reavers"]
    _, _, guards = warriors(reavers)
    treasury.add_item(chest(reavers), item=Item.objects.get(key="lucky_charm"), reason="income")
    sequence, owner = at_step(duel, 9)
    stored = StoredItem.objects.get(item__key="lucky_charm")
    with pytest.raises(RuleViolation):
        act(sequence, "equip", owner, stored_item=stored.pk, warrior=guards.pk)


# --- Step 10 and the whole sequence --------------------------------------------------------


def test_unstored_treasure_is_lost_at_the_end_with_ledger_entries(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 10)
    treasury.add_treasure(pile(reavers), gold=12, wyrdstone=1, reason="income")
    treasury.add_item(pile(reavers), item=Item.objects.get(key="sword"), reason="income")
    sequences.prepare(sequence)

    sequences.complete_step(sequence, actor=owner, step=10)

    assert pile(reavers).is_empty
    lost = LedgerEntry.objects.filter(reason="loss", step=10)
    assert sorted(lost.values_list("kind", "amount")) == [("gold", -12), ("item", -1),
                                                           ("wyrdstone", -1)]  # fmt: skip
    sequence.refresh_progress()
    record = sequences.live_records(sequence).get(step=10)  # the page's summaries
    assert "Lost for want of a container: 12 gc, 1 wyrdstone, Sword" in record.summary


def test_step_10_takes_the_rulebook_rating_of_the_roster_after_the_battle(duel):
    """The rating snapshot (summed in SQL) is ``rules.warband_rating`` of the roster as the
    sequence left it: a henchman group grown and experience gained count."""
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 10)
    group = reavers.warriors.filter(is_hero=False).first()
    group.group_size, group.experience = group.group_size + 1, group.experience + 3
    group.save(update_fields=["group_size", "experience"])
    expected = warband_services.rating(warband_services.roster(reavers))

    sequences.complete_step(sequence, actor=owner, step=10)

    snapshot = RatingSnapshot.objects.filter(warband=reavers).latest("pk")  # step 10's
    assert snapshot.rating == expected > 0
    sequence.refresh_progress()
    assert sequences.live_records(sequence).get(step=10).summary.startswith(f"Rating {expected}.")


def test_nothing_is_lost_when_everything_fits_and_the_ledger_checks_out(duel):
    reavers = duel["reavers"]
    before = gold(reavers)
    sequence, _ = at_step(duel, 11)
    assert sequence.is_complete and gold(reavers) == before
    assert not LedgerEntry.objects.filter(reason="loss").exists()
    assert not treasury.ledger_mismatches()


def test_the_treasury_steps_are_the_owners_alone(duel):
    sequence, _ = at_step(duel, 4)
    with pytest.raises(PermissionDenied):
        act(sequence, "sell", duel["organiser"], shards=1, into="pile")
    with pytest.raises(PermissionDenied):
        act(sequence, "sell", duel["scourge"].owner, shards=1, into="pile")


def test_a_treasury_step_posted_again_changes_nothing(duel):
    sequence, owner = at_step(duel, 5)
    sequences.complete_step(sequence, actor=owner, step=5)
    with pytest.raises(RuleViolation, match="already done"):
        sequences.complete_step(sequence, actor=owner, step=5)
    with pytest.raises(RuleViolation, match="already done"):
        sequences.act(sequence, actor=owner, step=5, action="add_veterans", values={})


def test_the_opponents_stored_items_are_out_of_reach(duel):
    """A stored item of the opponent cannot be equipped or sold by the Reavers."""
    scourge = duel["scourge"]
    theirs = treasury.add_item(chest(scourge), item=Item.objects.get(key="sword"), reason="income")
    reavers = duel["reavers"]
    captain, _, _ = warriors(reavers)
    sequence, owner = at_step(duel, 9)
    with pytest.raises(RuleViolation, match="Choose a stored item"):
        act(sequence, "equip", owner, stored_item=theirs.pk, warrior=captain.pk)
    with pytest.raises(RuleViolation):
        act(sequence, "move_item", owner, stored_item=theirs.pk, target=chest(reavers).pk)
    assert StoredItem.objects.get(pk=theirs.pk).container.warband == scourge
    assert WarriorItem.objects.filter(warrior=captain, item__key="sword").count() == 1
