"""Reopening a step that later changes depend on (``battles.aftermath.reopening``): the later
steps it undoes are listed first, latest first, and undone with it once confirmed; changes
made since outside the sequence that stand in the way are named, latest first, with what to
do, to those who may see the treasury, and to nobody else."""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.models import StepRecord
from tests.helpers import (
    act,
    at_step,
    chest,
    fingerprint,
    fought,
    play_to,
    sack_with_room,
    sequence_of,
)
from warbands import treasury
from warbands.models import LedgerEntry

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
NEUTRAL = "That step cannot be reopened: later treasury changes depend on it."


def reopen(client, sequence, **data):
    return client.post(reverse("sequence_reopen", args=[sequence.pk]), data, headers=HTMX)


def live_steps(sequence) -> list[int]:
    return sorted(sequence.records.filter(undone_at__isnull=True).values_list("step", flat=True))


# --- Later steps: listed, then undone with it ------------------------------------------------


class TestAtStep5:
    """The Reavers at step 5, played once for the class."""

    AT_STEP = 5

    def test_reopening_lists_the_later_steps_it_undoes_latest_first_and_changes_nothing(
        self, reavers_at, client, duel
    ):
        sequence, _ = reavers_at
        sequences.prepare(sequence)  # step 5's rolls, listed as it became current
        client.force_login(duel["organiser"])
        before = fingerprint()

        response = reopen(client, sequence, step=2, current=5, reason="Misread the scenario")

        body = response.content.decode()
        assert response.status_code == 200
        assert "Reopen step 2: Experience?" in body
        listed = [body.index(f"<li>Step {n}: ") for n in (4, 3)] + [body.index("<li>then step 2")]
        assert listed == sorted(listed)  # step 4, then 3, then 2 itself
        assert '<input type="hidden" name="confirmed" value="1">' in body
        assert 'name="reason" value="Misread the scenario"' in body
        assert fingerprint() == before
        sequence.refresh_from_db()
        assert sequence.current_step == 5

    def test_a_confirmed_reopening_undoes_the_later_steps_latest_first_then_the_step(
        self, reavers_at, client, duel
    ):
        sequence, _ = reavers_at
        done = {r.step: r.pk for r in sequence.records.filter(undone_at__isnull=True)}
        client.force_login(duel["organiser"])

        response = reopen(client, sequence, step=2, current=5, reason="Misread", confirmed=1)

        assert response.status_code == 200
        sequence.refresh_from_db()
        assert sequence.current_step == 2
        assert live_steps(sequence) == [0, 1]
        undone = StepRecord.objects.filter(pk__in=[done[2], done[3], done[4]]).order_by("undone_at")
        assert [r.step for r in undone] == [4, 3, 2]
        assert {r.reason for r in undone} == {"Misread"}
        assert not treasury.ledger_mismatches()

    def test_the_last_step_done_is_reopened_at_once_with_nothing_later_to_undo(
        self, reavers_at, client, duel
    ):
        sequence, _ = reavers_at
        client.force_login(duel["organiser"])

        response = reopen(client, sequence, step=4, current=5, reason="Misread")

        assert response.status_code == 200 and "Reopen step 4" not in response.content.decode()
        sequence.refresh_from_db()
        assert sequence.current_step == 4


def test_a_confirmation_drawn_before_the_sequence_moved_on_changes_nothing(client, duel):
    sequence, owner = at_step(duel, 4)
    client.force_login(duel["organiser"])
    assert reopen(client, sequence, step=2, current=4, reason="Misread").status_code == 200
    sequences.complete_step(sequence, actor=owner, step=4)  # meanwhile the player plays on
    sequences.prepare(sequence)  # step 5's rolls, listed as it became current
    before = fingerprint()

    response = reopen(client, sequence, step=2, current=4, reason="Misread", confirmed=1)

    assert response.status_code == 422
    assert "moved on since this page was drawn" in response.content.decode()
    assert fingerprint() == before


def test_a_treasury_step_is_listed_by_name_only_to_an_organiser_who_may_not_see_inside(
    client, duel
):
    sequence, owner = at_step(duel, 9)
    act(sequence, "move", owner, source=chest(duel["reavers"]).pk,
        target=sack_with_room(duel["reavers"]).pk, gold=7)  # fmt: skip
    sequences.complete_step(sequence, actor=owner, step=9)
    client.force_login(duel["organiser"])

    hidden = reopen(client, sequence, step=8, current=10, reason="x").content.decode()
    campaign = duel["campaign"]
    campaign.organiser_sees_secrets = True
    campaign.save()
    shown = reopen(client, sequence, step=8, current=10, reason="x").content.decode()

    assert "<li>Step 9: " in hidden and "7 gc" not in hidden
    assert "7 gc" in shown


