"""Step 0: carried items at the end of the game, secured, captured, recovered or lost."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from battles.aftermath import carried_items
from battles.models import CarriedItemAtEnd
from battles.report import fortune, services
from battles.rules import ReportedResult
from campaign.models import CampaignEvent
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.helpers import every_side_entered
from warbands import treasury
from warbands.models import Item, LedgerEntry, StorageContainer, VesselItem

pytestmark = pytest.mark.django_db


def confirmed_battle(duel, *, scourge_routed=True, draw=False):
    reavers, scourge = duel["reavers"], duel["scourge"]
    if draw:
        results = [ReportedResult(reavers.pk, "draw"), ReportedResult(scourge.pk, "draw")]
    else:
        results = [
            ReportedResult(reavers.pk, "won"),
            ReportedResult(
                scourge.pk, "lost", routed=scourge_routed, rout_order=1 if scourge_routed else None
            ),
        ]
    battle = services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="Skirmish", results=results
    )
    every_side_entered(battle)
    services.respond(battle, actor=scourge.owner, agree=True)
    battle.refresh_from_db()
    return battle


def declare(
    battle, warband, states: dict[str, str] | None = None, *, securers=3, actor=None,
    override=False, **extra,
):  # fmt: skip
    """Declare every item of ``warband``: ``states`` by label, the rest controlled; by its
    owner unless ``actor`` says who."""
    states = states or {}
    declarations = []
    for item in battle.carried_items.filter(owner=warband).order_by("pk"):
        state = states.pop(item.label, "own") if item.label in states else "own"
        enemy = None
        if state.startswith("enemy:"):
            state, enemy = "enemy", int(state.split(":")[1])
        declarations.append(
            carried_items.Declaration(
                item.pk, state, enemy, exposed=extra.get("exposed") == item.label
            )
        )
    carried_items.declare_carried_items(
        battle, warband, actor=actor or warband.owner, declarations=declarations,
        securers=securers, pitters=extra.get("pitters", 0), override=override,
    )  # fmt: skip


def item_of(battle, warband, label="Treasure Chest") -> CarriedItemAtEnd:
    return battle.carried_items.filter(owner=warband, label=label).order_by("pk").first()


def test_the_items_on_the_table_are_the_top_containers_vessels_and_discoveries(duel):
    reavers = duel["reavers"]
    chest = reavers.containers.get(kind="treasure_chest")
    mule = StorageContainer.objects.create(warband=reavers, kind="pack_mule")
    treasury.place_container(chest, mule, actor=reavers.owner)
    sack = reavers.containers.filter(kind="large_sack").first()
    captain = reavers.warriors.get(is_leader=True)
    treasury.buy_container(reavers, "pouch", actor=reavers.owner, pay_from=sack, holder=captain)
    VesselItem.objects.create(warband=reavers, kind="dark_artefact", name="Eye of Zar")

    battle = confirmed_battle(duel)

    labels = sorted(battle.carried_items.filter(owner=reavers).values_list("label", flat=True))
    assert labels == ["Dark Artefact", "Large Sack 1", "Large Sack 2", "Large Sack 3",
                      "Large Sack 4", "Pack Animal (mule)"]  # fmt: skip
    mule_item = item_of(battle, reavers, "Pack Animal (mule)")
    # It carries the chest with 100 gc, but a mule moves normally with heavy loads.
    assert mule_item.is_mule and not mule_item.heavy


def test_a_cart_or_mule_with_a_heavy_load_is_not_heavy_but_a_pack_horse_is(duel):
    """MiM: the cart moves normally with heavy containers and the mule's movement is not halved,
    so neither is a heavy item for recovery or rout; the riding horse's movement is halved."""
    reavers = duel["reavers"]
    chest = reavers.containers.get(kind="treasure_chest")  # 100 gc: heavy
    sack = reavers.containers.filter(kind="large_sack", gold_crowns=50).first()  # heavy
    cart = StorageContainer.objects.create(warband=reavers, kind="cart_mule")
    horse = StorageContainer.objects.create(warband=reavers, kind="pack_horse")
    treasury.place_container(chest, cart, actor=reavers.owner)
    treasury.place_container(sack, horse, actor=reavers.owner)

    battle = confirmed_battle(duel)

    assert not item_of(battle, reavers, "Cart (mule)").heavy
    assert item_of(battle, reavers, "Pack Animal (horse)").heavy


