"""A Move rolled in play (the Orc Mob's Cave Squigs: 2D6, a ``move_dice`` rule) is shown for the
profile's M wherever the profile is: the roster, the muster board, the printout and the
battle helper's rows; the stored M stays 0 (no climb is refused for it)."""

import re

import pytest
from django.urls import reverse

from battles.helper import start
from tests.factories import MembershipFactory, WarbandFactory, finish, hire
from warbands.models import WarbandType, WarriorType

pytestmark = pytest.mark.django_db


def orc_mob():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="orc_mob"))
    hire(warband, "orc_boss", name="Gorbag")
    hire(warband, "goblin_warrior", models=2, name="Gits")
    hire(warband, "cave_squig", models=2, name="Squigs")
    return warband


def test_only_the_cave_squig_moves_by_dice():
    squig = WarriorType.objects.get(warband_type__key="orc_mob", key="cave_squig")
    assert (squig.M, squig.move_dice) == (0, "2D6")
    moving = WarriorType.objects.exclude(special_rules__contains=[{"effect": "move_dice"}])
    assert all(t.move_dice == "" for t in moving)


def test_the_roster_muster_and_printout_show_2d6_for_the_squigs_move(client):
    warband = orc_mob()
    client.force_login(warband.owner)
    for name in ("warband_muster", "warband_roster", "warband_print"):
        page = client.get(reverse(name, args=[warband.pk])).content.decode()
        squigs = page[page.index("Squigs") :]
        assert re.search(r"<td>2D6</td>", squigs), name
        boss = page[page.index("Gorbag") :]
        assert re.search(r"<td>4</td>", boss), name  # a Move that is a number stays one


def test_the_battle_helper_row_shows_2d6(client, duel):
    warband = finish(orc_mob())
    campaign = duel["campaign"]
    type(warband).objects.filter(pk=warband.pk).update(campaign=campaign)
    MembershipFactory(campaign=campaign, user=warband.owner)
    battle = start.start_game(
        actor=warband.owner, campaign=campaign, scenario_key="skirmish",
        warband_ids=[warband.pk, duel["scourge"].pk],
    )  # fmt: skip
    client.force_login(warband.owner)

    page = client.get(reverse("play_page", args=[battle.pk])).content.decode()
    assert "M2D6 WS" in page and "M4 WS" in page
