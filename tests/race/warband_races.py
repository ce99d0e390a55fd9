"""The races of the muster board and the treasury page (``tests.race.harness``)."""

from __future__ import annotations

from django.urls import reverse

from tests.factories import (
    MembershipFactory,
    WarbandFactory,
    buy_storage_for_purse,
    hire,
    mustered_warband,
)
from tests.race.harness import POSTS, Shot, race
from warbands import treasury
from warbands.models import (
    Item,
    LedgerEntry,
    StorageContainer,
    StoredItem,
    Warband,
    WarbandType,
)

Reason = LedgerEntry.Reason


def _sacks(warband: Warband) -> list[StorageContainer]:
    return list(warband.containers.real().filter(kind="large_sack").order_by("pk"))


def _entries(warband: Warband, reason: str, **filters) -> int:
    return LedgerEntry.objects.filter(warband=warband, reason=reason, **filters).count()


def emptied_sack(warband: Warband) -> tuple[StorageContainer, StorageContainer]:
    """An empty large sack of a mustered warband, and the chest that took its gold (90 gc:
    room for 10 more)."""
    chest = warband.containers.get(kind="treasure_chest")
    sack = _sacks(warband)[-1]
    treasury.add_treasure(chest, gold=-sack.gold_crowns - 10, reason=Reason.LOSS)
    treasury.move_treasure(sack, chest, actor=warband.owner, gold=sack.gold_crowns)
    return sack, chest


def _new_sack(warband: Warband) -> StorageContainer:
    return StorageContainer.objects.create(warband=warband, kind="large_sack")


# --- Mustering ---------------------------------------------------------------------------------


@race("warband_create", "one warband per player in a campaign (the default)")
def create():
    player = MembershipFactory().user
    reikland = WarbandType.objects.get(key="reikland")
    url = reverse("warband_create", args=[player.memberships.get().campaign_id])
    return Shot(
        player,
        url,
        {"name": "Second Tab", "warband_type": reikland.pk},
        applied=lambda: Warband.objects.filter(owner=player).count(),
        htmx=False,
    )


@race("warband_hire", "a warband has one leader")
def hire_leader():
    warband = WarbandFactory()
    captain = warband.warband_type.warrior_types.get(key="mercenary_captain")
    return Shot(
        warband.owner,
        reverse("warband_hire", args=[warband.pk]),
        {"warrior_type": captain.pk, "name": "Adler", "group_size": 1},
        applied=lambda: warband.warriors.count(),
    )


@race("warrior_buy_item", "four tabs buy four swords, each paid once")
def buy_item():
    warband = WarbandFactory()
    captain = hire(warband, "mercenary_captain")
    before = Warband.objects.get(pk=warband.pk).gold_crowns
    price = Item.objects.get(key="sword").price
    return Shot(
        warband.owner,
        reverse("warrior_buy_item", args=[captain.pk]),
        {"item": "sword"},
        applied=lambda: (before - Warband.objects.get(pk=warband.pk).gold_crowns) // price,
        allowed=POSTS,
    )


@race("warrior_remove_item", "the price comes back once")
def remove_item():
    warband = WarbandFactory()
    captain = hire(warband, "mercenary_captain", items=["sword"])
    owned = captain.items.get(item__key="sword")
    before = Warband.objects.get(pk=warband.pk).gold_crowns
    return Shot(
        warband.owner,
        reverse("warrior_remove_item", args=[captain.pk, owned.pk]),
        {},
        applied=lambda: (
            (Warband.objects.get(pk=warband.pk).gold_crowns - before) // owned.price_paid
        ),
    )


@race("warrior_group_size", "one more model is paid once")
def group_size():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain")
    guards = hire(warband, "warrior", models=2)
    before = Warband.objects.get(pk=warband.pk).gold_crowns
    per_model = guards.warrior_type.cost
    return Shot(
        warband.owner,
        reverse("warrior_group_size", args=[guards.pk]),
        {"group_size": 3},
        applied=lambda: (before - Warband.objects.get(pk=warband.pk).gold_crowns) // per_model,
    )


