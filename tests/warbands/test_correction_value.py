"""Corrections create no value: an item a correction added carries where it came from wherever
it goes (a warrior, a container, the unstored pile, the captor's treasury), is marked on the
roster and the printout, fetches nothing when sold in step 8, and the conservation audit
(``check_ledgers``) reports what corrections gave each warband and fails on gold that selling
such an item brought.

The scenario guarded against: a player gives his henchmen, by correction, a Hochland long rifle
(200 gc) their list may not take and sells it in step 8 for 100 gc a model, while the ledger
says all agree.
"""

import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from battles import aftermath as sequences
from tests.helpers import act, at_step, chest, gold, pile, warriors
from warbands import corrections, treasury
from warbands.models import Correction, Item, LedgerEntry, StoredItem, WarriorItem

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def rifle() -> Item:
    return Item.objects.get(key="hochland_long_rifle")  # 200 gc: sells for 100 a model


def correct_and_sell(client, duel):
    """The posts of that scenario, through the pages: at step 8, the Reavers' owner adds a
    Hochland long rifle to his three Stadtwache by correction, the organiser approves whatever
    waits on the corrections page (when nothing waits, the correction applied at once), and
    the owner sells the rifle in step 8. The sequence, and the treasury's gold before."""
    reavers, organiser = duel["reavers"], duel["organiser"]
    sequence, owner = at_step(duel, 8)
    guards = warriors(reavers)[2]
    before = gold(reavers)
    client.force_login(owner)
    client.post(reverse("warband_correct", args=[reavers.pk]),
                {"kind": "item_added", "warrior": guards.pk, "item": rifle().pk,
                 "reason": "Found at the table"}, headers=HTMX)  # fmt: skip
    client.force_login(organiser)
    page = client.get(reverse("warband_corrections", args=[reavers.pk])).content.decode()
    for action in sorted(set(re.findall(r'action="([^"]*/decide/)"', page))):
        client.post(action, {"decision": "approve"}, headers=HTMX)
    owned = guards.items.get(item=rifle())
    client.force_login(owner)
    sold = client.post(reverse("sequence_act", args=[sequence.pk]),
                       {"step": 8, "action": "sell", "what": f"owned:{owned.pk}",
                        "into": "pile"}, headers=HTMX)  # fmt: skip
    assert sold.status_code == 200, sold.content.decode()
    assert not WarriorItem.objects.filter(pk=owned.pk).exists()  # sold: gone from the roster
    return sequence, before


def check_ledgers() -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("check_ledgers", stdout=out, stderr=err)
    except CommandError as failure:
        return failure.returncode, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


# --- The scenario ----------------------------------------------------------------------------


def test_an_item_added_by_correction_and_sold_in_step_8_brings_no_gold(client, duel):
    reavers = duel["reavers"]

    _, before = correct_and_sell(client, duel)

    assert gold(reavers) == before
    code, out, _ = check_ledgers()
    assert code == 0
    assert (
        f"Reavers (warband {reavers.pk}): 1 item(s) (Hochland long rifle: 200 gc at list "
        "price); 0 gc from selling them" in out
    )


def test_check_ledgers_fails_on_gold_from_selling_an_item_a_correction_added(
    client, duel, monkeypatch
):
    """The forged state: the same four posts through a sale that forgets where the item came
    from (its worth read from the catalogue), so that the gold grew; the audit must say so."""
    monkeypatch.setattr(WarriorItem, "sale_price",
                        property(lambda owned: owned.item.sale_price), raising=False)  # fmt: skip
    reavers = duel["reavers"]

    _, before = correct_and_sell(client, duel)

    assert gold(reavers) == before + 300  # 100 gc for each of the three models
    code, out, err = check_ledgers()
    assert code == 1
    assert re.search(
        rf"warband {reavers.pk}: 300 gc from selling Hochland long rifle, which correction \d+ "
        "added and nobody paid for, found or mustered",
        err,
    ), err
    assert "300 gc from selling them" in out


# --- Wherever it goes, it stays a correction's -------------------------------------------------


@pytest.fixture
def given(duel):
    """A halberd the organiser gave Brandt by correction (applied at once), and its row."""
    reavers = duel["reavers"]
    champion = warriors(reavers)[1]
    halberd = Item.objects.get(key="halberd")
    correction = corrections.add_item(champion, actor=duel["organiser"], item=halberd, reason="x")
    return correction, champion.items.get(correction=correction)


def test_the_roster_the_printout_and_the_export_mark_it_for_everybody(client, duel, given):
    reavers = duel["reavers"]
    client.force_login(duel["scourge"].owner)

    roster = client.get(reverse("warband_roster", args=[reavers.pk])).content.decode()
    printed = client.get(reverse("warband_print", args=[reavers.pk])).content.decode()
    exported = client.get(reverse("warband_export", args=[reavers.pk])).json()

    assert re.search(r'<span class="rule-name">Halberd</span> <small class="muted">'
                     r"\(added by correction\)</small>", roster)  # fmt: skip
    assert "Axe" in roster and "Axe (added by correction)" not in roster
    assert "Halberd (added by correction)" in printed
    brandt = next(w for w in exported["warriors"] if w["name"] == "Brandt")
    assert [i["name"] for i in brandt["items"] if i["by_correction"]] == ["Halberd"]
    assert "Axe" in [i["name"] for i in brandt["items"] if not i["by_correction"]]


