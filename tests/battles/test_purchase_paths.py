"""Only what the rules sell can be bought: every item of the catalogue through every path that
buys one, checked against the rule texts as ``tests.trading_texts`` reads them (each item's
cost and availability from the equipment chapter, with its notes for some warbands; what the
exploration chart finds from the campaigns chapter), never against the app's own data.

The paths that buy an item, each asking ``warbands.rules.trading``:
- the muster: a warrior from his own lists, at the list price (``warbands.services.buy_item``);
- step 6 ``buy_rare``: an item rare for the warband, once a rarity roll reaches it;
- step 8 ``buy``: a warrior from his own lists, Common items only; ``buy_stash``: the chart's
  Common items into a container;
- step 5 ``add_veterans`` and step 8 ``add_models``: new henchmen bought with a copy of their
  group's kit (``trading.check_kit``).
Nothing is bought for a hired sword or a dramatis persona (step 8 ``buy`` refuses a hired
sword; a dramatis persona is typed by hand and carries no catalogue item). Containers (the
muster, the treasury page, step 9, and step 6 for the rare ones) come from the Mayhem in
Mordheim catalogue, not from the items: ``tests/warbands/test_treasury_containers.py``.

List prices are checked against the warband chapters by ``tests/warbands/
test_grade_1a_rule_texts.py`` and ``test_reference_data.py``; here a list path must charge
the list's price, Common items only after the founding.
"""

import re

import pytest
from django.db import transaction
from django.urls import reverse

from battles import aftermath as sequences
from core.errors import RuleViolation
from tests.factories import WarbandFactory, hire
from tests.helpers import act, chest, gold, play_to, roll, state, warriors
from tests.trading_texts import found_in_exploration, magical_artefacts, terms_of
from warbands import services
from warbands.models import EquipmentListEntry, Item, LedgerEntry, WarbandType
from warbands.rules import Buyer, trading

pytestmark = pytest.mark.django_db

NOT_STORED = {"mutation", "animal"}
# Readings of the warband chapters, not of the price chart: a Wolfcloak is won by a hero in
# the hunt (the Middenheim list), never bought into the stash.
HUNTED = {"wolfcloak"}


def dice_total(dice: str | None, face: int = 1) -> int:
    """What a price's dice add when every die shows ``face``: "3D6" 3, "D6x25" 25."""
    if not dice:
        return 0
    found = re.fullmatch(r"(\d*)D6(?:x(\d+))?", dice)
    return int(found[1] or 1) * face * int(found[2] or 1)


def sold_by_the_text(item: Item):
    """The chapter's terms for the item, or None when the texts sell it nowhere: a find of
    the exploration chart, or a mutation (bought from a list at recruitment only)."""
    terms = terms_of(item.key)
    if terms is None:
        assert item.category == "mutation" or found_in_exploration(item.key, item.name), (
            f"{item.key}: neither on the price chart, nor a mutation, nor a find"
        )
    return terms


def stash_expected(item: Item, warband: str):
    """(price, dice) of the item bought into the stash, as the texts say, or None."""
    terms = sold_by_the_text(item)
    if terms is None or item.category in NOT_STORED or item.key in HUNTED:
        return None
    return None if terms.rarity_of(warband) is not None else (terms.price, terms.dice)


def rare_expected(item: Item, warband: str):
    """(rarity, price, dice) of the item in step 6, as the texts say, or None."""
    terms = sold_by_the_text(item)
    if terms is None or terms.rarity_of(warband) is None:
        return None
    return terms.rarity_of(warband), terms.price, terms.dice


def items():
    return list(Item.objects.order_by("key"))


# --- The texts and the catalogue -----------------------------------------------------------

