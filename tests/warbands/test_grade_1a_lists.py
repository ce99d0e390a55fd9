"""Every Grade 1a warband list: a legal starting warband of each of the 15 lists
musters through the real services, one illegal choice per list is refused and changes nothing,
and the lists' own recruiting rules (the Plague Cart, the Trained Bear, the Orc Mob's Goblins,
the Carnival's blessings, the Dwarfs' gromril) hold."""

import pytest

from core.errors import RuleViolation
from tests.factories import WarbandFactory, finish, hire
from tests.warbands.test_muster import refused
from warbands import rules, services
from warbands.data.convert_bsdata import BSDATA_DIR, Converter
from warbands.models import (
    EquipmentListEntry,
    Item,
    RatingSnapshot,
    WarbandType,
)

pytestmark = pytest.mark.django_db

GRADE_1A = {
    "reikland", "middenheim", "marienburg", "cult_of_the_possessed", "witch_hunters",
    "sisters_of_sigmar", "undead", "skaven", "averland", "ostland", "kislevites",
    "dwarf_treasure_hunters", "orc_mob", "beastmen_raiders", "carnival_of_chaos",
}  # fmt: skip

# A legal starting warband of each list: (type, models, items) hires, and the gold left, summed
# by hand from the rule text's costs (warbands-core-and-grade-1a.md).
LEGAL = {
    "reikland": (
        [("mercenary_captain", 1, ["sword"]), ("champion", 1, ["axe"]),
         ("warrior", 3, ["spear"])],
        500 - (60 + 10) - (35 + 5) - 3 * (25 + 10),
    ),
    "middenheim": (
        [("mercenary_captain", 1, ["wolfcloak"]), ("swordsman", 2, []),
         ("marksman", 2, ["bow"])],
        500 - (60 + 10) - 2 * 35 - 2 * (25 + 10),
    ),
    "marienburg": (
        [("mercenary_captain", 1, ["duelling_pistol"]), ("youngblood", 1, []),
         ("warrior", 5, ["halberd"])],
        600 - (60 + 25) - 15 - 5 * (25 + 10),
    ),
    "cult_of_the_possessed": (
        [("magister", 1, []), ("mutant", 1, ["spines"]), ("brethren", 3, [])],
        500 - 60 - (25 + 35) - 3 * 25,
    ),
    "witch_hunters": (
        [("witch_hunter_captain", 1, []), ("warrior_priest", 1, []), ("zealot", 3, [])],
        500 - 60 - 40 - 3 * 20,
    ),
    "sisters_of_sigmar": (
        [("sigmarite_matriarch", 1, []), ("augur", 1, []),
         ("sigmarite_sister", 3, ["sigmarite_warhammer"])],
        500 - 70 - 25 - 3 * (25 + 15),
    ),
    "undead": (
        [("vampire", 1, []), ("necromancer", 1, []), ("zombie", 3, [])],
        500 - 110 - 35 - 3 * 15,
    ),
    "skaven": (
        [("assassin_adept", 1, ["fighting_claws"]), ("eshin_sorcerer", 1, []),
         ("verminkin", 3, []), ("giant_rat", 5, [])],
        500 - (60 + 35) - 45 - 3 * 20 - 5 * 15,
    ),
    "averland": (
        [("captain", 1, ["halberd"]), ("bergjaeger", 1, ["long_bow", "hunting_arrows"]),
         ("halfling_scout", 3, ["bow"]), ("marksman", 2, ["crossbow"])],
        500 - (60 + 10) - (35 + 15 + 35) - 3 * (20 + 10) - 2 * (25 + 25),
    ),
    "ostland": (
        [("elder", 1, ["double_handed_weapon"]), ("priest_of_taal", 1, []),
         ("jaeger", 2, ["ostlander_double_barrelled_pistol"]),
         ("ogre", 1, ["double_handed_weapon"])],
        500 - (60 + 15) - 45 - 2 * (25 + 30) - (160 + 10),
    ),
    "kislevites": (
        [("druzhina_captain", 1, ["sword"]), ("bear_tamer", 1, []), ("trained_bear", 1, []),
         ("cossack", 2, ["spear"])],
        500 - (60 + 10) - 35 - 125 - 2 * (30 + 10),
    ),
    "dwarf_treasure_hunters": (
        [("dwarf_noble", 1, ["gromril_axe", "gromril_armour"]),
         ("troll_slayer", 1, ["gromril_double_handed_weapon"]), ("dwarf_clansman", 2, [])],
        500 - (85 + 15 + 75) - (50 + 45) - 2 * 40,
    ),
    "orc_mob": (
        [("orc_boss", 1, ["axe"]), ("orc_shaman", 1, []), ("orc_boy", 2, []),
         ("goblin_warrior", 5, ["short_bow"]), ("cave_squig", 3, [])],
        500 - (80 + 5) - 40 - 2 * 25 - 5 * (15 + 5) - 3 * 15,
    ),
    "beastmen_raiders": (
        [("beastmen_chieftain", 1, ["double_handed_weapon"]), ("beastmen_shaman", 1, []),
         ("ungor", 3, ["spear"]), ("warhound_of_chaos", 2, [])],
        500 - (65 + 15) - 45 - 3 * (25 + 10) - 2 * 15,
    ),
    "carnival_of_chaos": (
        [("carnival_master", 1, []),
         ("tainted_one", 1, ["blessing_nurgles_rot", "blessing_cloud_of_flies"]),
         ("brute", 1, ["flail"]), ("nurgling", 6, []), ("plague_cart", 1, [])],
        500 - 70 - (25 + 50 + 2 * 25) - (60 + 10) - 6 * 15 - 120,
    ),
}  # fmt: skip