def test_stored_equipped_moved_and_sold_it_keeps_its_provenance_and_fetches_nothing(duel, given):
    correction, owned = given
    reavers = duel["reavers"]
    champion = owned.warrior
    box, loose = chest(reavers), pile(reavers)

    treasury.store_warrior_item(owned, box, actor=reavers.owner)
    stored = StoredItem.objects.get(container=box, correction=correction)
    treasury.move_stored_item(stored, loose, actor=reavers.owner)
    again = treasury.equip_stored_item(stored, champion, actor=reavers.owner)
    assert again.correction == correction
    treasury.store_warrior_item(again, loose, actor=reavers.owner)
    stored = StoredItem.objects.get(container=loose, correction=correction)
    sequence, owner = at_step(duel, 8)
    before = gold(reavers)

    summary = act(sequence, "sell", owner, what=f"stored:{stored.pk}", into=box.pk)

    assert "Halberd fetches nothing: a correction added it" in summary
    assert gold(reavers) == before
    assert not StoredItem.objects.filter(pk=stored.pk).exists()
    moves = LedgerEntry.objects.filter(kind="item", correction=correction)
    assert sorted(moves.values_list("reason", "amount")) == sorted([
        ("unequip", 1), ("transfer", -1), ("transfer", 1), ("equip", -1), ("unequip", 1),
        ("sale", -1),
    ])  # fmt: skip
    assert not treasury.conservation_problems()


def test_undoing_the_sale_gives_back_the_item_as_it_was(duel, given):
    correction, owned = given
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, 8)
    act(sequence, "sell", owner, what=f"owned:{owned.pk}", into="pile")
    treasury.store_warrior_item(
        warriors(reavers)[0].items.get(item__key="sword"), pile(reavers), actor=owner
    )
    stored = StoredItem.objects.get(container=pile(reavers))
    act(sequence, "sell", owner, what=f"stored:{stored.pk}", into="pile")

    sequences.complete_step(sequence, actor=owner, step=8)
    sequences.undo_last_step(sequence, actor=owner, step=8)

    assert WarriorItem.objects.get(pk=owned.pk).correction == correction
    assert not treasury.conservation_problems()


def test_a_dismissed_warriors_item_stays_a_corrections_in_the_pile(duel, given):
    correction, owned = given
    reavers = duel["reavers"]

    treasury.release_warrior(owned.warrior, actor=reavers.owner)

    assert StoredItem.objects.get(container=pile(reavers), item__key="halberd").correction == (
        correction
    )
    assert not treasury.conservation_problems()


def test_a_captured_container_takes_it_along_still_worth_nothing(duel, given):
    correction, owned = given
    reavers, scourge = duel["reavers"], duel["scourge"]
    box = chest(reavers)
    treasury.store_warrior_item(owned, box, actor=reavers.owner)

    treasury.capture_container(box, scourge)

    stored = StoredItem.objects.get(container=box, item__key="halberd")
    assert (stored.container.warband, stored.correction, stored.sale_price) == (
        scourge,
        correction,
        0,
    )
    assert not treasury.conservation_problems()


def test_the_audit_finds_an_item_whose_provenance_was_lost_on_the_way(duel, given):
    correction, owned = given
    reavers = duel["reavers"]
    treasury.store_warrior_item(owned, chest(reavers), actor=reavers.owner)

    StoredItem.objects.filter(correction=correction).update(correction=None)

    problems = [str(p) for p in treasury.conservation_problems()]
    assert problems == [
        f"warband {reavers.pk}: container {chest(reavers).pk} holds 0 item(s) of correction "
        f"{correction.pk}, its ledger says 1"
    ]


def test_an_item_naming_a_request_not_applied_is_unsourced(duel, given):
    _, owned = given
    reavers = duel["reavers"]
    asked = corrections.set_experience(
        owned.warrior, actor=reavers.owner, experience=20, reason="x"
    )
    WarriorItem.objects.filter(pk=owned.pk).update(correction=asked)

    assert [str(p) for p in treasury.conservation_problems()] == [
        f"warband {reavers.pk}: an item names correction {asked.pk}, which added no item"
    ]
    assert Correction.objects.get(pk=asked.pk).status == Correction.Status.PENDING


def test_a_group_takes_paid_items_first_and_is_marked_when_it_takes_a_corrections(duel, given):
    correction, owned = given
    reavers = duel["reavers"]
    guards = warriors(reavers)[2]
    box = chest(reavers)
    treasury.store_warrior_item(owned, box, actor=reavers.owner)
    for _ in range(3):
        treasury.add_item(box, item=owned.item, reason="income")
    paid = StoredItem.objects.filter(container=box, item=owned.item, correction=None).first()

    first = treasury.equip_stored_item(paid, guards, actor=reavers.owner)
    assert first.correction is None  # three paid for, taken before the correction's
    treasury.store_warrior_item(first, box, actor=reavers.owner)
    theirs = StoredItem.objects.get(container=box, correction=correction)
    second = treasury.equip_stored_item(theirs, guards, actor=reavers.owner)

    assert second.correction == correction  # chosen: the group's halberds fetch nothing
    assert second.sale_price == 0
    assert not treasury.conservation_problems()