LISTS = [
    "amazons_lustria", "amazons_mordheim", "arabian_tomb_raiders", "averland",
    "battle_monks_of_cathay", "beastmen_raiders", "black_dwarfs", "black_orcs",
    "bretonnian_chapel_guard", "bretonnian_knights", "carnival_of_chaos",
    "court_of_the_profane_pleasures", "cult_of_the_possessed", "dark_elves", "dwarf_rangers",
    "dwarf_treasure_hunters", "forest_goblins", "gunnery_school_of_nuln", "hochland_bandits",
    "horned_hunters", "imperial_outriders", "kislevites", "lizardmen", "lustrian_reavers",
    "maneaters",
    "marauders_of_chaos", "marienburg", "merchant_caravans", "middenheim", "miragleans",
    "mootlanders", "night_goblins", "night_goblins_web", "norse_explorers", "orc_mob", "ostermark",
    "ostland",
    "outlaws_of_stirwood_forest", "pirates", "pit_fighters", "reikland", "remasens",
    "shadow_warriors", "sisters_of_sigmar", "skaven", "skaven_of_clan_pestilens", "sons_of_hashut",
    "the_cursed_cavalcade", "the_restless_dead", "tomb_guardians", "trantios", "undead",
    "witch_hunters",
]  # fmt: skip


def test_the_texts_are_read_and_every_list_is_walked():
    relic = terms_of("holy_relic")
    assert (relic.price, relic.dice, relic.rarity) == (15, "3D6", 8)
    assert relic.rarity_for == {"witch_hunters": 6, "sisters_of_sigmar": 6}
    assert terms_of("blessed_water").rarity_of("sisters_of_sigmar") is None
    assert terms_of("gromril_axe").price == 20 and terms_of("brace_of_pistols").price == 30
    assert "Bow of Seeking" in magical_artefacts() and len(magical_artefacts()) == 6
    assert sorted(WarbandType.objects.values_list("key", flat=True)) == LISTS


def test_every_item_is_sold_as_the_chapter_says_or_is_a_find_no_trader_sells():
    """Each catalogue item: on the price chart with its price, dice and rarity (and the
    rarity its notes give some lists), and for sale; or a find of the exploration chart, for
    sale nowhere; or a mutation, on a list at recruitment only."""
    for item in items():
        terms = sold_by_the_text(item)
        if terms is None:
            assert item.for_sale is (item.category == "mutation"), item.key
            continue
        assert item.for_sale, item.key
        assert (item.price, item.price_dice or None, item.rarity) == (
            terms.price, terms.dice, terms.rarity,
        ), item.key  # fmt: skip
        for warband in LISTS:
            assert item.as_ware().rarity_of(warband) == terms.rarity_of(warband), (
                item.key, warband,
            )  # fmt: skip


# --- Every path of every list, through the rules the services ask --------------------------


def _terms(terms, *args, **kwargs):
    try:
        return terms(*args, **kwargs)
    except RuleViolation:
        return None


@pytest.mark.parametrize("warband", LISTS)
def test_every_item_on_every_path_of_each_list_against_the_texts(warband):
    """The stash and step 6 (at every roll) for every item; the muster and step 8 for every
    entry of every list of the warband, for a hero and a henchman. Offered exactly where the
    texts sell it, at their price; never for nothing but a first dagger at the founding; and
    after the founding never for less than the item sells for (buying and selling makes no
    gold)."""
    for item in items():
        ware = item.as_ware()
        offer = _terms(trading.stash_terms, ware, warband)
        got = (offer.price, offer.price_dice or None) if offer else None
        assert got == stash_expected(item, warband), ("stash", warband, item.key)
        if offer:
            assert offer.price >= item.sale_price and (offer.price or offer.price_dice)
        rare = rare_expected(item, warband)
        for rolled in range(2, 17):
            offer = _terms(trading.rare_terms, ware, warband, roll=rolled)
            got = (offer.rarity, offer.price, offer.price_dice or None) if offer else None
            assert got == (rare if rare and rare[0] <= rolled else None), (warband, item.key)

    entries = EquipmentListEntry.objects.filter(
        equipment_list__warband_type__key=warband
    ).select_related("item")
    for entry in entries:
        terms = sold_by_the_text(entry.item)
        rule, ware = entry.as_rule(), entry.item.as_ware()
        common = terms.rarity_of(warband) is None if terms else entry.item.category == "mutation"
        for is_hero in (True, False):
            if entry.heroes_only and not is_hero:
                continue
            founding = trading.list_terms(rule, ware, _buyer(is_hero, founding=True), warband)
            assert founding.price == (0 if entry.first_free else entry.price), entry
            assert founding.price > 0 or entry.first_free, entry  # nothing else is free
            later = _terms(trading.list_terms, rule, ware, _buyer(is_hero, founding=False), warband)
            assert (later is not None) == common, ("step 8", warband, entry.item.key)
            if later is not None:
                assert later.price == entry.price >= max(entry.item.sale_price, 1), entry


