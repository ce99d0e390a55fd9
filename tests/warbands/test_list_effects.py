"""Campaign rules of the lists applied when a warband is mustered or its roster checked, read
from the list files' ``effect`` keys (warbands/data/README.md): a starting skill, the
Druzhina's heirloom, the wardogs Animal Friendship keeps out of the warband's size."""

import pytest
from django.urls import reverse

from core.errors import RuleViolation
from tests.factories import WarbandFactory, hire
from warbands import services
from warbands.models import Item, Skill, WarbandType, WarriorItem, WarriorSkill
from warbands.rules.wardogs import counted_wardogs

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


# --- wardogs_free_slots: Animal Friendship -------------------------------------------------


@pytest.mark.parametrize(
    ("owners", "counted"),
    [([], 0), ([(2, False)], 2), ([(2, True)], 0), ([(3, True)], 1), ([(1, True), (2, False)], 2)],
)
def test_the_wardogs_that_count_towards_the_size(owners, counted):
    assert counted_wardogs(owners) == counted


def thirteen_reavers_and_two_wardogs():
    """A Reikland warband mustering: the captain and twelve warriors, 13 of its 15; the
    captain owns two wardogs."""
    reavers = WarbandFactory()
    captain = hire(reavers, "mercenary_captain")
    for models in (5, 5, 2):
        hire(reavers, "warrior", models=models)
    wardog = Item.objects.get(key="wardog")
    WarriorItem.objects.bulk_create([WarriorItem(warrior=captain, item=wardog)] * 2)
    return reavers, captain


def test_wardogs_count_towards_the_warbands_maximum_size():
    reavers, _ = thirteen_reavers_and_two_wardogs()

    with pytest.raises(RuleViolation, match=r"at most 15 warriors \(it has 15\)"):
        hire(reavers, "warrior")


def test_animal_friendship_keeps_two_of_his_wardogs_out_of_the_size():
    reavers, captain = thirteen_reavers_and_two_wardogs()
    WarriorSkill.objects.create(
        warrior=captain,
        skill=Skill.objects.get(skill_list__key="ostlander", effect="wardogs_free_slots"),
    )

    hire(reavers, "warrior", models=2)  # 15 warriors, the two wardogs left out

    WarriorItem.objects.create(warrior=captain, item=Item.objects.get(key="wardog"))
    with pytest.raises(RuleViolation, match=r"at most 15 warriors \(it has 16\)"):
        hire(reavers, "warrior")  # his third wardog counts


def test_the_roster_read_with_its_items_counts_the_wardogs_alike():
    reavers, captain = thirteen_reavers_and_two_wardogs()
    read = list(services.roster(reavers))  # items read with the warriors (``item_list``)
    assert all(hasattr(w, "item_list") for w in read)
    assert sum(e.models for e in services.roster_entries(read)) == 15
    friendship = Skill.objects.get(skill_list__key="ostlander", effect="wardogs_free_slots")
    WarriorSkill.objects.create(warrior=captain, skill=friendship)
    assert sum(e.models for e in services.roster_entries(read)) == 13
