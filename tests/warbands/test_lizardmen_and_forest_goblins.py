"""Lizardmen and Forest Goblins (Grade 1b): who buys what from their lists, and their large
creatures in the rating. Their costs, profiles and lists against the rule text, and a mustered
warband of each, are in ``test_grade_1b_1c_lists.py``."""

import pytest

from tests.factories import WarbandFactory, hire
from tests.warbands.test_muster import refused_purchase
from warbands import services
from warbands.models import WarbandType

pytestmark = pytest.mark.django_db


def test_lizardmen_keep_skinks_and_saurus_to_their_own_lists():
    """Lizardmen: the sword is for Skink heroes, the bone helmet (a helmet) for the Skink
    Priest alone, light armour for Saurus only; Saurus carry no missile weapon. The Kroxigor
    is rated as a large creature (20)."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="lizardmen"))
    hire(warband, "skink_priest", items=["helmet", "sword"])
    crest = hire(warband, "skink_great_crest", items=["sword"])
    skinks = hire(warband, "skink_brave", models=2, items=["blowpipe"])
    saurus = hire(warband, "saurus_brave", items=["light_armour"])
    kroxigor = hire(warband, "kroxigor")

    for warrior, item, reason in [
        (skinks, "sword", "heroes only"),
        (skinks, "light_armour", "not on Skink Brave's equipment list"),
        (crest, "helmet", "not on Skink Great Crest's equipment list"),
        (saurus, "short_bow", "not on Saurus Brave's equipment list"),
    ]:
        refused_purchase(warband, warrior, item, reason)
    assert services.rating([kroxigor]) == 20


def test_forest_goblins_buy_spears_at_their_list_price_and_the_spider_nothing():
    """Forest Goblins: a spear is 5 gc on both lists; the Gigantic Spider uses no equipment
    and is rated as a large creature (20)."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="forest_goblins"))
    hire(warband, "chieftain", items=["spear"])
    hire(warband, "forest_goblin", models=2, items=["spear"])
    spider = hire(warband, "gigantic_spider")

    assert warband.gold_crowns == 500 - (50 + 5) - 2 * (15 + 5) - 200
    refused_purchase(warband, spider, "dagger", "not on Gigantic Spider's equipment list")
    assert services.rating([spider]) == 20
