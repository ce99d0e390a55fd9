"""One treasury edge: every action of the treasury page posted through the page and through
each post-battle step that offers it (9, and storing what lies unstored in 3 to 9) does the
same: the same ledger entries and balances, or the same refusal beside the same field, with
nothing changed. Each side is posted from the same state, rolled back after it."""

import re

import pytest
from django.db import transaction
from django.urls import reverse

from core.errors import RuleViolation
from tests.factories import mustered_warband
from tests.helpers import at_step, chest, sack_with_room, warriors
from warbands import treasury
from warbands.models import Item, LedgerEntry, StorageContainer, StoredItem, WarriorItem

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
ALERT = re.compile(r'role="alert"[^>]*>([^<]+)<')


def _sword(container):
    return treasury.add_item(container, item=Item.objects.get(key="sword"), reason="income")


def move_gold(duel):
    box, sack = chest(duel["reavers"]), sack_with_room(duel["reavers"])
    good = {"source": box.pk, "target": sack.pk, "gold": 5}
    return good, {**good, "gold": 100_000}


def move_wyrdstone(duel):
    box, sack = chest(duel["reavers"]), sack_with_room(duel["reavers"])
    treasury.add_treasure(box, wyrdstone=3, reason="income")
    good = {"source": box.pk, "target": sack.pk, "wyrdstone": 2}
    return good, {**good, "wyrdstone": "lots"}


def move_item(duel):
    stored = _sword(chest(duel["reavers"]))
    theirs = _sword(chest(duel["scourge"]))
    good = {"stored_item": stored.pk, "target": sack_with_room(duel["reavers"]).pk}
    return good, {**good, "stored_item": theirs.pk}


def equip(duel):
    stored = _sword(chest(duel["reavers"]))
    _, champion, guards = warriors(duel["reavers"])
    charm = treasury.add_item(
        chest(duel["reavers"]), item=Item.objects.get(key="lucky_charm"), reason="income"
    )
    good = {"stored_item": stored.pk, "warrior": champion.pk}
    return good, {"stored_item": charm.pk, "warrior": guards.pk}  # not on the group's list


def store_item(duel):
    captain, _, _ = warriors(duel["reavers"])
    theirs = warriors(duel["scourge"])[0].items.first()
    good = {"owned": captain.items.get(item__key="sword").pk, "target": chest(duel["reavers"]).pk}
    return good, {**good, "owned": theirs.pk}


def buy(duel):
    good = {"kind": "backpack", "pay_from": chest(duel["reavers"]).pk}
    return good, {**good, "kind": "cart_mule"}  # rare: bought after a rarity roll


def sell(duel):
    reavers = duel["reavers"]
    backpack = treasury.buy_container(reavers, "backpack", actor=reavers.owner,
                                      pay_from=chest(reavers))  # fmt: skip
    good = {"container": backpack.pk, "proceeds_to": chest(reavers).pk}
    return good, {**good, "container": sack_with_room(reavers).pk}  # not empty


def place(duel):
    reavers = duel["reavers"]
    cart = StorageContainer.objects.create(warband=reavers, kind="cart_mule")
    good = {"container": sack_with_room(reavers).pk, "parent": cart.pk}
    return good, {**good, "parent": chest(reavers).pk}  # no carrier


def store_pile(duel):
    reavers = duel["reavers"]
    pile = treasury.loose_pile(reavers)
    treasury.add_treasure(pile, gold=7, reason="income")
    lying = _sword(pile)
    good = {"target": sack_with_room(reavers).pk, "gold": 7, "items": [lying.pk]}
    return good, {**good, "target": pile.pk}


