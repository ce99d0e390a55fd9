"""A league of fan lists end to end in Chromium: the organiser chooses house rules (Grade 1a
and 1b, and one Grade 1c list by name), a player musters a Norse Explorers warband (Grade 1b)
and another a Black Dwarfs warband (Grade 1c) through the pages, and after their battle each
plays his whole post-battle sequence, step 0 to 10, with dice typed in."""

import re

import pytest
from playwright.sync_api import expect

from battles.aftermath import carried_items
from battles.models import PostBattleSequence
from battles.report import services
from battles.rules import ReportedResult
from tests.browser.flows import log_in, page_width
from tests.factories import MembershipFactory
from tests.helpers import every_side_entered
from warbands import treasury
from warbands.models import HouseRules, Warband

#: Typed dice: never a double, so exploration finds shards and no location (those have their
#: own browser tests); as many as each roll takes.
FACES = [1, 2, 4, 5, 6, 3]


def set_house_rules(page, live_server, campaign) -> None:
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/house-rules/")
    page.get_by_label("Grade 1c").first.uncheck()
    page.get_by_text("Single warband lists").click()
    page.get_by_label("Black Dwarfs").check()
    page.get_by_role("button", name="Save the house rules").click()
    summary = page.get_by_test_id("house-rules-summary")
    expect(summary).to_contain_text("Every Grade 1a and 1b list, and Black Dwarfs.")


def muster(page, live_server, campaign, list_name: str, name: str, hires) -> None:
    """Choose the list on the new-warband page, hire ``hires`` ((type name, models)), buy
    large sacks until the purse fits, and finish mustering."""
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/warbands/new/")
    page.get_by_label(list_name).check()
    page.get_by_label("Warband name").fill(name)
    page.locator("main").get_by_role("button", name="Start mustering").click()
    expect(page.get_by_role("heading", name=f"Muster {name}")).to_be_visible()
    gold = page.get_by_test_id("gold-left")
    for type_name, models in hires:
        row = page.locator("form.hire-row", has=page.get_by_text(type_name, exact=True)).first
        before = gold.inner_text()
        if models > 1:
            row.get_by_label(re.compile("How many")).fill(str(models))
        row.get_by_role("button", name="Hire").click()
        expect(gold).not_to_have_text(before)
    finish = page.get_by_role("button", name="Finish mustering")
    for _ in range(6):
        if finish.is_enabled():
            break
        before = gold.inner_text()
        page.get_by_label("Container").select_option("large_sack")
        page.locator("form", has=page.get_by_label("Container")).get_by_role(
            "button", name="Buy"
        ).click()
        expect(gold).not_to_have_text(before)
    page.on("dialog", lambda dialog: dialog.accept())
    finish.click()
    expect(page.locator("main")).to_contain_text(f"{name} is ready for battle.")


def play_the_sequence(page, width: int) -> None:
    """Steps 0 to 10: every open task rolled with typed dice (or its first answer chosen),
    the experience awarded, and on to the next step; the page never scrolls sideways."""
    page.get_by_role("link", name=re.compile("play it|post-battle sequence", re.I)).first.click()
    heading = page.locator("#step-heading")
    for step in range(0, 11):
        expect(heading).to_have_text(re.compile(rf"Step {step}:"))
        if step == 2:
            page.get_by_role("button", name="Award the experience").click()
            expect(page.get_by_role("button", name="Award the experience")).to_have_count(0)
        while (task := page.locator("#step-panel li.task:not(.task-done)")).count():
            task = task.first
            dice = task.locator("input[name=dice]")
            if dice.count():
                count = int(dice.get_attribute("data-dice") or 0)
                dice.fill(" ".join(str(face) for face in FACES[:count]))
                task.get_by_role("button", name="Roll").click()
            else:
                task.get_by_role("radio").first.check()
                task.get_by_role("button", name="Go on").click()
            expect(page.locator(f"#{task.get_attribute('id')}.task-done")).to_be_visible()
        if step == 3:  # the shards found go into the first container offered
            store = page.locator("#step-panel form:has(input[name=action][value=store])")
            while store.count():
                store.first.get_by_role("button", name="Store").click()
                # until htmx has swapped the answer in: the old form must not be counted
                busy = page.locator(".htmx-request, .htmx-swapping, .htmx-settling")
                expect(busy).to_have_count(0)
        wide = page_width(page)
        assert wide <= width, f"step {step} scrolls sideways: {wide} px"
        if step < 10:
            page.get_by_role("button", name=f"Continue to step {step + 1}").click()
        else:
            page.get_by_role("button", name="Finish the sequence").click()
    expect(heading).to_have_text(re.compile("The sequence is complete"))


@pytest.mark.django_db(transaction=True)
def test_a_grade_1b_and_a_grade_1c_warband_muster_fight_and_play_their_sequences(
    live_server, chromium
):
    organiser = MembershipFactory(is_organiser=True, campaign__name="The Burning Plains")
    campaign = organiser.campaign
    alice = MembershipFactory(campaign=campaign).user
    bob = MembershipFactory(campaign=campaign).user

    page = log_in(chromium.new_context(viewport={"width": 1280, "height": 900}), live_server,
                  organiser.user)  # fmt: skip
    set_house_rules(page, live_server, campaign)
    assert HouseRules.objects.get(campaign=campaign).list_keys == ["black_dwarfs"]

    norse_page = log_in(chromium.new_context(viewport={"width": 360, "height": 800}),
                        live_server, alice)  # fmt: skip
    norse_page.goto(f"{live_server.url}/campaigns/{campaign.pk}/warbands/new/")
    expect(norse_page.get_by_test_id("house-rules-note")).to_contain_text("Black Dwarfs")
    expect(norse_page.get_by_label("Sons of Hashut")).to_be_disabled()  # Grade 1c, not named
    muster(norse_page, live_server, campaign, "Norse Explorers", "Sons of Ymir",
           [("Jarl", 1), ("Wulfen", 1), ("Wolf", 2), ("Hunter", 2)])  # fmt: skip
    dwarf_page = log_in(chromium.new_context(viewport={"width": 1280, "height": 900}),
                        live_server, bob)  # fmt: skip
    muster(dwarf_page, live_server, campaign, "Black Dwarfs", "Sons of Zharr",
           [("Sorcerer", 1), ("Gaoler", 1), ("Chaos Dwarf", 2), ("Informer", 3)])  # fmt: skip
    norse = Warband.objects.get(name="Sons of Ymir")
    dwarfs = Warband.objects.get(name="Sons of Zharr")
    assert norse.status == dwarfs.status == Warband.Status.ACTIVE
    assert not treasury.conservation_problems()

    battle = services.report_battle(
        actor=alice, campaign=campaign, scenario="Skirmish",
        results=[ReportedResult(norse.pk, "won"), ReportedResult(dwarfs.pk, "lost", True, 1)],
    )  # fmt: skip
    every_side_entered(battle)
    services.respond(battle, actor=bob, agree=True)
    for warband in (norse, dwarfs):
        carried_items.declare_carried_items(
            battle, warband, actor=warband.owner, securers=0,
            declarations=[carried_items.Declaration(i.pk, "own")
                          for i in battle.carried_items.filter(owner=warband)],
        )  # fmt: skip

    norse_page.goto(f"{live_server.url}/")
    play_the_sequence(norse_page, 360)
    dwarf_page.goto(f"{live_server.url}/")
    play_the_sequence(dwarf_page, 1280)
    done = PostBattleSequence.objects.filter(participant__battle=battle)
    assert [s.current_step for s in done] == [PostBattleSequence.COMPLETE] * 2
    assert not treasury.conservation_problems()
