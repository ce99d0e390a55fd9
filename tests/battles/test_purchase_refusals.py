"""What no trader sells is never bought, whatever is posted: the magical artefacts in step 8,
a found thing an organiser puts on a list, a forged post for a hired sword or for a group
that carries a find; and nothing is bought for nothing (a dagger bought back after the
founding). The warband lists' own availability (the Sisters' blessed water and holy relic)
reaches the pages and the services. ``tests/battles/test_purchase_paths.py`` walks the whole
catalogue."""

import re

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from core.errors import RuleViolation
from tests.factories import WarbandFactory, finish, hire
from tests.helpers import (
    act,
    at,
    chest,
    fingerprint,
    fought,
    gold,
    play_to,
    refused,
    roll,
    sequence_of,
    warriors,
)
from warbands import hired_swords, services
from warbands.models import (
    EquipmentList,
    EquipmentListEntry,
    Item,
    LedgerEntry,
    StoredItem,
    WarbandType,
    Warrior,
    WarriorItem,
)

pytestmark = pytest.mark.django_db

ARTEFACTS = ("bow_of_seeking", "attlas_plate_mail", "all_seeing_eye_of_numas")


def page_of(client, sequence, user) -> str:
    client.force_login(user)
    return client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()


def options(page: str, label: str) -> list[str]:
    """The values of the options of the select labelled ``label``."""
    select = re.search(rf'aria-label="{label}".*?</select>', page, flags=re.S)[0]
    return re.findall(r'<option value="([^"]+)"', select)


class TestAtStep8:
    """The Reavers at step 8, played once for the class."""

    AT_STEP = 8

    def test_a_magic_artefact_is_not_offered_in_step_8(self, reavers_at, client, duel):
        """Bow of Seeking, Att'la's Plate Mail and the All-seeing Eye of Numas were offered as
        Common items for 0 gc in step 8's "For the stash" list: they are found exploring, never
        bought."""
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        offered = options(page_of(client, sequence, reavers.owner), "Item for the stash")
        assert "sword" in offered and "torch" in offered
        assert not set(ARTEFACTS) & set(offered)

    def test_a_magic_artefact_posted_in_step_8_is_refused_and_changes_nothing(
        self, reavers_at, client, duel
    ):
        """A post for one (a script posts any key) was bought ("bought for 0 gc"): it is refused
        with the reason, where the player looks, and nothing changes."""
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        client.force_login(reavers.owner)
        for key in ARTEFACTS:
            before = fingerprint()
            response = client.post(
                reverse("sequence_act", args=[sequence.pk]),
                {"step": 8, "action": "buy_stash", "item": key, "into": chest(reavers).pk},
                headers={"HX-Request": "true"},
            )
            assert "is not for sale: it is found" in response.content.decode(), key
            assert fingerprint() == before, key
        assert not LedgerEntry.objects.filter(note__contains="bought for 0 gc").exists()
        assert not StoredItem.objects.filter(item__key__in=ARTEFACTS).exists()

    def test_a_dagger_bought_back_after_the_founding_costs_its_price(self, reavers_at, duel):
        """Every warrior's first dagger is free when he is hired. Sold in step 8 for 1 gc (half
        its 2 gc) and bought back for nothing, it would make a gold crown each time: bought back,
        it costs 2 gc."""
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        captain, _, _ = warriors(reavers)
        dagger = captain.items.get(item__key="dagger")
        assert dagger.price_paid == 0
        before = gold(reavers)

        act(sequence, "sell", reavers.owner, what=f"owned:{dagger.pk}", into="pile")
        act(sequence, "buy", reavers.owner, warrior=captain.pk, item="dagger")

        assert gold(reavers) == before + 1 - 2
        assert captain.items.get(item__key="dagger").price_paid == 2

    def test_a_recruit_comes_with_his_free_dagger(self, reavers_at, duel):
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        warrior = reavers.warband_type.warrior_types.get(key="warrior")
        before = gold(reavers)
        act(sequence, "hire", reavers.owner, warrior_type=warrior.pk, name="Hans", group_size=2)
        hans = reavers.warriors.get(name="Hans")
        assert gold(reavers) == before - 2 * warrior.cost
        assert list(hans.items.values_list("item__key", "price_paid")) == [("dagger", 0)]

    def test_a_group_that_carries_a_find_cannot_grow(self, reavers_at, duel):
        """New henchmen are equipped as their group and pay for it: a group that carries what no
        trader sells (here, put on it by hand) takes no new models, as recruits or veterans."""
        sequence, _ = reavers_at
        reavers = duel["reavers"]
        _, _, guards = warriors(reavers)
        Warrior.objects.filter(pk=guards.pk).update(experience=0)  # plain recruits may join
        WarriorItem.objects.create(
            warrior=guards, item=Item.objects.get(key="bow_of_seeking"), price_paid=0
        )

        def grow():
            act(sequence, "add_models", reavers.owner, group=guards.pk, models=1)

        refused(reavers, grow, "Stadtwache carry Bow of Seeking, which no trader")


def test_no_path_buys_a_magic_artefact(duel):
    """Step 6 with the best roll, and step 8 for a warrior, refuse them too."""
    sequence, reavers = at(duel, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior__name="Captain Adler")
    roll(sequence, task, [6, 6], reavers.owner)
    captain, _, _ = warriors(reavers)
    for key in ARTEFACTS:
        refused(reavers, lambda k=key: act(
            sequence, "buy_rare", reavers.owner, task=task.pk, goods=f"item:{k}",
            to=f"container:{chest(reavers).pk}",
        ), "not for sale")  # fmt: skip
    play_to(sequence, 8, reavers.owner)
    for key in ARTEFACTS:

        def buy(k=key):
            act(sequence, "buy", reavers.owner, warrior=captain.pk, item=k)

        refused(reavers, buy, "not an item of Captain Adler's list")


