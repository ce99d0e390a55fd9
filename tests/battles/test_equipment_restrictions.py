"""An item a warband may not have is refused on every purchase, whichever path buys it: at the
muster, in step 6's rare items (offered with its restriction, greyed) and in step 8's common
items; and the Dwarf Smithy's gromril weapons are the catalogue's items, so they sell."""

import pytest
from django.urls import reverse

from battles import aftermath as sequences
from battles.rules import exploration as exploration_rules
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.factories import WarbandFactory, finish, hire
from tests.helpers import act, chest, fought, gold, play_to, roll, roster_state, sequence_of
from warbands import services, treasury
from warbands.models import Item, StoredItem, WarbandType

pytestmark = pytest.mark.django_db


def marienburgers(campaign=None, *, finished=True):
    """A Marienburg warband: Van Haal (captain), Joost (champion), two warriors."""
    extra = {"campaign": campaign} if campaign is not None else {}
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="marienburg"), **extra)
    hire(warband, "mercenary_captain", name="Van Haal")
    hire(warband, "champion", name="Joost")
    hire(warband, "warrior", models=2, name="Guards")
    return finish(warband) if finished else warband


def at(duel, warband, step):
    battle = fought({**duel, "reavers": warband})
    return play_to(sequence_of(battle, warband), step, warband.owner)


def test_the_muster_refuses_skaven_fighting_claws_to_marienburg():
    warband = marienburgers(finished=False)
    captain = warband.warriors.get(name="Van Haal")
    before = warband.gold_crowns
    with pytest.raises(RuleViolation, match=r"Fighting claws .*Skaven only"):
        services.buy_item(captain, actor=warband.owner, item_key="fighting_claws")
    warband.refresh_from_db()
    assert (
        warband.gold_crowns == before
        and not captain.items.filter(item__key="fighting_claws").exists()
    )


def test_the_muster_sells_fighting_claws_to_skaven():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="skaven"))
    adept = hire(warband, "assassin_adept", items=["fighting_claws"], name="Skritch")
    assert adept.items.filter(item__key="fighting_claws").exists()


def test_step_6_shows_restricted_items_greyed_and_refuses_them(duel):
    warband = marienburgers(duel["campaign"])
    sequence = at(duel, warband, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior__name="Van Haal")
    roll(sequence, task, [6, 6], warband.owner)  # 12 + 1 (Marienburg): up to Rare 13
    task.refresh_from_db()

    context = sequences.handler(6).page_context(sequence, warband.owner)
    (_, offered, _), *_ = [o for o in context["offers"] if o[0].pk == task.pk]
    refusals = {item.key: refusal for item, _, refusal in offered}
    assert "Skaven only" in refusals["fighting_claws"]
    assert refusals["lucky_charm"] is None and "Dwarfs only" in refusals["dwarf_axe"]

    state, before = roster_state(warband), gold(warband)
    with pytest.raises(RuleViolation, match="Skaven only"):
        act(sequence, "buy_rare", warband.owner, task=task.pk, goods="item:fighting_claws",
            to=f"container:{chest(warband).pk}")  # fmt: skip
    assert roster_state(warband) == state and gold(warband) == before
    assert not StoredItem.objects.filter(item__key="fighting_claws").exists()
    task.refresh_from_db()
    assert not task.result.get("bought")  # the roll still buys something allowed


def test_the_step_6_page_marks_the_restriction(client, duel):
    warband = marienburgers(duel["campaign"])
    sequence = at(duel, warband, 6)
    sequences.prepare(sequence)
    task = sequence.tasks.get(step=6, warrior__name="Van Haal")
    roll(sequence, task, [6, 6], warband.owner)
    client.force_login(warband.owner)
    page = client.get(reverse("sequence_detail", args=[sequence.pk])).content.decode()
    assert 'value="item:fighting_claws" disabled' in page
    assert "Skaven only: not for this warband" in page


def test_step_8_refuses_a_restricted_common_item_into_the_stash(duel):
    warband = marienburgers(duel["campaign"])
    sequence = at(duel, warband, 8)
    before = gold(warband)
    with pytest.raises(RuleViolation, match=r"Squig Prodder .*Goblins only"):
        act(sequence, "buy_stash", warband.owner, item="squig_prodder", into=chest(warband).pk)
    with pytest.raises(RuleViolation, match="Sisters of Sigmar only"):
        act(sequence, "buy_stash", warband.owner, item="sigmarite_warhammer",
            into=chest(warband).pk)  # fmt: skip
    assert gold(warband) == before
    act(sequence, "buy_stash", warband.owner, item="torch", into=chest(warband).pk)
    assert gold(warband) == before - 2


def test_the_dwarf_smithys_gromril_axe_is_the_catalogues_and_sells_for_half(duel):
    """FACTS.md section 4, Dwarf Smithy 3: a gromril axe (20 gc on the chart: 4 × 5); sold
    at half its price (section 6): 10 gc."""
    scripted = ScriptedDice([3])
    find = exploration_rules.resolve_location(
        scripted, 3, 6, context=exploration_rules.LocationContext(family="Mercenaries")
    )
    assert find.items == [("gromril_axe", "Gromril axe", 1)]
    for face, key in ((4, "gromril_hammer"), (5, "gromril_double_handed_weapon")):
        found = exploration_rules.resolve_location(
            ScriptedDice([face]), 3, 6, context=exploration_rules.LocationContext()
        )
        assert found.items[0][0] == key and Item.objects.filter(key=key).exists()

    reavers = duel["reavers"]
    stored = treasury.add_item(
        chest(reavers), item=Item.objects.get(key="gromril_axe"), reason="income"
    )
    sequence = at(duel, reavers, 8)
    before = gold(reavers)
    act(sequence, "sell", reavers.owner, what=f"stored:{stored.pk}", into="pile")
    assert gold(reavers) == before + 10


def test_a_stored_item_the_warband_may_not_have_is_not_equipped():
    """Fighting claws that reached a Marienburg chest (a capture, a find) may be sold, never
    carried: equipping names the restriction."""
    warband = marienburgers()
    captain = warband.warriors.get(name="Van Haal")
    claws = treasury.add_item(
        chest(warband), item=Item.objects.get(key="fighting_claws"), reason="income"
    )
    with pytest.raises(RuleViolation, match="Skaven only"):
        treasury.equip_stored_item(claws, captain, actor=warband.owner)
    assert StoredItem.objects.filter(pk=claws.pk).exists()
