"""The printout's rules at hand carry the serious injuries chart and the advance tables,
open on the sheet, always; a scenario's rules only while one of the warband's battles waits."""

import pytest
from django.urls import reverse

from battles.helper import start
from battles.models import Battle

pytestmark = pytest.mark.django_db


def printout(client, warband) -> str:
    client.force_login(warband.owner)
    return client.get(reverse("warband_print", args=[warband.pk])).content.decode()


def test_the_charts_always_and_the_scenario_while_a_battle_waits(client, duel):
    reavers = duel["reavers"]
    sheet = printout(client, reavers)
    for chart in ("serious-injuries", "hero-advances", "henchman-advances"):
        assert f'data-chart="{chart}" open' in sheet
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
