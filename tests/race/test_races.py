"""Every value-moving POST, fired four times at once with four fresh form tokens (the race
harness, ``tests.race.harness``): no answer is a 500, exactly the allowed number applies and
the conservation audit agrees afterwards. A new POST endpoint fails
``test_every_post_endpoint_is_raced`` until it has a race or a reason not to."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.aftermath.registry import STEPS
from tests.factories import mustered_warband
from tests.race import (
    account_races,
    battle_races,
    captive_races,
    correction_races,
    hired_sword_races,  # noqa: F401 (its races register when it is imported)
    league_races,
    play_races,
    schedule_races,
    sequence_flow_races,
    sequence_races,  # noqa: F401 (its races register when it is imported)
    transfer_races,
    warband_races,
)
from tests.race.harness import POSTS, RACES, Shot, endpoints, fire, fire_together
from warbands import treasury

pytestmark = pytest.mark.django_db(transaction=True)

NOT_RACED = {
    **account_races.NOT_RACED,
    **warband_races.NOT_RACED,
    **battle_races.NOT_RACED,
    **sequence_flow_races.NOT_RACED,
    **league_races.NOT_RACED,
    **correction_races.NOT_RACED,
    **captive_races.NOT_RACED,
    **play_races.NOT_RACED,
    **schedule_races.NOT_RACED,
    **transfer_races.NOT_RACED,
}


def test_every_post_endpoint_is_raced():
    raced = {name.split(":")[0] for name in RACES}
    missing = endpoints() - raced - set(NOT_RACED)
    assert not missing, f"endpoints with neither a race nor a reason: {sorted(missing)}"
    stale = (raced | set(NOT_RACED)) - endpoints()
    assert not stale, f"races or reasons for endpoints that are gone: {sorted(stale)}"


def test_every_sequence_action_is_raced():
    actions = {
        f"sequence_act:{number}:{name}" for number, step in STEPS.items() for name in step.handlers
    }
    missing = actions - set(RACES)
    assert not missing, f"sequence actions with no race: {sorted(missing)}"


@pytest.mark.parametrize("endpoint", sorted(RACES))
def test_a_race_applies_the_allowed_number_and_conserves_treasure(
    endpoint, reference_data, record_property
):
    shot = RACES[endpoint].setup()
    volley = fire(shot)
    record_property("statuses", volley.statuses)  # in --junitxml reports: the volley's answers
    record_property("applied", volley.applied)
    assert all(status < 500 for status in volley.statuses), volley.statuses
    assert volley.applied == shot.allowed, (volley.applied, volley.statuses)
    assert len(volley.statuses) == POSTS
    assert not treasury.conservation_problems()


def test_gold_moved_into_a_container_while_it_is_sold(reference_data):
    """Two tabs: one sells an empty sack, the other moves gold into it. Either the sale comes
    first and the move is refused (the sack is gone), or the move does and the sale is refused
    (the sack is not empty); never a 500 from the database's "gone containers are empty"."""
    warband = mustered_warband()
    sack, chest = warband_races.emptied_sack(warband)
    url = reverse("treasury_sell", args=[warband.pk])
    sell = Shot(warband.owner, url, {"container": sack.pk, "proceeds_to": chest.pk}, int)
    url = reverse("treasury_move", args=[warband.pk])
    move = Shot(warband.owner, url, {"source": chest.pk, "target": sack.pk, "gold": 5}, int)

    sold, moved = fire_together((sell, 2), (move, 2))

    assert all(status < 500 for status in sold + moved), (sold, moved)
    sack.refresh_from_db()
    assert (sack.status, sack.gold_crowns) in (("sold", 0), ("held", 5), ("held", 10))
    assert not treasury.conservation_problems()


def test_two_tabs_naming_two_heroes_leave_one_leader(reference_data):
    """Two tabs of the muster board name two different heroes the leader at once: each is
    applied in turn under the warband's lock, never both on a stale read (the database's one
    leader per warband would answer 500), and one of them leads at the end."""
    warband = warband_races.court_mustering()
    vex, lira = warband.warriors.get(name="Vex"), warband.warriors.get(name="Lira")
    shots = [
        Shot(warband.owner, reverse("warrior_lead", args=[hero.pk]), {}, int)
        for hero in (vex, lira)
    ]

    first, second = fire_together((shots[0], 2), (shots[1], 2))

    assert all(status < 500 for status in first + second), (first, second)
    leaders = list(warband.warriors.filter(is_leader=True).values_list("name", flat=True))
    assert leaders in (["Vex"], ["Lira"])
