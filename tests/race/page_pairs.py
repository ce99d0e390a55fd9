"""Pairs of different pages on the same objects (``tests.race.harness``): a treasury step of
the post-battle sequence and the treasury page, the captor's sale and the owner's ransom, the
battle helper's end of a game and a player's side of its report, an organiser's house rules and
a player's new warband."""

from __future__ import annotations

from django.urls import reverse

from battles.captives import ransom
from battles.models import Game, Participant
from tests.factories import MembershipFactory
from tests.helpers import game_of, mustered_duel, warriors
from tests.race.captive_races import empty_chest, held
from tests.race.harness import FIRST_THEN_MAYBE_SECOND, ONE, Clash, Shot, pair
from tests.race.sequence_races import act_shot, entries, last_sack, reavers_at, unstore
from warbands import treasury
from warbands.models import (
    HouseRules,
    Item,
    LedgerEntry,
    StorageContainer,
    StoredItem,
    Warband,
    WarbandType,
)

Reason = LedgerEntry.Reason


def treasury_move(warband, source, target, gold: int) -> Shot:
    """The owner's move on the treasury page; applied: its ledger line into ``target``."""
    return Shot(
        warband.owner,
        reverse("treasury_move", args=[warband.pk]),
        {"source": source.pk, "target": target.pk, "gold": gold, "wyrdstone": 0},
        applied=lambda: LedgerEntry.objects.filter(
            container=target, reason=Reason.TRANSFER, step=None, amount=gold
        ).count(),
    )


# --- Step 9 against the treasury page -----------------------------------------------------------


@pair(
    "sequence_act:9:move",
    "treasury_move",
    note="the chest's 100 gc give 60 once: to the pile in step 9 or to a sack on the page",
)
def step_move_against_page_move():
    sequence, reavers = reavers_at(9)
    chest = reavers.containers.get(kind="treasure_chest")
    sack = StorageContainer.objects.create(warband=reavers, kind="large_sack")
    step = act_shot(
        sequence, reavers, "move",
        lambda: entries(reavers, container=chest, reason=Reason.TRANSFER, step=9, amount=-60),
        source=chest.pk, target="pile", gold=60,
    )  # fmt: skip
    return Clash(step, treasury_move(reavers, chest, sack, 60))


@pair(
    "sequence_act:9:sell_container",
    "treasury_move",
    note="an emptied sack is sold in step 9 while gold goes into it on the page",
)
def step_sale_against_page_move():
    sequence, reavers = reavers_at(9)
    sack = unstore(reavers, 27)
    step = act_shot(
        sequence, reavers, "sell_container",
        lambda: entries(reavers, reason=Reason.SALE, sold_container=sack),
        container=sack.pk, proceeds_to="pile",
    )  # fmt: skip
    chest = reavers.containers.get(kind="treasure_chest")
    return Clash(step, treasury_move(reavers, chest, sack, 5))


@pair(
    "sequence_act:8:sell",
    "treasury_store",
    note="the champion's axe is sold in step 8 or stored on the page, not both",
)
def step_sale_against_storing():
    sequence, reavers = reavers_at(8)
    axe = warriors(reavers)[1].items.get(item__key="axe")
    step = act_shot(
        sequence, reavers, "sell",
        lambda: entries(reavers, reason=Reason.SALE, kind="gold", step=8),
        what=f"owned:{axe.pk}", into="pile",
    )  # fmt: skip
    store = Shot(
        reavers.owner,
        reverse("treasury_store", args=[reavers.pk]),
        {"owned": axe.pk, "target": last_sack(reavers).pk},
        applied=lambda: StoredItem.objects.filter(
            container__warband=reavers, item__key="axe"
        ).count(),
    )
    return Clash(step, store)


@pair(
    "sequence_act:8:sell:stored",
    "treasury_move_item",
    allowed=ONE | {(1, 1)},
    note="a stored rope is sold in step 8 or moved to another container on the page; a sale "
    "that reads the rope after the move sells it from there (the sale names the rope, not its "
    "container); never moved once sold",
)
def step_sale_against_item_move():
    sequence, reavers = reavers_at(8)
    chest = reavers.containers.get(kind="treasure_chest")
    rope = treasury.add_item(
        chest, item=Item.objects.get(key="rope_and_hook"), reason=Reason.INCOME
    )
    sack = last_sack(reavers)
    step = act_shot(
        sequence, reavers, "sell",
        lambda: entries(reavers, reason=Reason.SALE, kind="item", step=8),
        what=f"stored:{rope.pk}", into="pile",
    )  # fmt: skip
    move = Shot(
        reavers.owner,
        reverse("treasury_move_item", args=[reavers.pk]),
        {"stored_item": rope.pk, "target": sack.pk},
        applied=lambda: LedgerEntry.objects.filter(
            container=sack, kind="item", reason=Reason.TRANSFER, amount=1
        ).count(),
    )
    sold = step.applied

    def problems() -> list[str]:
        kept = StoredItem.objects.filter(pk=rope.pk).exists()
        return ["the rope was sold and is still stored"] if kept and sold() else []

    return Clash(step, move, problems)