def warband_of(key: str, **kwargs):
    return WarbandFactory(warband_type=WarbandType.objects.get(key=key), **kwargs)


def muster(key: str):
    warband = warband_of(key)
    for type_key, models, items in LEGAL[key][0]:
        hire(warband, type_key, models=models, items=items)
    return warband


def test_the_fifteen_grade_1a_lists_are_loaded():
    assert set(WarbandType.objects.values_list("key", flat=True)) >= GRADE_1A
    assert len(LEGAL) == len(GRADE_1A) == 15


@pytest.mark.parametrize("key", sorted(GRADE_1A))
def test_a_legal_starting_warband_musters(key):
    warband = muster(key)

    assert warband.gold_crowns == LEGAL[key][1]
    finish(warband)  # buys the sacks the purse needs, then refuses any illegal roster
    assert warband.status == "active"


def test_large_creatures_count_twenty_in_the_mustered_rating():
    """Campaigns text, Warband rating: large creatures are worth 20 + experience; the Trained
    Bear is a Large Target (bsdata_lists.json, override "large")."""
    warband = finish(muster("kislevites"))

    # Captain 5 + 20, Bear Tamer 5 + 8, Trained Bear 20, two Cossacks 2 × 5.
    assert RatingSnapshot.objects.get(warband=warband).rating == 25 + 13 + 20 + 10


# One illegal choice per list: the action, and the reason it is refused.
def _third_champion(w):
    hire(w, "mercenary_captain")
    hire(w, "champion")
    hire(w, "champion")
    return lambda: hire(w, "champion")


def _wolfcloak_for_henchmen(w):
    group = hire(w, "warrior", models=2)
    return lambda: services.buy_item(group, actor=w.owner, item_key="wolfcloak")


def _second_captain(w):
    hire(w, "mercenary_captain")
    return lambda: hire(w, "mercenary_captain")


def _mutant_without_mutation(w):
    hire(w, "magister")
    hire(w, "mutant")
    hire(w, "brethren", models=2)
    return lambda: services.finish_muster(w, actor=w.owner)


def _six_warhounds(w):
    return lambda: hire(w, "warhound", models=6)


def _armour_for_the_augur(w):
    augur = hire(w, "augur")
    return lambda: services.buy_item(augur, actor=w.owner, item_key="light_armour")


def _second_necromancer(w):
    hire(w, "necromancer")
    return lambda: hire(w, "necromancer")


def _twenty_first_skaven(w):
    hire(w, "assassin_adept")
    for _ in range(3):
        hire(w, "verminkin", models=5)
    hire(w, "giant_rat", models=4)
    return lambda: hire(w, "giant_rat")


def _long_bow_for_a_halfling(w):
    scouts = hire(w, "halfling_scout", models=2)
    return lambda: services.buy_item(scouts, actor=w.owner, item_key="long_bow")


