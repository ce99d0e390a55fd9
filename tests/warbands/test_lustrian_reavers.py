"""The Lustrian Reavers' own rules as the app applies them: any hero leads (named while
mustering), the War Beasts come only with the Beastmaster and two at most between their three
kinds, the Prospects never become heroes by the lad's got talent, the heroes' list (mace, not
hammer; a 10 gc buckler; the chart's misericordia, javelins, blowpipe and wardog), and only
the four hired swords the text names."""

import pytest

from tests.factories import WarbandFactory, finish, hire, lead
from tests.warbands.test_muster import refused, refused_purchase
from warbands import hired_swords, services
from warbands.models import WarbandType

pytestmark = pytest.mark.django_db


@pytest.fixture
def reavers():
    return WarbandFactory(warband_type=WarbandType.objects.get(key="lustrian_reavers"))


def test_no_type_leads_and_any_hero_may_be_named(reavers):
    assert not reavers.warband_type.warrior_types.filter(is_leader=True).exists()
    hire(reavers, "conqueror", name="Ramiro")
    hire(reavers, "jungle_shadow", name="Ines")
    hire(reavers, "prospect", models=2, name="Hopefuls")
    lead(reavers, "jungle_shadow")
    finish(reavers)
    assert list(reavers.warriors.filter(is_leader=True).values_list("name", flat=True)) == ["Ines"]


def test_war_beasts_need_the_beastmaster(reavers):
    hire(reavers, "conqueror")
    refused(
        reavers,
        lambda: hire(reavers, "tilean_hunting_hawk"),
        "at most two War Beasts for the Beastmaster: 1 for 0",
    )


def test_two_war_beasts_of_any_kinds_but_no_third(reavers):
    hire(reavers, "reaver_beastmaster")
    hire(reavers, "barbary_monkey")
    hire(reavers, "tilean_hunting_hawk")
    refused(reavers, lambda: hire(reavers, "estalian_warhound"), "3 for 1")


def test_dismissing_the_beastmaster_while_mustering_stops_the_finish(reavers):
    master = hire(reavers, "reaver_beastmaster")
    hire(reavers, "jungle_shadow")
    hire(reavers, "estalian_warhound", models=2)
    lead(reavers, "jungle_shadow")
    services.dismiss_warrior(master, actor=reavers.owner)
    problems = [p.message for p in services.muster_problems(reavers, services.roster(reavers))]
    assert "A warband may have at most two War Beasts for the Beastmaster: 2 for 0." in problems


def test_war_beasts_are_animals_and_prospects_reroll_the_lads_talent(reavers):
    types = {t.key: t for t in reavers.warband_type.warrior_types.all()}
    beasts = ("estalian_warhound", "barbary_monkey", "tilean_hunting_hawk")
    assert all(not types[key].gains_experience for key in beasts)
    assert all(not types[key].equipment_lists.exists() for key in beasts)
    effects = [rule.get("effect") for rule in types["prospect"].special_rules]
    assert "talent_reroll" in effects


def test_the_heroes_list_prices_and_the_prospects_cannot_buy_from_it(reavers):
    shadow = hire(reavers, "jungle_shadow", items=["mace", "buckler", "javelins", "misericordia"])
    bought = sorted((o.item.key, o.price_paid) for o in shadow.items.all() if o.price_paid)
    assert bought == [("buckler", 10), ("javelins", 10), ("mace", 3), ("misericordia", 10)]
    assert reavers.gold_crowns == 500 - 90 - 33
    prospects = hire(reavers, "prospect", models=2)
    refused_purchase(reavers, prospects, "misericordia", "not on Prospect's equipment list")
    refused_purchase(reavers, shadow, "hammer", "not on Jungle Shadow's equipment list")


@pytest.mark.parametrize(
    ("hero", "gear"),
    [
        ("conqueror", ["dagger", "helmet"]),
        ("saurus_slayer", ["dagger", "heavy_armour", "helmet", "misericordia", "sword", "sword"]),
        ("reaver_beastmaster", ["dagger", "heavy_armour", "spear", "sword"]),
        ("jungle_shadow", ["dagger", "dagger", "javelins", "light_armour"]),
        ("trapmaster", ["dagger", "elven_cloak", "heavy_armour", "hochland_long_rifle", "sword"]),
    ],
)
def test_each_hero_comes_with_the_charts_part_of_his_starting_gear_for_his_cost(
    reavers, hero, gear
):
    """The text's Starting Equipment, paid in the hero's cost: each item the chart prices (the
    masterwork heavy armour, bec de corbin and firepots are shown as text); and his free
    dagger, as every warrior's."""
    warrior = hire(reavers, hero)
    owned = sorted(o.item.key for o in warrior.items.all())
    assert owned == gear
    assert not any(o.price_paid for o in warrior.items.all())
    cost = warrior.warrior_type.cost
    assert reavers.gold_crowns == 500 - cost


def test_only_the_four_hired_swords_the_text_names(reavers):
    offered = {sword.key for sword, reason in hired_swords.hireable_swords(reavers) if not reason}
    assert offered == {"ogre_bodyguard", "dwarf_troll_slayer", "tilean_marksman", "big_game_hunter"}
