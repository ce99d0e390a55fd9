"""The demo league's schedule: round 1 played, round 2 in progress (one game confirmed, one
being played with the helper), a game agreed by challenge still to play, and a challenge
waiting for Alice's answer, on her dashboard."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from battles.models import Challenge, Round
from battles.schedule import queries
from tests.league.test_seed_demo_history import seeded_demo  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_round_in_progress(seeded_demo):  # noqa: F811
    rounds = {r.number: r for r in Round.objects.all()}
    assert [f.state for f in queries.round_fixtures(rounds[1])] == ["confirmed", "confirmed"]
    assert [f.state for f in queries.round_fixtures(rounds[2])] == ["confirmed", "playing"]


def test_a_challenge_waits_for_alice(client, seeded_demo):  # noqa: F811
    alice = get_user_model().objects.get(username="alice")
    waiting = queries.challenges_awaiting(alice)
    assert [c.challenger.name for c in waiting] == ["The Order of the Burning Pyre"]
    assert [f.round for f in queries.open_fixtures_for(alice)] == [None]
    assert Challenge.objects.filter(status="accepted").count() == 1
    client.force_login(alice)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Your next games" in page
    assert page.count('data-kind="challenge"') == 1
