"""Each chart sits beside the roll it decides: the serious injuries in step 1, the advance
tables and the scenario's rules in step 2, the exploration chart in step 3 (for the warband's
player; the opponent sees step 3 only as a secret)."""

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.rules.at_hand import LOCATION_SUMMARIES
from tests.helpers import at_step, play_to

pytestmark = pytest.mark.django_db

CHARTS = {
    1: ["serious-injuries"],
    2: ["hero-advances", "henchman-advances"],
    3: ["exploration"],
}


def test_each_step_shows_its_charts_and_says_what_its_buttons_do(client, duel):
    sequence, owner = at_step(duel, 1)
    Battle.objects.filter(pk=sequence.participant.battle_id).update(scenario_key="skirmish")
    client.force_login(owner)
    for step, charts in CHARTS.items():
        sequence = play_to(sequence, step, owner)
        page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
        shown = {c for c in ("serious-injuries", "hero-advances", "henchman-advances",
                             "exploration") if f'data-chart="{c}"' in page}  # fmt: skip
        assert shown == set(charts), step
        assert 'data-testid="step-does"' in page or step == 1, step  # nobody to roll for
        if step > 1:
            assert 'class="scenario-rules"' in page, step
        if step == 3:
            assert LOCATION_SUMMARIES["Well"] in page
        if step == 1:  # what the app does not play of an injury says so beside the chart
            assert 'data-testid="injuries-at-the-table"' in page

    client.force_login(duel["scourge"].owner)
    secret = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
    assert 'data-chart="exploration"' not in secret