@race("warrior_dismiss", "a hire undone while mustering refunds once")
def dismiss_while_mustering():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain")
    guards = hire(warband, "warrior", models=2, items=["spear"])
    before = Warband.objects.get(pk=warband.pk).gold_crowns
    spent = 2 * (guards.warrior_type.cost + sum(o.price_paid for o in guards.items.all()))
    return Shot(
        warband.owner,
        reverse("warrior_dismiss", args=[guards.pk]),
        {},
        applied=lambda: (Warband.objects.get(pk=warband.pk).gold_crowns - before) // spent,
    )


def court_mustering() -> Warband:
    """A Court of the Profane Pleasures being mustered (a list whose player names its leader):
    Whipmaster Vex and Danseuse Lira, nobody named yet."""
    warband = WarbandFactory(
        warband_type=WarbandType.objects.get(key="court_of_the_profane_pleasures")
    )
    hire(warband, "slaaneshi_whipmaster", name="Vex")
    hire(warband, "slaaneshi_danseuse", name="Lira")
    return warband


@race("warrior_lead", "a hero is named leader once, and the warband never has two")
def name_leader():
    warband = court_mustering()
    lira = warband.warriors.get(name="Lira")
    return Shot(
        warband.owner,
        reverse("warrior_lead", args=[lira.pk]),
        {},
        applied=lambda: warband.warriors.filter(is_leader=True).count(),
    )


@race("warband_buy_container", "four tabs buy four sacks, each paid once")
def buy_container_while_mustering():
    warband = WarbandFactory()
    return Shot(
        warband.owner,
        reverse("warband_buy_container", args=[warband.pk]),
        {"kind": "large_sack"},
        applied=lambda: warband.containers.real().filter(kind="large_sack").count(),
        allowed=POSTS,
    )


@race("warband_return_container", "a container returned once pays its price back once")
def return_container():
    warband = WarbandFactory()
    sack = treasury.buy_container(warband, "large_sack", actor=warband.owner)
    before = Warband.objects.get(pk=warband.pk).gold_crowns
    return Shot(
        warband.owner,
        reverse("warband_return_container", args=[warband.pk, sack.pk]),
        {},
        applied=lambda: (Warband.objects.get(pk=warband.pk).gold_crowns - before) // 2,
    )


@race("warband_return_container:free_chest", "the free chest is not given back")
def return_free_chest():
    warband = WarbandFactory()
    chest = warband.containers.get(kind="treasure_chest")
    return Shot(
        warband.owner,
        reverse("warband_return_container", args=[warband.pk, chest.pk]),
        {},
        applied=lambda: int(Warband.objects.get(pk=warband.pk).gold_crowns != 500),
        allowed=0,
    )


@race("warband_finish", "the purse goes into the containers once")
def finish():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain", items=["sword"])
    hire(warband, "champion")
    hire(warband, "warrior", models=3)
    buy_storage_for_purse(warband)
    purse = Warband.objects.get(pk=warband.pk).gold_crowns
    stored = LedgerEntry.objects.filter(warband=warband, reason=Reason.STARTING_TREASURY)
    return Shot(
        warband.owner,
        reverse("warband_finish", args=[warband.pk]),
        {},
        applied=lambda: sum(stored.values_list("amount", flat=True)) // purse,
    )


@race("warband_disband", "disbanded once")
def disband():
    warband = mustered_warband()
    return Shot(
        warband.owner,
        reverse("warband_disband", args=[warband.pk]),
        {"confirm": "on"},
        applied=lambda: int(Warband.objects.get(pk=warband.pk).status == "disbanded"),
        htmx=False,
    )


@race("warrior_dismiss:after_mustering")
def dismiss_after_mustering():
    warband = mustered_warband()
    champion = warband.warriors.get(warrior_type__key="champion")
    carried = champion.items.count()
    return Shot(
        warband.owner,
        reverse("warrior_dismiss", args=[champion.pk]),
        {},
        applied=lambda: _entries(warband, Reason.UNEQUIP) // carried,
        htmx=False,
    )


# --- The treasury page -----------------------------------------------------------------------


@race("treasury_move", "the source holds exactly the gold moved")
def move():
    warband = mustered_warband()
    source = _sacks(warband)[-1]  # 27 gc
    treasury.add_treasure(source, gold=5 - source.gold_crowns, reason=Reason.LOSS)
    return Shot(
        warband.owner,
        reverse("treasury_move", args=[warband.pk]),
        {"source": source.pk, "target": _new_sack(warband).pk, "gold": 5, "wyrdstone": 0},
        applied=lambda: _entries(warband, Reason.TRANSFER, amount=5),
    )