def test_heaviness_is_computed_from_the_contents(duel):
    battle = confirmed_battle(duel)
    reavers = duel["reavers"]

    heavy = {i.container.gold_crowns: i.heavy for i in battle.carried_items.filter(owner=reavers)}

    assert heavy == {100: True, 50: True, 27: False}


def test_controlled_items_are_secured_and_an_enemy_captures_what_it_controls(duel):
    battle = confirmed_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    chest = scourge.containers.get(kind="treasure_chest")
    treasury.add_item(chest, item=Item.objects.get(key="elven_cloak"), reason="income")
    gold = chest.gold_crowns

    declare(battle, reavers)
    assert battle.carried_items.filter(outcome="pending").count() == 10  # waiting for Scourge
    declare(battle, scourge, {"Treasure Chest": f"enemy:{reavers.pk}"})

    chest.refresh_from_db()
    assert chest.warband == reavers
    assert (chest.gold_crowns, chest.stored_items.get().name) == (gold, "Elven cloak")
    outcomes = dict(battle.carried_items.values_list("pk", "outcome"))
    assert list(outcomes.values()).count("captured") == 1
    assert list(outcomes.values()).count("secured") == 9
    battle.refresh_from_db()
    assert battle.carried_items_done_at is not None
    assert treasury.ledger_mismatches() == []
    event = CampaignEvent.objects.get(kind="container")
    assert event.message == "Reavers took a treasure chest from Scourge."


def test_uncontrolled_items_are_recovered_in_turn_with_the_recovery_table(duel):
    battle = confirmed_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    declare(battle, reavers, {"Treasure Chest": "uncontrolled"})
    declare(battle, scourge, {"Treasure Chest": "uncontrolled"}, securers=1)

    order = carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    assert order == [reavers.pk, scourge.pk]  # the warband that did not rout chooses first

    rat_chest, our_chest = item_of(battle, scourge), item_of(battle, reavers)
    with pytest.raises(PermissionDenied, match="Reavers' turn"):
        carried_items.resolve_item(battle, rat_chest, actor=scourge.owner, dice=ScriptedDice([3]))
    # Reavers choose the rats' chest: 2 +1 heavy = 3: the remaining Reavers take it.
    carried_items.resolve_item(battle, rat_chest, actor=reavers.owner, dice=ScriptedDice([2]))
    # Scourge choose: a natural 1 gives the routing rats the Reavers' own chest.
    carried_items.resolve_item(battle, our_chest, actor=scourge.owner, dice=ScriptedDice([1]))

    rat_chest.refresh_from_db()
    our_chest.refresh_from_db()
    assert (rat_chest.outcome, rat_chest.secured_by) == ("captured", reavers)
    assert (our_chest.outcome, our_chest.secured_by) == ("captured", scourge)
    assert rat_chest.recovery == "D6 2 +1 heavy = 3"
    assert rat_chest.container.warband == reavers and our_chest.container.warband == scourge
    battle.refresh_from_db()
    assert battle.carried_items_done_at is not None
    assert treasury.ledger_mismatches() == []
    with pytest.raises(RuleViolation, match="not waiting"):
        carried_items.resolve_item(battle, rat_chest, actor=reavers.owner, dice=ScriptedDice([6]))


def test_an_item_nobody_can_secure_is_lost_with_its_contents(duel):
    battle = confirmed_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    declare(battle, reavers, securers=0)
    declare(battle, scourge, {"Treasure Chest": "uncontrolled"}, securers=0)
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    chest = item_of(battle, scourge)
    gold = chest.container.gold_crowns

    carried_items.resolve_item(battle, chest, actor=reavers.owner, dice=ScriptedDice([4]))

    chest.refresh_from_db()
    assert chest.outcome == "lost"
    assert chest.container.status == "lost"
    assert chest.container.gold_crowns == 0
    assert LedgerEntry.objects.filter(reason="loss", amount=-gold).exists()
    assert treasury.ledger_mismatches() == []


def test_a_heavy_item_of_routers_caught_in_the_open_becomes_uncontrolled(duel):
    battle = confirmed_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    declare(battle, reavers)
    sack = battle.carried_items.filter(
        owner=scourge, heavy=True, label__startswith="Large Sack"
    ).first()
    assert sack is not None
    declarations = [
        carried_items.Declaration(i.pk, "own", exposed=i.pk == sack.pk)
        for i in battle.carried_items.filter(owner=scourge)
    ]
    carried_items.declare_carried_items(
        battle, scourge, actor=scourge.owner, declarations=declarations, securers=2
    )

    sack.refresh_from_db()
    assert sack.is_uncontrolled and sack.outcome == "pending"


