"""A whole post-battle sequence in Chromium, steps 0 to 10, for both warbands of a battle,
with physical dice typed in; each player's browser never shows the other side's treasury."""

import pytest
from playwright.sync_api import expect

from battles.aftermath import carried_items
from battles.report import services, sides
from battles.rules import ReportedResult
from tests.browser.flows import form, go_on, heading, log_in, roll, sequence_link
from tests.factories import SECRET_ITEM, CampaignFactory, hide_secrets, mustered_warband
from tests.helpers import every_side_entered
from warbands import treasury
from warbands.models import HiredSword, LedgerEntry, StorageContainer


@pytest.mark.django_db(transaction=True)
def test_both_warbands_play_their_whole_sequence(live_server, chromium):
    campaign = CampaignFactory(name="Siege of Sigmarhafen")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    hide_secrets(scourge)  # 37 gc, 7 wyrdstone and an Elven cloak in the chest
    scourge_gold = treasury.totals(scourge)["gold"]
    battle = services.report_battle(
        actor=reavers.owner, campaign=campaign, scenario="Street Fight",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost", True, 1)],
    )  # fmt: skip
    brandt = scourge.warriors.get(name="Brandt")
    guards = scourge.warriors.get(name="Stadtwache")
    wounded = reavers.warriors.get(name="Brandt")
    captain = reavers.warriors.get(name="Captain Adler")
    # +1 survived and +1 winning leader: he reaches the thick box at 20.
    captain.experience = 18
    captain.save(update_fields=["experience"])
    every_side_entered(
        battle,
        [sides.Outcome(w.pk, out_of_action=True) for w in (brandt, wounded)]
        + [sides.Outcome(guards.pk, models_out_of_action=2)],
    )
    services.respond(battle, actor=scourge.owner, agree=True)
    for warband in (reavers, scourge):
        carried_items.declare_carried_items(
            battle, warband, actor=warband.owner, securers=2,
            declarations=[carried_items.Declaration(i.pk, "own")
                          for i in battle.carried_items.filter(owner=warband)],
        )  # fmt: skip
    chest = reavers.containers.get(kind="treasure_chest")
    thin_sack = reavers.containers.get(kind="large_sack", gold_crowns=27)

    alice = log_in(chromium.new_context(), live_server, reavers.owner)
    alice.on("dialog", lambda dialog: dialog.accept())
    bob = log_in(chromium.new_context(), live_server, scourge.owner)
    bob.on("dialog", lambda dialog: dialog.accept())

    # --- Alice: the Reavers won; Brandt fell -----------------------------------------------
    sequence_link(alice).click()
    heading(alice, "Step 0: Carried items")
    go_on(alice, 1)
    roll(alice, "Brandt's serious injury", "2 6")  # 26: chest wound
    expect(alice.locator("li.task-done")).to_contain_text("Chest wound")
    go_on(alice, 2)
    alice.get_by_role("button", name="Award the experience").click()
    which = ("Captain Adler: advance 6, which one (D6)", "2")  # its own field: 2, +1 Strength
    roll(alice, "Captain Adler's advance (20 experience)", "3 3", further=which)  # 6
    expect(alice.locator("li.task-done", has_text="advance")).to_contain_text("+1 Strength")
    go_on(alice, 3)
    roll(alice, "Exploration: 2 dice", "3 3")  # 6: 2 shards; a double 3, the Corpse
    roll(alice, "Corpse (3-3)", "5")  # a sword on the body
    store = form(alice, "store")
    store.locator("select[name=target]").select_option(str(chest.pk))
    store.get_by_role("button", name="Store").click()
    expect(alice.locator(".unstored")).to_have_count(0)
    go_on(alice, 4)
    sell = form(alice, "sell")
    sell.get_by_label("Shards to sell").fill("1")
    sell.locator("select[name=into]").select_option(str(thin_sack.pk))
    sell.get_by_role("button", name="Sell").click()  # 40 gc do not fit in a 27 gc sack
    expect(alice.get_by_role("alert")).to_contain_text("Only 50 gc fit in the Large Sack")
    sell = form(alice, "sell")
    sell.get_by_label("Shards to sell").fill("1")
    sell.locator("select[name=into]").select_option("pile")
    sell.get_by_role("button", name="Sell").click()
    expect(alice.locator(".unstored strong")).to_have_text("40 gc")
    go_on(alice, 5)
    go_on(alice, 6)  # no veterans bought
    roll(alice, "Captain Adler's rarity roll", "6 6")
    buy = form(alice, "buy_rare")
    expect(buy).to_contain_text("Captain Adler (12) buys")
    buy.locator("select[name=goods]").select_option("item:lucky_charm")
    buy.locator("select[name=to]").select_option(label="Captain Adler")
    buy.locator("select[name=pay_from]").select_option(str(chest.pk))
    buy.get_by_role("button", name="Buy").click()
    expect(alice.locator(".step-number").first).to_be_visible()
    expect(form(alice, "buy_rare")).to_have_count(0)
    go_on(alice, 7)
    # A hired sword of no catalogue (the page's last form): name, fee and upkeep typed.
    hire = form(alice, "hire_sword").filter(has=alice.locator("input[name=hire_fee]"))
    hire.get_by_label("Name").fill("Aenur")
    hire.get_by_label("Hire fee (gc)").fill("30")
    hire.get_by_label("Upkeep (gc)").fill("15")
    hire.locator("select[name=pay_from]").select_option(str(chest.pk))
    hire.get_by_role("button", name="Hire").click()
    expect(alice.locator("#step-panel")).to_contain_text("With the warband: Aenur")
    go_on(alice, 8)
    recruit = form(alice, "hire")
    recruit.locator("select[name=warrior_type]").select_option(label="Youngblood, 15 gc")
    recruit.get_by_label("Name").fill("Kurt")
    recruit.locator("select[name=pay_from]").select_option(str(chest.pk))
    recruit.get_by_role("button", name="Hire").click()
    expect(alice.locator("#step-panel")).to_contain_text("Kurt")
    go_on(alice, 9)
    buy = form(alice, "buy_container")
    buy.locator("select[name=kind]").select_option("large_sack")
    buy.locator("select[name=pay_from]").select_option(str(chest.pk))
    buy.get_by_role("button", name="Buy").click()
    expect(alice.locator("#step-panel")).to_contain_text("Large Sack 5 (empty)")  # numbered
    new_sack = StorageContainer.objects.filter(warband=reavers, kind="large_sack").latest("pk")
    store = form(alice, "store")
    store.locator("select[name=target]").select_option(str(new_sack.pk))
    store.get_by_role("button", name="Store").click()
    expect(alice.locator(".unstored")).to_have_count(0)
    go_on(alice, 10)
    expect(alice.locator("#step-panel")).not_to_contain_text("Finishing loses")
    go_on(alice, 11)

    # --- Bob: the Scourge lost; Brandt and two Stadtwache fell -------------------------------
    sequence_link(bob).click()
    go_on(bob, 1)
    roll(bob, "Brandt's serious injury", "1 3")  # 13: dead
    roll(bob, "Stadtwache (2 out of action)", "1 4")  # one lost, one back on his feet
    go_on(bob, 2)
    bob.get_by_role("button", name="Award the experience").click()
    expect(bob.locator("#step-panel")).to_contain_text("No advance this time")
    go_on(bob, 3)
    roll(bob, "Exploration: 1 die", "4")  # 1 shard, not stored
    for step in range(4, 11):
        go_on(bob, step)
    expect(bob.get_by_role("alert")).to_contain_text("Finishing loses what has no container")
    go_on(bob, 11)

    # --- Rosters, treasuries and ledgers ----------------------------------------------------
    reavers.refresh_from_db()
    strength, toughness = captain.S, wounded.T
    captain.refresh_from_db()
    wounded.refresh_from_db()
    assert captain.experience == 20 and captain.S - strength == 1
    assert captain.items.filter(item__key="lucky_charm").exists()
    assert toughness - wounded.T == 1 and wounded.injuries.get().name == "Chest wound"
    assert reavers.warriors.get(name="Kurt").warrior_type.key == "youngblood"
    assert HiredSword.objects.get(warband=reavers).name == "Aenur"
    assert treasury.totals(reavers) == {"gold": 277 + 40 - 10 - 30 - 15 - 2, "wyrdstone": 1,
                                        "items": 1}  # fmt: skip
    assert chest.stored_items.get().item.key == "sword"
    assert treasury.loose_pile(reavers).is_empty
    guards.refresh_from_db()
    brandt.refresh_from_db()
    assert guards.group_size == 2 and brandt.status == "dead" and not brandt.items.exists()
    assert treasury.totals(scourge) == {"gold": scourge_gold, "wyrdstone": 7, "items": 1}
    assert LedgerEntry.objects.filter(warband=scourge, reason="loss", step=10).get().amount == -1
    found = LedgerEntry.objects.filter(warband=reavers, battle=battle, step=3)
    assert sorted(found.values_list("reason", "kind", "amount")) == [
        ("income", "item", 1), ("income", "wyrdstone", 2),
        ("transfer", "item", -1), ("transfer", "item", 1),
        ("transfer", "wyrdstone", -2), ("transfer", "wyrdstone", 2),
    ]  # fmt: skip
    assert not treasury.ledger_mismatches()

    # --- Neither browser shows the other's treasure -----------------------------------------
    battle_url = f"{live_server.url}/battles/{battle.pk}/"
    alice.goto(battle_url)
    expect(alice.locator("table.dice-log")).to_contain_text("Corpse")
    for url in (battle_url, f"{live_server.url}/warbands/{scourge.pk}/",
                f"{live_server.url}/campaigns/{campaign.pk}/"):  # fmt: skip
        alice.goto(url)
        text = alice.locator("body").inner_text()
        assert SECRET_ITEM not in text and str(scourge_gold) not in text
    bob.goto(battle_url)
    text = bob.locator("body").inner_text()
    assert "Reavers: A roll in a secret step" in text
    assert "Corpse" not in text and "Reavers: Exploration" not in text and "40 gc" not in text
    bob.goto(f"{live_server.url}/warbands/{reavers.pk}/")
    assert str(treasury.totals(reavers)["gold"]) not in bob.locator("body").inner_text()
    sequence = battle.participants.get(warband=reavers).sequence
    response = bob.goto(f"{live_server.url}/sequences/{sequence.pk}/")
    assert response.status == 403