@race("treasury_buy", "the container paid from holds one backpack's price")
def buy_container():
    warband = mustered_warband()
    sack, chest = emptied_sack(warband)
    treasury.move_treasure(chest, sack, actor=warband.owner, gold=4)
    return Shot(
        warband.owner,
        reverse("treasury_buy", args=[warband.pk]),
        {"kind": "backpack", "pay_from": sack.pk},
        applied=lambda: warband.containers.real().filter(kind="backpack").count(),
    )


@race("treasury_sell", "a container is sold once")
def sell():
    warband = mustered_warband()
    sack, chest = emptied_sack(warband)
    return Shot(
        warband.owner,
        reverse("treasury_sell", args=[warband.pk]),
        {"container": sack.pk, "proceeds_to": chest.pk},
        applied=lambda: _entries(warband, Reason.SALE),
    )


@race("treasury_place", "a sack goes onto the cart once")
def place():
    warband = mustered_warband()
    sack, _ = emptied_sack(warband)
    cart = StorageContainer.objects.create(warband=warband, kind="cart_mule")
    return Shot(
        warband.owner,
        reverse("treasury_place", args=[warband.pk]),
        {"container": sack.pk, "parent": cart.pk},
        applied=lambda: cart.children.count(),
    )


@race("treasury_move_item", "an item moves once")
def move_item():
    warband = mustered_warband()
    chest = warband.containers.get(kind="treasure_chest")
    rope = treasury.add_item(
        _sacks(warband)[0], item=Item.objects.get(key="rope_and_hook"), reason=Reason.INCOME
    )
    return Shot(
        warband.owner,
        reverse("treasury_move_item", args=[warband.pk]),
        {"stored_item": rope.pk, "target": chest.pk},
        applied=lambda: _entries(warband, Reason.TRANSFER, amount=1),
    )


@race("treasury_equip", "the chosen item is given once, though another like it is stored")
def equip():
    warband = mustered_warband()
    champion = warband.warriors.get(warrior_type__key="champion")
    sack = _sacks(warband)[0]
    sword = Item.objects.get(key="sword")
    chosen = treasury.add_item(sack, item=sword, reason=Reason.INCOME)
    treasury.add_item(sack, item=sword, reason=Reason.INCOME)
    return Shot(
        warband.owner,
        reverse("treasury_equip", args=[warband.pk]),
        {"stored_item": chosen.pk, "warrior": champion.pk},
        applied=lambda: champion.items.filter(item=sword).count(),
    )


@race("treasury_store", "a warrior's item is stored once")
def store():
    warband = mustered_warband()
    champion = warband.warriors.get(warrior_type__key="champion")
    owned = champion.items.get(item__key="axe")
    return Shot(
        warband.owner,
        reverse("treasury_store", args=[warband.pk]),
        {"owned": owned.pk, "target": _sacks(warband)[0].pk},
        applied=lambda: StoredItem.objects.filter(
            container__warband=warband, item__key="axe"
        ).count(),
    )


@race("treasury_store_pile", "the pile's 5 gc are stored once")
def store_pile():
    warband = mustered_warband()
    sack = _sacks(warband)[-1]  # 27 gc
    treasury.move_treasure(sack, treasury.loose_pile(warband), actor=warband.owner, gold=5)
    return Shot(
        warband.owner,
        reverse("treasury_store_pile", args=[warband.pk]),
        {"target": sack.pk, "gold": 5},
        applied=lambda: _entries(warband, Reason.TRANSFER, container=sack, amount=5),
    )


NOT_RACED = {
    "warband_roster": "a page",
    "warband_muster": "a page",
    "warband_treasury": "a page",
    "warband_export": "a download",
    "warband_print": "a page",
    "warband_rename": "a name moves no value",
    "warrior_rename": "a name moves no value",
    "treasury_name": "a name moves no value (two names at once: test_container_names)",
    "vessel_place": "a vessel is placed, not moved between owners; no ledger",
    "house_rules": "settings that move no value; raced against a new warband in page_pairs",
}
