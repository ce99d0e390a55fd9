"""Storing in a post-battle step what does not fit: the refusal names where it would fit, or,
with no room anywhere, the way out of the sequence (``warbands.treasury.room``).

The Reavers muster 277 gc into the chest (100) and four large sacks (50, 50, 50, 27)."""

import pytest

from core.errors import RuleViolation
from tests.helpers import act, at_step
from warbands import treasury
from warbands.models import LedgerEntry

pytestmark = pytest.mark.django_db


def test_storing_in_a_step_names_the_room_left_then_the_way_out(duel):
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 4)
    treasury.add_treasure(treasury.loose_pile(reavers), gold=30, reason=LedgerEntry.Reason.INCOME)
    first, *_, last = reavers.containers.filter(kind="large_sack").order_by("pk")

    with pytest.raises(RuleViolation, match=r"\(that would make 80\)\. Room left: Large Sack 4 23"):
        act(sequence, "store", owner, target=first.pk, gold=30)
    treasury.add_treasure(last, gold=23, reason=LedgerEntry.Reason.INCOME)

    with pytest.raises(RuleViolation) as refused:
        act(sequence, "store", owner, target=first.pk, gold=30)
    assert str(refused.value).endswith(
        "No other container has room for it: keep it not stored yet, spend it in steps 6 to 8, "
        "or buy a container in step 9, then store the rest. Whatever is still not stored when "
        "the sequence ends is lost."
    )
    assert treasury.loose_pile(reavers).gold_crowns == 30
