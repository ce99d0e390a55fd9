"""Two different value-moving posts on the same objects, fired together (``tests.race.harness``,
pairs): neither answers 500, only an allowed outcome happens (one applies, or both in an order
that is valid), a post that answered with success applied and one refused did not, and the
conservation audit agrees afterwards."""

from __future__ import annotations

import pytest

from tests.race import (  # noqa: F401 (their pairs register on import)
    page_pairs,
    schedule_races,
    undo_pairs,
)
from tests.race.harness import PAIRS, endpoints, fire_pair
from warbands import treasury

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_pair_names_two_endpoints_that_exist():
    named = {endpoint for pair in PAIRS.values() for endpoint in pair.endpoints}
    assert not named - endpoints(), sorted(named - endpoints())


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_pair_applies_in_some_order_and_conserves_treasure(name, reference_data, record_property):
    pair = PAIRS[name]
    for trial in range(pair.trials):
        clash = pair.setup()
        outcome = fire_pair(clash)
        record_property(f"trial {trial}", (outcome.statuses, outcome.applied))
        assert all(status < 500 for status in outcome.statuses), outcome
        assert outcome.applied in pair.allowed, outcome
        answered = tuple(int(status < 400) for status in outcome.statuses)
        assert answered == outcome.applied, ("a post said one thing and did another", outcome)
        assert not outcome.problems, outcome
        assert not treasury.conservation_problems()
