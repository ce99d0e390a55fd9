"""The printout's rules at hand carry the serious injuries chart and the advance tables,
open, on a sheet of their own when the player asks for them; a scenario's rules only while
one of the warband's battles waits."""

import pytest
from django.urls import reverse

from battles.helper import start
from battles.models import Battle

pytestmark = pytest.mark.django_db


def printout(client, warband, query="") -> str:
    client.force_login(warband.owner)
    return client.get(reverse("warband_print", args=[warband.pk]) + query).content.decode()


def test_the_charts_when_asked_for_and_the_scenario_while_a_battle_waits(client, duel):
    reavers = duel["reavers"]
    sheet, with_charts = printout(client, reavers), printout(client, reavers, "?charts=1")
    for chart in ("serious-injuries", "hero-advances", "henchman-advances"):
        assert f'data-chart="{chart}" open' in with_charts
        assert f'data-chart="{chart}"' not in sheet
    assert '<div class="charts-sheet">' in with_charts
    assert "?charts=1" in sheet and 'data-testid="without-charts"' in with_charts
    assert 'class="scenario-rules"' not in sheet

    battle = start.start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, duel["scourge"].pk],
    )  # fmt: skip
    waiting = printout(client, reavers)
    assert '<details class="scenario-rules" open>' in waiting
    assert battle.played.title in waiting

    Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.CONFIRMED)
    assert 'class="scenario-rules"' not in printout(client, reavers)
