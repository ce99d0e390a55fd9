"""The campaign's battle lists name each side; a game still being played has no result yet,
so its sides show no empty brackets."""

import pytest
from django.urls import reverse

from battles.models import Battle, Participant

pytestmark = pytest.mark.django_db


def _battle(duel, status, results):
    battle = Battle.objects.create(campaign=duel["campaign"], scenario="Skirmish", status=status)
    for key, (result, routed) in zip(("scourge", "reavers"), results, strict=True):
        Participant.objects.create(battle=battle, warband=duel[key], result=result, routed=routed)
    return battle


@pytest.mark.parametrize("page", ["campaign_detail", "campaign_battles"])
def test_a_game_in_progress_shows_its_sides_without_empty_brackets(client, duel, page):
    _battle(duel, Battle.Status.PLAYING, [("", False), ("", False)])
    client.force_login(duel["scourge"].owner)

    shown = client.get(reverse(page, args=[duel["campaign"].pk])).content.decode()

    assert duel["scourge"].name in shown
    assert "()" not in shown
    assert "being played" in shown or "playing" in shown.lower()


@pytest.mark.parametrize("page", ["campaign_detail", "campaign_battles"])
def test_a_fought_battle_still_shows_results_and_routs(client, duel, page):
    _battle(duel, Battle.Status.CONFIRMED, [("won", False), ("lost", True)])
    client.force_login(duel["scourge"].owner)

    shown = client.get(reverse(page, args=[duel["campaign"].pk])).content.decode()

    assert "(won)" in shown
    assert "(lost, routed)" in shown