def _sixth_ruffian(w):
    hire(w, "ruffian", models=3)
    return lambda: hire(w, "ruffian", models=3)


def _bear_without_tamer(w):
    hire(w, "druzhina_captain")
    return lambda: hire(w, "trained_bear")


def _helmet_for_a_troll_slayer(w):
    slayer = hire(w, "troll_slayer")
    return lambda: services.buy_item(slayer, actor=w.owner, item_key="helmet")


def _three_goblins_for_one_orc(w):
    hire(w, "orc_boss")
    return lambda: hire(w, "goblin_warrior", models=3)


def _armour_for_the_shaman(w):
    shaman = hire(w, "beastmen_shaman")
    return lambda: services.buy_item(shaman, actor=w.owner, item_key="light_armour")


def _tainted_one_without_blessing(w):
    hire(w, "carnival_master")
    hire(w, "tainted_one")
    hire(w, "brethren", models=2)
    return lambda: services.finish_muster(w, actor=w.owner)


ILLEGAL = {
    "reikland": (_third_champion, "at most 2 Champion"),
    "middenheim": (_wolfcloak_for_henchmen, "Wolfcloak is for heroes only"),
    "marienburg": (_second_captain, "at most 1 Mercenary Captain"),
    "cult_of_the_possessed": (_mutant_without_mutation, "must start with at least one mutation"),
    "witch_hunters": (_six_warhounds, "bought in groups of 1 to 5"),
    "sisters_of_sigmar": (_armour_for_the_augur, "not on Augur's equipment list"),
    "undead": (_second_necromancer, "at most 1 Necromancer"),
    "skaven": (_twenty_first_skaven, "at most 20 warriors"),
    "averland": (_long_bow_for_a_halfling, "not on Halfling Scout's equipment list"),
    "ostland": (_sixth_ruffian, "at most 5 Ruffian"),
    "kislevites": (_bear_without_tamer, "A Trained Bear may only join a warband that has a Bear"),
    "dwarf_treasure_hunters": (_helmet_for_a_troll_slayer, "not on Troll Slayer's equipment"),
    "orc_mob": (_three_goblins_for_one_orc, "two Goblin Warriors for each Orc .*: 3 for 1"),
    "beastmen_raiders": (_armour_for_the_shaman, "not on Beastmen Shaman's equipment list"),
    "carnival_of_chaos": (_tainted_one_without_blessing, "must start with at least one mutation"),
}


@pytest.mark.parametrize("key", sorted(GRADE_1A))
def test_one_illegal_choice_per_list_is_refused(key):
    setup, reason = ILLEGAL[key]
    warband = warband_of(key)
    action = setup(warband)

    refused(warband, action, reason)


# --- The lists' own recruiting rules -------------------------------------------------------


def test_the_plague_cart_lets_the_carnival_grow_to_seventeen():
    """Carnival of Chaos, Plague Cart: the maximum number of warriors is increased by 2."""
    warband = warband_of("carnival_of_chaos")
    hire(warband, "carnival_master")
    hire(warband, "plague_cart")
    for _ in range(3):
        hire(warband, "nurgling", models=5)

    refused(warband, lambda: hire(warband, "nurgling", models=1), "at most 17 warriors")
    assert finish(warband).status == "active"


def test_without_the_plague_cart_the_carnival_stops_at_fifteen():
    warband = warband_of("carnival_of_chaos")
    hire(warband, "carnival_master")
    hire(warband, "nurgling", models=14)  # Swarm: a group of more than five

    refused(warband, lambda: hire(warband, "nurgling"), "at most 15 warriors")


def test_dismissing_the_cart_while_mustering_leaves_the_warband_too_big():
    warband = warband_of("carnival_of_chaos")
    hire(warband, "carnival_master")
    cart = hire(warband, "plague_cart")
    hire(warband, "nurgling", models=15)
    services.dismiss_warrior(cart, actor=warband.owner)

    refused(
        warband,
        lambda: services.finish_muster(warband, actor=warband.owner),
        "at most 15 warriors",
    )


