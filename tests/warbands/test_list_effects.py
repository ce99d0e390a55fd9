"""Campaign rules of the lists applied when a warband is mustered or its roster checked, read
from the list files' ``effect`` keys (warbands/data/README.md): a starting skill, the
Druzhina's heirloom, the wardogs Animal Friendship keeps out of the warband's size."""

import pytest
from django.urls import reverse

from core.errors import RuleViolation
from tests.factories import WarbandFactory, hire
from warbands import services
from warbands.models import WarbandType

pytestmark = pytest.mark.django_db


def warband_of(key: str):
    return WarbandFactory(warband_type=WarbandType.objects.get(key=key))


# --- starting_skill: the Brutes' Unnatural Strength ----------------------------------------


def test_a_brute_is_hired_with_strongman():
    carnival = warband_of("carnival_of_chaos")

    brute = hire(carnival, "brute")
    tainted = hire(carnival, "tainted_one")

    learned = brute.skills.select_related("skill__skill_list").get()
    assert (learned.skill.key, learned.skill.skill_list.key) == ("strongman", "strength")
    assert not tainted.skills.exists()


# --- heirloom: the Druzhina Captain's Inheritance ------------------------------------------


def test_the_druzhina_buys_one_heirloom_at_half_price_rounded_up():
    kislev = warband_of("kislevites")
    captain = hire(kislev, "druzhina_captain")
    purse = kislev.gold_crowns

    armour = services.buy_item(captain, actor=kislev.owner, item_key="heavy_armour", heirloom=True)
    kislev.refresh_from_db()
    assert (armour.price_paid, purse - kislev.gold_crowns) == (25, 25)
    with pytest.raises(RuleViolation, match="bought his family heirloom already"):
        services.buy_item(captain, actor=kislev.owner, item_key="shield", heirloom=True)
    assert services.buy_item(captain, actor=kislev.owner, item_key="helmet").price_paid == 10

    services.remove_item(armour, actor=kislev.owner)  # given back: the heirloom is free again
    shield = services.buy_item(captain, actor=kislev.owner, item_key="shield", heirloom=True)
    assert shield.price_paid == 3  # half of 5, rounded up


def test_only_a_warrior_with_the_rule_buys_an_heirloom():
    kislev = warband_of("kislevites")
    hire(kislev, "druzhina_captain")
    esaul = hire(kislev, "esaul")
    purse = kislev.gold_crowns

    with pytest.raises(RuleViolation, match="has no family heirloom"):
        services.buy_item(esaul, actor=kislev.owner, item_key="heavy_armour", heirloom=True)
    kislev.refresh_from_db()
    assert kislev.gold_crowns == purse and not esaul.items.exclude(item__key="dagger").exists()


def test_the_muster_board_offers_the_heirloom_to_the_druzhina_only(client):
    kislev = warband_of("kislevites")
    captain = hire(kislev, "druzhina_captain")
    hire(kislev, "esaul")
    client.force_login(kislev.owner)
    board = reverse("warband_muster", args=[kislev.pk])

    page = client.get(board).content.decode()
    assert page.count("As his family heirloom, at half price") == 1

    client.post(
        reverse("warrior_buy_item", args=[captain.pk]),
        {"item": "light_armour", "heirloom": "on"},
        headers={"HX-Request": "true"},
    )
    assert captain.items.get(item__key="light_armour").price_paid == 10
    assert "As his family heirloom" not in client.get(board).content.decode()
