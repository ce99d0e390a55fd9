"""What the traders sell, where and for how much (``warbands.rules.trading``), pure: each
path's terms for wares made here. ``tests/battles/test_purchase_paths.py`` walks the whole
catalogue through the same rules and the services against the rule texts."""

import pytest

from core.errors import RuleViolation
from warbands.rules import Buyer, ListEntry
from warbands.rules.restrictions import Restriction
from warbands.rules.trading import Ware, check_kit, list_terms, rare_terms, stash_terms

SWORD = Ware("sword", "Sword", "hand_to_hand", 10)
BOW_OF_SEEKING = Ware("bow_of_seeking", "Bow of Seeking", "misc", 0, for_sale=False)
GEM = Ware("gem", "Gem", "treasure", 0)
LUCKY_CHARM = Ware("lucky_charm", "Lucky charm", "misc", 10, rarity=6)
BLESSED_WATER = Ware(
    "blessed_water", "Blessed water", "misc", 10, "3D6", rarity=6,
    restriction=Restriction(refused=("undead",), label="not for the Undead"),
    rarity_for={"sisters_of_sigmar": None, "witch_hunters": None},
)  # fmt: skip
HOLY_RELIC = Ware("holy_relic", "Holy relic", "misc", 15, "3D6", rarity=8,
                  rarity_for={"sisters_of_sigmar": 6})  # fmt: skip
CLAWS = Ware(
    "fighting_claws", "Fighting claws", "hand_to_hand", 35, rarity=7,
    restriction=Restriction(allowed=("skaven",), label="Skaven only"),
)  # fmt: skip
WARDOG = Ware("wardog", "Wardog", "animal", 25, "2D6", rarity=10)
CLAW = Ware("great_claw", "Great Claw", "mutation", 50)
WOLFCLOAK = Ware("wolfcloak", "Wolfcloak", "misc", 10)
FREE = Ware("stick", "Stick", "hand_to_hand", 0)  # a house rule's item with no price


def buyer(**kwargs) -> Buyer:
    return Buyer(**{"name": "Otto", "is_hero": True, "models": 1, **kwargs})


def entry(ware: Ware, price: int | None = None, **flags) -> ListEntry:
    return ListEntry(ware.key, ware.name, ware.category, ware.price if price is None else price,
                     **flags)  # fmt: skip


@pytest.mark.parametrize("ware", [BOW_OF_SEEKING, GEM, FREE], ids=lambda w: w.key)
def test_what_is_only_found_or_has_no_price_is_offered_on_no_path(ware):
    with pytest.raises(RuleViolation, match=f"{ware.name} is not for sale: it is found"):
        stash_terms(ware, "reikland")
    with pytest.raises(RuleViolation, match="not for sale"):
        rare_terms(ware, "reikland", roll=20)
    for founding in (True, False):
        with pytest.raises(RuleViolation, match="not for sale"):
            list_terms(entry(ware, 5), ware, buyer(founding=founding), "reikland")


def test_the_stash_takes_common_items_at_the_chart_price():
    offer = stash_terms(SWORD, "reikland")
    assert (offer.price, offer.price_dice, offer.availability, offer.refusal) == (
        10, "", "Common", None,
    )  # fmt: skip
    with pytest.raises(RuleViolation, match=r"Lucky charm is Rare 6: .* step 6"):
        stash_terms(LUCKY_CHARM, "reikland")
    with pytest.raises(RuleViolation, match="never kept in a container"):
        stash_terms(CLAW, "cult_of_the_possessed")
    with pytest.raises(RuleViolation, match="won by a hero in the hunt"):
        stash_terms(WOLFCLOAK, "middenheim")
    with pytest.raises(RuleViolation, match="Choose a Common item"):
        stash_terms(None, "reikland")


def test_a_note_of_the_chart_makes_an_item_common_or_less_rare_for_some_lists():
    """Blessed water: "Common for Warrior-Priests and Sisters of Sigmar" (its dice stay in
    the price); a holy relic: "Rare 6 for ... Sisters of Sigmar"."""
    water = stash_terms(BLESSED_WATER, "sisters_of_sigmar")
    assert (water.label, water.availability) == ("10+3D6 gc", "Common")
    with pytest.raises(RuleViolation, match="Rare 6"):
        stash_terms(BLESSED_WATER, "reikland")
    with pytest.raises(RuleViolation, match="Common: buy it in step 8"):
        rare_terms(BLESSED_WATER, "witch_hunters", roll=12)
    assert rare_terms(HOLY_RELIC, "sisters_of_sigmar", roll=6).availability == "Rare 6"
    with pytest.raises(RuleViolation, match="Rare 8: the roll was 7"):
        rare_terms(HOLY_RELIC, "reikland", roll=7)


def test_a_restricted_item_is_offered_with_why_this_warband_may_not_have_it():
    assert rare_terms(CLAWS, "skaven", roll=7).refusal is None
    assert "Skaven only" in rare_terms(CLAWS, "reikland", roll=7).refusal
    garlic = Ware("garlic", "Garlic", "misc", 1, restriction=BLESSED_WATER.restriction)
    assert "not for the Undead" in stash_terms(garlic, "undead").refusal
    assert stash_terms(garlic, "reikland").refusal is None


@pytest.mark.parametrize(("roll", "offered"), [(9, False), (10, True), (15, True)])
def test_step_6_offers_an_item_from_its_rarity_up(roll, offered):
    if offered:
        offer = rare_terms(WARDOG, "reikland", roll=roll)
        assert (offer.label, offer.availability) == ("25+2D6 gc", "Rare 10")
    else:
        with pytest.raises(RuleViolation, match="Wardog is Rare 10: the roll was 9"):
            rare_terms(WARDOG, "reikland", roll=roll)


def test_a_warrior_buys_rare_list_items_only_while_the_warband_is_founded():
    duelling = Ware("duelling_pistol", "Duelling pistol", "blackpowder", 30, rarity=10)
    listed = entry(duelling, 25)
    assert list_terms(listed, duelling, buyer(founding=True), "reikland").price == 25
    with pytest.raises(RuleViolation, match=r"Rare 10: after the founding .* step 6"):
        list_terms(listed, duelling, buyer(), "reikland")
    assert list_terms(entry(SWORD), SWORD, buyer(), "reikland").price == 10


def test_the_first_dagger_is_free_only_while_the_warband_is_founded():
    dagger = Ware("dagger", "Dagger", "hand_to_hand", 2)
    listed = entry(dagger, first_free=True)
    assert list_terms(listed, dagger, buyer(founding=True), "reikland").price == 0
    assert list_terms(listed, dagger, buyer(), "reikland").price == 2


def test_a_list_item_for_heroes_only_is_not_offered_to_henchmen():
    with pytest.raises(RuleViolation, match="for heroes only"):
        list_terms(entry(WOLFCLOAK, heroes_only=True), WOLFCLOAK,
                   buyer(is_hero=False, models=2), "middenheim")  # fmt: skip


def test_a_list_price_of_nothing_is_refused():
    with pytest.raises(RuleViolation, match="has no price on Otto's list"):
        list_terms(entry(SWORD, 0), SWORD, buyer(), "reikland")


def test_new_henchmen_cannot_join_a_group_that_carries_what_no_trader_sells():
    check_kit("Stadtwache", [SWORD, LUCKY_CHARM])
    with pytest.raises(RuleViolation, match="Stadtwache carry Bow of Seeking, which no trader"):
        check_kit("Stadtwache", [SWORD, BOW_OF_SEEKING])