def test_a_find_an_organiser_puts_on_a_list_is_still_never_bought(client, duel):
    """The lists are extended in the admin for house rules: a Bow of Seeking put on the
    Mercenary list (even at a price) is neither offered nor sold, at the muster or later."""
    bow = Item.objects.get(key="bow_of_seeking")
    mercenary = EquipmentList.objects.get(warband_type__key="reikland", key="mercenary")
    EquipmentListEntry.objects.create(equipment_list=mercenary, item=bow, price=25)

    draft = WarbandFactory(warband_type=mercenary.warband_type)
    adler = hire(draft, "mercenary_captain", name="Adler")
    client.force_login(draft.owner)
    board = client.get(reverse("warband_muster", args=[draft.pk])).content.decode()
    assert 'value="sword"' in board and "Bow of Seeking" not in board
    refused(draft, lambda: services.buy_item(adler, actor=draft.owner, item_key=bow.key),
            "Bow of Seeking is not for sale")  # fmt: skip

    sequence, reavers = at(duel, 8)
    captain, _, _ = warriors(reavers)
    refused(reavers, lambda: act(sequence, "buy", reavers.owner, warrior=captain.pk,
                                 item=bow.key), "Bow of Seeking is not for sale")  # fmt: skip


def test_nothing_is_bought_for_a_hired_sword(duel):
    """Hired swords: "A player cannot buy extra weapons or equipment for a Hired Sword."""
    warband = WarbandFactory(
        campaign=duel["campaign"], warband_type=WarbandType.objects.get(key="reikland")
    )
    hire(warband, "mercenary_captain", name="Adler")
    hire(warband, "warrior", models=2, name="Wachen")
    ogre = hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="ogre_bodyguard")
    finish(warband)
    battle = fought({**duel, "reavers": warband})
    sequence = play_to(sequence_of(battle, warband), 7, warband.owner)
    act(sequence, "upkeep", warband.owner, warrior=ogre.pk, decision="pay")
    play_to(sequence, 8, warband.owner)
    refused(warband, lambda: act(sequence, "buy", warband.owner, warrior=ogre.pk, item="sword"),
            "hired sword: he keeps his own equipment")  # fmt: skip


def sisters(campaign):
    """A Sisters of Sigmar warband: Mother Agathe (matriarch), Ilse (sister superior) and
    three sisters."""
    warband = WarbandFactory(
        campaign=campaign, warband_type=WarbandType.objects.get(key="sisters_of_sigmar")
    )
    hire(warband, "sigmarite_matriarch", name="Mother Agathe")
    hire(warband, "sister_superior", name="Ilse")
    hire(warband, "sigmarite_sister", models=3, name="Sisters")
    return finish(warband)


def test_the_sisters_buy_blessed_water_as_a_common_item(client, duel):
    """Blessed water: Rare 6, "Common for Warrior-Priests and Sisters of Sigmar". A heroine
    buys it from her list at its list price (10 gc); into the stash it costs the chart's
    10+3D6, the dice rolled when it is bought. The Reavers find it only in step 6."""
    warband = sisters(duel["campaign"])
    battle = fought({**duel, "reavers": warband})
    sequence = play_to(sequence_of(battle, warband), 8, warband.owner)
    agathe = warband.warriors.get(name="Mother Agathe")
    page = page_of(client, sequence, warband.owner)
    assert "blessed_water" in options(page, "Item for the stash")
    assert "blessed_water" in options(page, "Item for Mother Agathe")
    assert "Blessed water, 10+3D6 gc (rolled when bought)" in page

    before = gold(warband)
    act(sequence, "buy", warband.owner, warrior=agathe.pk, item="blessed_water")
    act(sequence, "buy_stash", warband.owner, [2, 3, 4], item="blessed_water",
        into=chest(warband).pk)  # fmt: skip
    assert gold(warband) == before - 10 - (10 + 2 + 3 + 4)
    assert LedgerEntry.objects.filter(note__contains="bought for 19 gc").exists()

    reavers_sequence, reavers = at(duel, 8)
    with pytest.raises(RuleViolation, match=r"Blessed water is Rare 6: .* step 6"):
        act(reavers_sequence, "buy_stash", reavers.owner, item="blessed_water",
            into=chest(reavers).pk)  # fmt: skip


def test_a_holy_relic_is_rare_6_for_the_sisters_and_rare_8_for_others(client, duel):
    warband = sisters(duel["campaign"])
    battle = fought({**duel, "reavers": warband})
    sequence = play_to(sequence_of(battle, warband), 6, warband.owner)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior__name="Mother Agathe")
    roll(sequence, task, [3, 3], warband.owner)  # 6
    page = page_of(client, sequence, warband.owner)
    assert "Holy/unholy relic, Rare 6, 15+3D6 gc" in page

    before = gold(warband)
    act(sequence, "buy_rare", warband.owner, [1, 2, 3], task=task.pk, goods="item:holy_relic",
        to=f"container:{chest(warband).pk}")  # fmt: skip
    assert gold(warband) == before - (15 + 6)

    reavers_sequence, reavers = at(duel, 6)
    sequences.prepare(reavers_sequence)
    theirs = reavers_sequence.tasks.get(step=6, warrior__name="Captain Adler")
    roll(reavers_sequence, theirs, [3, 3], reavers.owner)
    refused(reavers, lambda: act(
        reavers_sequence, "buy_rare", reavers.owner, [1, 2, 3], task=theirs.pk,
        goods="item:holy_relic", to=f"container:{chest(reavers).pk}",
    ), "Rare 8: the roll was 6")  # fmt: skip