def test_only_routers_heavy_items_can_be_caught_in_the_open(duel):
    battle = confirmed_battle(duel)
    reavers = duel["reavers"]
    chest = item_of(battle, reavers)

    with pytest.raises(RuleViolation, match="Only a heavy item held by a routing warband"):
        carried_items.declare_carried_items(
            battle, reavers, actor=reavers.owner,
            declarations=[carried_items.Declaration(i.pk, "own", exposed=i.pk == chest.pk)
                          for i in battle.carried_items.filter(owner=reavers)],
            securers=3,
        )  # fmt: skip
    assert not battle.participants.get(warband=reavers).carried_items_declared


def test_each_warband_declares_only_its_own_items(duel):
    battle = confirmed_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]

    with pytest.raises(PermissionDenied):
        carried_items.declare_carried_items(
            battle, reavers, actor=scourge.owner, declarations=[], securers=1
        )
    with pytest.raises(RuleViolation, match="each of the warband's carried items"):
        carried_items.declare_carried_items(
            battle, reavers, actor=reavers.owner, declarations=[], securers=1
        )


def test_an_uncontrolled_warmount_goes_home(duel):
    reavers = duel["reavers"]
    StorageContainer.objects.create(warband=reavers, kind="warmount")
    battle = confirmed_battle(duel)

    declare(battle, reavers, {"Warmount": "uncontrolled"})
    declare(battle, duel["scourge"])

    mount = item_of(battle, reavers, "Warmount")
    assert (mount.outcome, mount.secured_by) == ("home", reavers)


def test_a_dark_artefact_changes_hands_like_a_container(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    artefact = VesselItem.objects.create(warband=scourge, kind="dark_artefact", name="Eye")
    battle = confirmed_battle(duel)

    declare(battle, reavers)
    declare(battle, scourge, {"Dark Artefact": f"enemy:{reavers.pk}"})

    artefact.refresh_from_db()
    assert artefact.warband == reavers


def test_a_campaign_without_carried_items_skips_step_zero(duel):
    duel["campaign"].mim_carried_items = False
    duel["campaign"].save()

    battle = confirmed_battle(duel)

    assert battle.carried_items_done_at is not None
    assert not battle.carried_items.exists()


def test_a_discovery_secured_goes_to_the_unstored_treasure_of_who_secures_it(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = services.report_battle(
        actor=reavers.owner,
        campaign=duel["campaign"],
        scenario="Skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost", True, 1)],
        random_fortune=True,
    )
    fortune.roll_fortune_markers(battle, actor=scourge.owner, dice=ScriptedDice([1, 3, 4]))
    fortune.test_discovery(
        battle, scourge, actor=scourge.owner, dice=ScriptedDice([5]), result="Silver goblet"
    )
    every_side_entered(battle)
    services.respond(battle, actor=scourge.owner, agree=True)

    declare(battle, reavers)
    declare(battle, scourge, {"Random fortune: Silver goblet": f"enemy:{reavers.pk}"})

    pile = treasury.loose_pile(reavers)
    assert list(pile.stored_items.values_list("name", flat=True)) == ["Silver goblet"]
    assert treasury.ledger_mismatches() == []


# --- An organiser's declaration for a player waits for the player --------------------------


def test_an_organisers_declaration_that_gives_a_chest_away_waits_for_its_player(duel):
    battle = confirmed_battle(duel)
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    chest = scourge.containers.get(kind="treasure_chest")
    gold = chest.gold_crowns
    declare(battle, reavers)

    declare(battle, scourge, {"Treasure Chest": f"enemy:{reavers.pk}"}, actor=organiser)

    chest.refresh_from_db()
    assert (chest.warband, chest.gold_crowns) == (scourge, gold)  # nothing moved
    participant = battle.participants.get(warband=scourge)
    assert (participant.carried_items_declared, participant.declaration_proposed_by) == (
        False,
        organiser,
    )
    assert not battle.carried_items.exclude(outcome="pending").exists()
    with pytest.raises(RuleViolation, match="declare its carried items first"):
        carried_items.start_recovery(battle, actor=organiser, dice=ScriptedDice([]))

    declare(battle, scourge, {"Treasure Chest": f"enemy:{reavers.pk}"})  # its player agrees

    chest.refresh_from_db()
    assert chest.warband == reavers
    participant.refresh_from_db()
    assert (participant.carried_items_declared, participant.declaration_proposed_by) == (True, None)