@pair(
    "sequence_act:9:unequip",
    "treasury_store",
    note="the champion's axe is stored once: in step 9 or on the page",
)
def step_storing_against_page_storing():
    sequence, reavers = reavers_at(9)
    axe = warriors(reavers)[1].items.get(item__key="axe")
    chest, sack = reavers.containers.get(kind="treasure_chest"), last_sack(reavers)
    step = act_shot(
        sequence, reavers, "unequip",
        lambda: LedgerEntry.objects.filter(container=sack, reason=Reason.UNEQUIP).count(),
        owned=axe.pk, target=sack.pk,
    )  # fmt: skip
    store = Shot(
        reavers.owner,
        reverse("treasury_store", args=[reavers.pk]),
        {"owned": axe.pk, "target": chest.pk},
        applied=lambda: LedgerEntry.objects.filter(container=chest, reason=Reason.UNEQUIP).count(),
    )
    return Clash(step, store)


# --- The captor and the owner of a captive ------------------------------------------------------


@pair("captive_fate", "captive_pay", note="the captor sells the hero the owner ransoms")
def sale_against_ransom():
    duel = mustered_duel()
    captive, scourge, reavers = held(duel), duel["scourge"], duel["reavers"]
    into = empty_chest(scourge)
    ransom.set_ransom(captive, actor=scourge.owner, ransom=40, into=into)
    sell = Shot(
        scourge.owner,
        reverse("captive_fate", args=[scourge.pk, captive.pk]),
        {"fate": "sold", "into": into.pk, "dice": ""},
        applied=lambda: LedgerEntry.objects.filter(container=into, reason=Reason.SALE).count(),
    )
    pay = Shot(
        reavers.owner,
        reverse("captive_pay", args=[reavers.pk, captive.pk]),
        {"amount": 40, "pay_from": reavers.containers.get(kind="treasure_chest").pk},
        applied=lambda: LedgerEntry.objects.filter(container=into, reason=Reason.INCOME).count(),
    )
    return Clash(sell, pay)


# --- The battle helper's end and a side of the report -------------------------------------------


@pair(
    "play_move:end",
    "battle_side",
    allowed=FIRST_THEN_MAYBE_SECOND,
    note="the game ends while a player saves his side: the side waits for the end's report "
    "(refused during the game) and may then be entered over it",
)
def end_against_side():
    duel = mustered_duel()
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = game_of(duel)
    captain = warriors(reavers)[0]
    end = Shot(
        scourge.owner,
        reverse("play_move", args=[battle.pk]),
        {"action": "end", "winner": str(scourge.pk)},
        applied=lambda: int(Game.objects.get(battle=battle).ended_at is not None),
    )
    side = Shot(
        reavers.owner,
        reverse("battle_side", args=[battle.pk, reavers.pk]),
        {f"o{captain.pk}-took_part": "on", "leader": str(captain.pk), "shards": "0"},
        applied=lambda: int(
            Participant.objects.get(battle=battle, warband=reavers).side_entered_at is not None
        ),
        htmx=False,
    )
    return Clash(end, side)


# --- The organiser's house rules and a player's new warband -------------------------------------


@pair(
    "house_rules",
    "warband_create",
    trials=3,
    note="the organiser leaves the Reiklanders out as a player starts mustering them: either "
    "the rules change and the warband is refused, or the warband is mustered and the rules, "
    "fixed by it, are refused; never a Reikland warband under rules that refuse it",
)
def house_rules_against_new_warband():
    organiser = MembershipFactory(is_organiser=True)
    campaign = organiser.campaign
    player = MembershipFactory(campaign=campaign).user
    reikland = WarbandType.objects.get(key="reikland")
    others = list(
        WarbandType.objects.filter(grade="1a").exclude(pk=reikland.pk).values_list("key", flat=True)
    )
    rules = Shot(
        organiser.user,
        reverse("house_rules", args=[campaign.pk]),
        {"list_keys": others, "sword_grades": ["1a"], "starting_gold": ""},
        applied=lambda: HouseRules.objects.filter(campaign=campaign).count(),
        htmx=False,
    )
    create = Shot(
        player,
        reverse("warband_create", args=[campaign.pk]),
        {"name": "Late Comers", "warband_type": reikland.pk},
        applied=lambda: Warband.objects.filter(campaign=campaign).count(),
        htmx=False,
    )
    return Clash(rules, create)