def test_a_second_blessing_costs_double_and_only_at_recruitment():
    """Carnival of Chaos, Blessings of Nurgle: bought only when the Tainted One is recruited;
    the first at its price, the second and later ones double."""
    warband = warband_of("carnival_of_chaos")
    tainted = hire(warband, "tainted_one", items=["blessing_hideous"])
    hire(warband, "tainted_one", name="Second", items=["blessing_cloud_of_flies"])
    services.buy_item(tainted, actor=warband.owner, item_key="blessing_mark_of_nurgle")

    blessings = tainted.items.filter(item__category="mutation").order_by("pk")
    assert [(o.item.key, o.price_paid) for o in blessings] == [
        ("blessing_hideous", 40),
        ("blessing_mark_of_nurgle", 70),
    ]
    entry = EquipmentListEntry.objects.get(
        equipment_list__key="blessings_of_nurgle", item__key="blessing_hideous"
    ).as_rule()
    buyer = rules.Buyer(name="Tainted One", is_hero=True, models=1, being_recruited=False)
    with pytest.raises(RuleViolation, match="only be bought when the warrior is recruited"):
        rules.check_purchase([entry], "blessing_hideous", buyer, models=1, gold=500)


def test_cave_squigs_never_outnumber_the_goblins():
    """Orc Mob: up to five Cave Squigs, never more than the Goblin Warriors."""
    warband = warband_of("orc_mob")
    hire(warband, "orc_boss")
    hire(warband, "goblin_warrior", models=2)

    refused(warband, lambda: hire(warband, "cave_squig", models=3), "one Cave Squig for each")
    hire(warband, "cave_squig", models=2)


def test_a_dismissal_that_breaks_the_goblin_ratio_stops_the_muster():
    warband = warband_of("orc_mob")
    hire(warband, "orc_boss")
    big_un = hire(warband, "orc_big_un")
    hire(warband, "goblin_warrior", models=4)
    services.dismiss_warrior(big_un, actor=warband.owner)

    refused(
        warband,
        lambda: services.finish_muster(warband, actor=warband.owner),
        "two Goblin Warriors for each Orc .*: 4 for 1",
    )


def test_the_bear_stays_only_with_its_tamer():
    warband = warband_of("kislevites")
    hire(warband, "druzhina_captain")
    tamer = hire(warband, "bear_tamer")
    hire(warband, "trained_bear")
    services.dismiss_warrior(tamer, actor=warband.owner)

    refused(
        warband,
        lambda: services.finish_muster(warband, actor=warband.owner),
        "Trained Bear may only join a warband that has a Bear Tamer",
    )


def test_gromril_weapons_cost_three_times_the_list_price_at_founding_only():
    """Dwarf Warrior Equipment List: a gromril weapon costs three times the weapon while the
    warband is founded; later it is bought from the chart at four times, Rare 11."""
    prices = dict(
        EquipmentListEntry.objects.filter(
            equipment_list__warband_type__key="dwarf_treasure_hunters",
            equipment_list__key="dwarf_warrior",
            item__key__startswith="gromril_",
        ).values_list("item__key", "price")
    )

    assert prices == {
        "gromril_armour": 75, "gromril_dagger": 6, "gromril_mace": 9, "gromril_hammer": 9,
        "gromril_axe": 15, "gromril_sword": 30, "gromril_dwarf_axe": 45,
        "gromril_double_handed_weapon": 45, "gromril_spear": 30, "gromril_halberd": 30,
    }  # fmt: skip
    axe = Item.objects.get(key="gromril_axe")
    assert (axe.price, axe.rarity) == (20, 11)


def test_the_dwarf_list_stops_at_twelve():
    warband = warband_of("dwarf_treasure_hunters", gold_crowns=1000)
    hire(warband, "dwarf_noble")
    hire(warband, "beardling", models=5)
    hire(warband, "beardling", models=5)
    hire(warband, "beardling")

    refused(warband, lambda: hire(warband, "beardling"), "at most 12 warriors")


def test_the_committed_files_are_what_the_converter_writes():
    """The converter is deterministic and its output is committed: running it again changes
    nothing (``python -m warbands.data.convert_bsdata --check``)."""
    if not (BSDATA_DIR / "data.cat").exists():
        pytest.skip(f"the BattleScribe data set is not at {BSDATA_DIR}")
    outputs = Converter().outputs()

    stale = [path.name for path, text in outputs.items() if path.read_text() != text]
    assert stale == []