def test_the_player_disputes_an_organisers_declaration_by_declaring_otherwise(duel):
    battle = confirmed_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    declare(battle, reavers)
    declare(battle, scourge, {"Treasure Chest": f"enemy:{reavers.pk}"}, actor=duel["organiser"])

    declare(battle, scourge)  # every item with its own warriors

    chest = item_of(battle, scourge)
    assert (chest.outcome, chest.container.warband) == ("secured", scourge)
    assert not CampaignEvent.objects.filter(kind="container").exists()


def test_an_organiser_overrides_the_wait_and_the_feed_names_him(duel):
    battle = confirmed_battle(duel)
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    declare(battle, reavers)

    declare(
        battle, scourge, {"Treasure Chest": f"enemy:{reavers.pk}"}, actor=organiser,
        override=True,
    )  # fmt: skip

    assert item_of(battle, scourge).container.warband == reavers
    assert CampaignEvent.objects.filter(
        message=f"{organiser.username}, organiser, declared where Scourge's carried items ended "
        f"{battle} without waiting for its player (Treasure Chest not kept)."
    ).exists()


def test_an_organisers_declaration_that_keeps_everything_applies_at_once(duel):
    battle = confirmed_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    declare(battle, reavers, {"Treasure Chest": "uncontrolled"})

    declare(battle, scourge, actor=duel["organiser"])

    participant = battle.participants.get(warband=scourge)
    assert participant.carried_items_declared and participant.declaration_proposed_by is None
    assert item_of(battle, scourge).outcome == "secured"
    assert not CampaignEvent.objects.filter(message__contains="without waiting").exists()


HTMX = {"HX-Request": "true"}


def test_the_player_sees_the_proposal_and_confirms_it_on_the_declaration_page(client, duel):
    battle = confirmed_battle(duel)
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    declare(battle, reavers)
    chest = item_of(battle, scourge)
    url = reverse("battle_declare", args=[battle.pk, scourge.pk])
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert 'name="override"' in page
    data = {"securers": 2, "pitters": 0}
    for item in battle.carried_items.filter(owner=scourge):
        data[f"i{item.pk}-state"] = f"enemy-{reavers.pk}" if item.pk == chest.pk else "own"
    assert client.post(url, data).status_code == 302

    client.force_login(scourge.owner)
    board = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert f"{organiser.username} (organiser) proposed where the carried items of Scourge" in board
    assert "Confirm or change the declaration" in board
    page = client.get(url).content.decode()
    assert f"{organiser.username} (organiser) proposed this declaration for you" in page
    assert f'<option value="enemy-{reavers.pk}" selected>' in page
    assert 'name="override"' not in page
    chest.container.refresh_from_db()
    assert chest.container.warband == scourge

    assert client.post(url, {**data, "override": "on"}).status_code == 302

    chest.refresh_from_db()
    assert (chest.outcome, chest.container.warband) == ("captured", reavers)
    assert not CampaignEvent.objects.filter(message__contains="without waiting").exists()


def test_containers_alike_are_told_apart_and_only_their_owner_sees_their_names(client, duel):
    """Two sacks never read alike on the carried-items form: everybody sees kind and number;
    the owner sees the names he gave them, which the organiser (who may not see inside)
    never does."""
    reavers = duel["reavers"]
    first, second, *_ = reavers.containers.filter(kind="large_sack").order_by("pk")
    treasury.name_container(second, "Tithes", actor=reavers.owner)
    loot = StorageContainer.objects.create(warband=reavers, kind="large_sack", label="Loot")
    battle = confirmed_battle(duel)

    labels = dict(battle.carried_items.filter(owner=reavers).values_list("container", "label"))
    sacks = [labels[c.pk] for c in (first, second, loot)]
    assert sacks == ["Large Sack 1", "Large Sack 2", "Large Sack 5"]  # the named loot: the next
    url = reverse("battle_declare", args=[battle.pk, reavers.pk])
    client.force_login(reavers.owner)
    page = client.get(url).content.decode()
    assert 'Large Sack “Tithes” <small class="muted">(Large Sack 2 to the other players)' in page
    assert 'Large Sack “Loot” <small class="muted">(Large Sack 5 to the other players)' in page
    client.force_login(duel["organiser"])
    page = client.get(url).content.decode()
    assert "Tithes" not in page and "Loot" not in page
    assert page.count("Large Sack 2") == 2  # its row and its select's label