def _buyer(is_hero: bool, *, founding: bool) -> Buyer:
    return Buyer("Otto", is_hero=is_hero, models=1, founding=founding)


# --- Every item through the services: the Reavers (Reikland) -------------------------------

FACES = [1] * 12  # every price die, Haggle die and map die shows 1


def attempt(warband, action, purse=None):
    """``action`` in a savepoint rolled back after it: (its refusal or None, the gold it
    took, the ledger notes it wrote). A refusal must have changed nothing."""
    purse = purse or (lambda: gold(warband))
    before, held, last = state(warband), purse(), LedgerEntry.objects.order_by("-pk").first()
    with transaction.atomic():
        try:
            action()
        except RuleViolation as refusal:
            assert state(warband) == before, str(refusal)
            return str(refusal), 0, []
        spent = held - purse()
        notes = list(
            LedgerEntry.objects.filter(pk__gt=last.pk if last else 0).values_list("note", flat=True)
        )
        transaction.set_rollback(True)
    return None, spent, notes


def list_entry(warrior, item):
    """The warrior's list entry for ``item`` (the cheaper of two lists), or None."""
    return (
        EquipmentListEntry.objects.filter(
            equipment_list__warriortype=warrior.warrior_type, item=item
        )
        .order_by("price")
        .first()
    )


def check_refusal(item, refusal):
    assert refusal, f"{item.key} was bought"
    if not item.for_sale:
        assert refusal.startswith(f"{item.name} is not for sale: it is found") or "list" in refusal


class TestAtStep8:
    """The Reavers at step 8, played once for the class."""

    AT_STEP = 8

    def test_step_8_sells_into_the_stash_exactly_what_the_texts_sell(self, reavers_at, duel):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        box = chest(reavers)
        bought = []
        for item in items():
            expected = stash_expected(item, "reikland")

            def buy(key=item.key):
                act(sequence, "buy_stash", reavers.owner, FACES, item=key, into=box.pk)

            refusal, spent, notes = attempt(reavers, buy)
            if expected is not None and item.refusal("reikland") is None:
                assert refusal is None, (item.key, refusal)
                assert spent == expected[0] + dice_total(expected[1]) > 0, item.key
                assert any(f"bought for {spent} gc" in note for note in notes), (item.key, notes)
                bought.append(item.key)
            else:
                check_refusal(item, refusal)
                if not item.for_sale:
                    assert "not for sale" in refusal, (item.key, refusal)
        assert {"sword", "helmet", "rope_and_hook", "torch"} <= set(bought)

    def test_step_8_sells_each_warrior_the_common_items_of_his_lists(self, reavers_at, duel):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        captain, _, guards = warriors(reavers)
        for warrior in (captain, guards):
            for item in items():
                entry = list_entry(warrior, item)
                terms = terms_of(item.key)
                offered = (
                    entry is not None
                    and (warrior.is_hero or not entry.heroes_only)
                    and terms is not None
                    and terms.rarity_of("reikland") is None
                )

                def buy(pk=warrior.pk, key=item.key):
                    act(sequence, "buy", reavers.owner, FACES, warrior=pk, item=key)

                refusal, spent, _ = attempt(reavers, buy)
                if offered:
                    assert refusal is None, (warrior.name, item.key, refusal)
                    assert spent == entry.price * warrior.group_size > 0, (warrior.name, item.key)
                else:
                    check_refusal(item, refusal)


