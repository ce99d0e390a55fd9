"""The campaign page's three ways a battle reaches the league, each explained beside its link:
report (a player), record (an organiser only) and the battle helper."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_each_way_to_a_battle_is_explained_beside_it(client, duel):
    url = reverse("campaign_detail", args=[duel["campaign"].pk])
    client.force_login(duel["reavers"].owner)
    player = client.get(url).content.decode()
    client.force_login(duel["organiser"])
    organiser = client.get(url).content.decode()

    for page in (player, organiser):
        assert 'data-testid="explains-report"' in page
        assert "the other players confirm it" in page
        assert 'data-testid="explains-helper"' in page
    assert 'data-testid="explains-record"' not in player
    assert "it counts once its players confirm it, or you confirm it for them" in organiser