# (setup, the page's view, step 9's action): every form of the page that a step offers.
ACTIONS = {
    "move gold": (move_gold, "treasury_move", "move"),
    "move wyrdstone": (move_wyrdstone, "treasury_move", "move"),
    "move an item": (move_item, "treasury_move_item", "move_item"),
    "equip": (equip, "treasury_equip", "equip"),
    "store a warrior's item": (store_item, "treasury_store", "unequip"),
    "buy a container": (buy, "treasury_buy", "buy_container"),
    "sell a container": (sell, "treasury_sell", "sell_container"),
    "load a container": (place, "treasury_place", "place"),
    "store what lies unstored": (store_pile, "treasury_store_pile", "store"),
}
CASES = [(name, 9) for name in ACTIONS] + [
    ("store what lies unstored", step) for step in range(3, 9)
]


def state(warband) -> tuple:
    """The treasury and the warriors' items, by what they are (a container bought on one
    side and on the other has a key of its own)."""
    containers = StorageContainer.objects.filter(warband=warband).select_related("parent")
    stored = StoredItem.objects.filter(container__warband=warband).select_related("container")
    owned = WarriorItem.objects.filter(warrior__warband=warband)
    return (
        sorted(
            (str(c), c.status, str(c.parent or ""), c.gold_crowns, c.wyrdstone, c.item_count)
            for c in containers
        ),
        sorted((s.name, str(s.container)) for s in stored),
        sorted(owned.values_list("warrior", "item__key", "price_paid")),
    )


def entries(warband, after: int) -> list:
    """The ledger entries written: what each moved, where and why (not the battle or step,
    which only the step's name)."""
    written = LedgerEntry.objects.filter(warband=warband, pk__gt=after).select_related("container")
    return sorted((str(e.container), e.kind, e.amount, e.reason, e.item_name) for e in written)


class RolledBack(Exception):
    pass


def outcome(client, warband, path, data) -> tuple:
    """What posting ``data`` to ``path`` answers and changes, rolled back after."""
    before, last = state(warband), LedgerEntry.objects.latest("pk").pk
    try:
        with transaction.atomic():
            response = client.post(path, data, headers=HTMX)
            shown = [m.strip() for m in ALERT.findall(response.content.decode()) if m.strip()]
            raise RolledBack(response.status_code, shown, entries(warband, last), state(warband))
    except RolledBack as done:
        status, shown, written, after = done.args
    return status, shown, written, after if after != before else "unchanged"


@pytest.mark.parametrize(("action", "step"), CASES, ids=[f"{a}, step {s}" for a, s in CASES])
def test_the_page_and_the_step_do_the_same(client, duel, action, step):
    setup, view, step_action = ACTIONS[action]
    reavers = duel["reavers"]
    sequence, owner = at_step(duel, step)
    good, bad = setup(duel)
    client.force_login(owner)
    page = reverse(view, args=[reavers.pk])
    in_step = reverse("sequence_act", args=[sequence.pk])
    hidden = {"step": step, "action": step_action}

    for data in (good, bad):
        on_page = outcome(client, reavers, page, data)
        on_step = outcome(client, reavers, in_step, {**data, **hidden})
        assert on_page == on_step, data

    done = outcome(client, reavers, page, good)
    refused = outcome(client, reavers, page, bad)
    assert done[0] == 200 and done[3] != "unchanged" and not done[1]
    assert done[2] or action == "load a container"  # loading moves no treasure
    assert refused[0] == 422 and len(refused[1]) == 1 and refused[2:] == ([], "unchanged")


def test_a_container_gone_while_a_move_waited_for_its_lock_is_refused_not_a_server_error():
    """A step that bought the container, undone by another tab, deletes it: a move into it
    that read it before is refused with a message, and nothing moves."""
    warband = mustered_warband()
    chest = warband.containers.get(kind="treasure_chest")
    bought = StorageContainer.objects.create(warband=warband, kind="large_sack")
    StorageContainer.objects.filter(pk=bought.pk).delete()  # the undo, in the other tab
    before = treasury.totals(warband)
    with pytest.raises(RuleViolation, match="is no longer there: reload the page"):
        treasury.move_treasure(chest, bought, actor=warband.owner, gold=10)
    assert treasury.totals(warband) == before