class TestAtStep6:
    """The Reavers at step 6, played once for the class."""

    AT_STEP = 6

    def test_step_6_sells_each_item_rare_for_the_warband_from_its_rarity_up(self, reavers_at, duel):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        sequences.prepare(sequence)
        task = sequence.tasks.get(step=6, warrior__name="Captain Adler")
        roll(sequence, task, [6, 6], reavers.owner)  # 12: up to Rare 12
        box = chest(reavers)
        bought = []
        for item in items():
            expected = rare_expected(item, "reikland")

            def buy(key=item.key):
                act(sequence, "buy_rare", reavers.owner, FACES, task=task.pk, goods=f"item:{key}",
                    to=f"container:{box.pk}")  # fmt: skip

            refusal, spent, _ = attempt(reavers, buy)
            if expected is not None and expected[0] <= 12 and item.refusal("reikland") is None:
                assert refusal is None, (item.key, refusal)
                assert spent == expected[1] + dice_total(expected[2]), item.key
                bought.append(item.key)
            else:
                check_refusal(item, refusal)
        assert {"lucky_charm", "handgun", "elven_cloak", "gromril_sword"} <= set(bought)

    def test_the_pages_offer_exactly_what_the_texts_sell(self, reavers_at, client, duel):
        """Step 6 for a roll of 12 and step 8's stash, as the Reavers' owner sees them: every
        item the texts sell there (greyed with why, when the warband may not have it), and
        nothing else."""
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        sequences.prepare(sequence)
        task = sequence.tasks.get(step=6, warrior__name="Captain Adler")
        roll(sequence, task, [6, 6], reavers.owner)
        client.force_login(reavers.owner)
        url = reverse("sequence_detail", args=[sequence.pk])

        values, greyed = select_options(client.get(url).content.decode(), 'name="goods"')
        rare = [i for i in items() if (found := rare_expected(i, "reikland")) and found[0] <= 12]
        assert sorted(v for v in values if v.startswith("item:")) == sorted(
            f"item:{i.key}" for i in rare
        )
        assert set(greyed) == {f"item:{i.key}" for i in rare if i.refusal("reikland")}

        play_to(sequence, 8, reavers.owner)
        values, greyed = select_options(client.get(url).content.decode(), "Item for the stash")
        common = [i for i in items() if stash_expected(i, "reikland")]
        assert sorted(values) == sorted(i.key for i in common)
        assert set(greyed) == {i.key for i in common if i.refusal("reikland")}


def test_the_muster_sells_each_warrior_his_lists_at_the_list_price():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="reikland"))
    captain = hire(warband, "mercenary_captain", name="Adler")
    marksmen = hire(warband, "marksman", models=2, name="Schützen")
    type(warband).objects.filter(pk=warband.pk).update(gold_crowns=1000)  # two rifles: 400 gc

    def purse():
        return type(warband).objects.get(pk=warband.pk).gold_crowns

    for warrior in (captain, marksmen):
        for item in items():
            entry = list_entry(warrior, item)
            offered = (
                entry is not None
                and (warrior.is_hero or not entry.heroes_only)
                and item.refusal("reikland") is None
            )

            def buy(w=warrior, key=item.key):
                services.buy_item(w, actor=warband.owner, item_key=key)

            refusal, spent, _ = attempt(warband, buy, purse)
            if offered:
                assert refusal is None, (warrior.name, item.key, refusal)
                assert terms_of(item.key) is not None, item.key  # the chart sells it too
                assert spent == entry.price * warrior.group_size > 0, (warrior.name, item.key)
            else:
                check_refusal(item, refusal)


# --- What the pages offer ------------------------------------------------------------------


def select_options(page: str, marker: str) -> tuple[list[str], list[str]]:
    """The option values of the select that ``marker`` opens, and those greyed."""
    select = re.search(rf"{marker}.*?</select>", page, flags=re.S)[0]
    values = re.findall(r'<option value="([^"]+)"', select)
    return values, re.findall(r'<option value="([^"]+)" disabled', select)