# --- Changes outside the sequence stand in the way -----------------------------------------


def _refilled_chest(duel):
    """Step 9 moved 7 gc out of the Reavers' chest; since then the owner filled it again to
    its 100 gc on the treasury page: step 9's 7 gc cannot go back."""
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 9)
    act(sequence, "move", owner, source=chest(reavers).pk, target=sack_with_room(reavers).pk,
        gold=7)  # fmt: skip
    sequences.complete_step(sequence, actor=owner, step=9)
    treasury.move_treasure(sack_with_room(reavers), chest(reavers), actor=owner, gold=7)
    return sequence, owner


def test_a_refusal_names_the_treasury_move_that_stands_in_the_way_and_what_to_do(client, duel):
    sequence, owner = _refilled_chest(duel)
    campaign = duel["campaign"]
    campaign.organiser_sees_secrets = True
    campaign.save()
    client.force_login(duel["organiser"])
    before = fingerprint()

    response = reopen(client, sequence, step=9, current=10, reason="Misread")

    body = response.content.decode()
    assert response.status_code == 422
    assert "Step 9 cannot be undone yet: Only 100 gc fit in the Treasure Chest" in body
    assert "What changed in the Treasure Chest since, outside this sequence (latest first):" in body
    assert (
        f"{owner.username} put 7 gc into the Treasure Chest (transfer between containers, on the "
        f"treasury page): {owner.username} can take 7 gc out of it on the treasury page"
    ) in body
    assert "Take these back first, latest first, then reopen the step again." in body
    assert fingerprint() == before

    treasury.move_treasure(
        chest(duel["reavers"]), sack_with_room(duel["reavers"]), actor=owner, gold=7
    )  # fmt: skip  (the owner takes it back, as told)
    assert reopen(client, sequence, step=9, current=10, reason="Misread").status_code == 200
    sequence.refresh_from_db()
    assert sequence.current_step == 9
    assert not treasury.conservation_problems()


def test_an_organiser_who_may_not_see_inside_learns_only_who_can_take_it_back(client, duel):
    sequence, owner = _refilled_chest(duel)
    client.force_login(duel["organiser"])

    response = reopen(client, sequence, step=9, current=10, reason="Misread")

    body = response.content.decode()
    assert response.status_code == 422
    assert NEUTRAL in body
    assert f"Only {owner.username} sees what moved in the treasury since" in body
    assert "7 gc" not in body and "100 gc" not in body and 'data-testid="blockers"' not in body


def test_the_owners_undo_names_what_stands_in_the_way_too(client, duel):
    sequence, owner = _refilled_chest(duel)
    client.force_login(owner)

    response = client.post(reverse("sequence_undo", args=[sequence.pk]), {"step": 9},
                           headers=HTMX)  # fmt: skip

    body = response.content.decode()
    assert response.status_code == 422
    assert "Step 9 cannot be undone yet" in body
    assert "can take 7 gc out of it on the treasury page" in body


def test_a_later_battles_step_that_stands_in_the_way_is_named_with_its_battle(duel):
    reavers, organiser = duel["reavers"], duel["organiser"]
    first, owner = _refilled_chest(duel)
    treasury.move_treasure(chest(reavers), sack_with_room(reavers), actor=owner, gold=7)
    play_to(first, 11, owner)
    later = play_to(sequence_of(fought(duel), reavers), 9, owner)
    act(later, "move", owner, source=sack_with_room(reavers).pk, target=chest(reavers).pk,
        gold=7)  # fmt: skip
    duel["campaign"].organiser_sees_secrets = True
    duel["campaign"].save()

    with pytest.raises(sequences.ReopenRefused) as refused:
        sequences.reopen_step(first, 9, actor=organiser, reason="Misread", seen=11)

    # The owner's two moves on the treasury page (7 gc in, 7 gc out) cancel out: not named.
    (blocker,) = refused.value.blockers
    assert (
        "put 7 gc into the Treasure Chest (transfer between containers, in step 9 of the "
        in blocker
    )
    assert blocker.endswith(f"reopen that step first (or {owner.username} undoes it)")
    assert LedgerEntry.objects.filter(reason=LedgerEntry.Reason.REVERSAL, step=9).count() == 0


def test_without_htmx_the_confirmation_is_a_page_of_its_own(client, duel):
    sequence, _ = at_step(duel, 4)
    client.force_login(duel["organiser"])

    response = client.post(
        reverse("sequence_reopen", args=[sequence.pk]), {"step": 2, "current": 4, "reason": "x"}
    )

    body = response.content.decode()
    assert response.status_code == 200
    assert "<!doctype html>" in body and "Reopen step 2: Experience?" in body
