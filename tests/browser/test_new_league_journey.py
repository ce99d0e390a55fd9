"""A new league from nothing to a finished post-battle sequence, only through the pages: an
organiser signs up and starts a campaign, two players join from his link on their phones,
muster a Dwarf and an Orc warband (a hired sword each), play a short game in the battle
helper, confirm their sides and walk their whole sequences. Following the pages' own advice
must never meet a refusal (no answer of 400 or more, no error in the console), and no phone
page may scroll sideways (measured once its layout settles, as the phone sweep does)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from battles.models import Battle, Fighter, PostBattleSequence
from tests.browser.flows import (
    finish_muster,
    form,
    go_on,
    heading,
    organiser_starts_a_campaign,
    roll,
    sequence_link,
    settled,
    shows,
    sign_up_from,
    start_muster,
    taken_out_by,
)
from warbands import treasury
from warbands.models import Warband, Warrior

PHONE = {"width": 360, "height": 800}


class Watch:
    """Everything that went wrong on the pages it watches, and the phone pages too wide."""

    def __init__(self):
        self.problems: list[str] = []

    def page(self, page):
        page.on("response", self._response)
        page.on("console", lambda m: m.type == "error" and self.problems.append(m.text))
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        return page

    def _response(self, response):
        if response.status >= 400:
            self.problems.append(f"{response.status} {response.request.method} {response.url}")

    def fits(self, page):
        """A phone page never scrolls sideways."""
        settled(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            step = page.locator("#step-heading")
            where = page.url + (" " + step.inner_text() if step.count() else "")
            self.problems.append(f"{width} px wide: {where}")


def hire(page, who, *, name="", many=None, section="Hire"):
    """Hire from the row titled ``who`` of the muster board's ``section``."""
    board = page.locator("section", has=page.get_by_role("heading", name=section, exact=True))
    title = page.locator("strong", has_text=re.compile(f"^{re.escape(who)}$"))
    row = board.locator("form.hire-row").filter(has=title)
    if name:
        row.get_by_placeholder("Name (optional)").fill(name)
    if many:
        row.get_by_label(f"How many {who}").fill(str(many))
    gold = page.get_by_test_id("gold-left").inner_text()
    row.get_by_role("button", name="Hire").click()
    expect(page.get_by_test_id("gold-left")).not_to_have_text(gold)


def muster(page, watch, name, warband_list, hires, sword):
    """From the campaign's page: muster the warband, hire a hired sword, finish."""
    start_muster(page, name, warband_list, link="Muster a warband")
    watch.fits(page)
    for who, warrior, many in hires:
        hire(page, who, name=warrior, many=many)
    page.get_by_role("button", name="Choose a hired sword").click()  # the catalogue's page
    watch.fits(page)
    hire(page, sword, section="Hired swords")  # and back to the board
    expect(page.get_by_role("heading", name=f"Muster {name}")).to_be_visible()
    expect(page.locator("ul.problems")).to_have_count(0)
    watch.fits(page)
    finish_muster(page, name)
    watch.fits(page)


def award(page):
    page.get_by_role("button", name="Award the experience").click()
    expect(page.get_by_role("button", name="Award the experience")).to_have_count(0)


def store(page):
    """Store what the step found in the first container offered (the treasure chest)."""
    form(page, "store").get_by_role("button", name="Store").click()
    expect(page.locator(".unstored")).to_have_count(0)


def open_sequence(page, watch):
    """The dashboard's link to the player's post-battle sequence."""
    page.get_by_role("link", name="Dashboard").first.click()
    watch.fits(page)
    sequence_link(page).click()
    expect(page.locator("#step-heading")).to_be_visible()
    watch.fits(page)


@pytest.mark.django_db(transaction=True)
def the_rest_paying_upkeep(page, watch) -> None:
    """Steps 4 to 10 with nothing to do but pay the Ogre's 30 gc in step 7, then finish."""
    for step in range(4, 8):
        go_on(page, step)
        watch.fits(page)
    page.get_by_role("button", name="Pay 30 gc").click()
    expect(page.get_by_role("button", name="Pay 30 gc")).to_have_count(0)
    for step in range(8, 11):
        go_on(page, step)
        watch.fits(page)
    go_on(page, 11)


def test_a_new_league_from_sign_up_to_a_finished_sequence(live_server, chromium):
    watch = Watch()
    desk = chromium.new_context(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    desk.set_default_timeout(10_000)
    greta = watch.page(desk.new_page())
    shown = organiser_starts_a_campaign(
        greta, live_server.url + "/", "greta", "Siege of Sigmarhafen"
    )
    greta.get_by_test_id("copy-join-link").click()
    expect(greta.locator("[data-copy-said='join-link']")).to_have_text("Copied.")
    join_link = greta.evaluate("navigator.clipboard.readText()")
    assert join_link == shown

    phones = []
    for username in ("hans", "urk"):
        context = chromium.new_context(viewport=PHONE)
        context.set_default_timeout(10_000)
        page = watch.page(context.new_page())
        sign_up_from(page, join_link, username)
        expect(page.get_by_role("heading", name="Siege of Sigmarhafen")).to_be_visible()
        watch.fits(page)
        phones.append(page)
    hans, urk = phones

    muster(hans, watch, "Karak Delvers", "Dwarf Treasure Hunters",
           [("Dwarf Noble", "Thorgrim", None), ("Dwarf Clansman", "Clansmen", 5),
            ("Dwarf Thunderer", "Thunderers", 2)], "Ogre Bodyguard")  # fmt: skip
    muster(urk, watch, "Red Fangs", "Orc Mob",
           [("Orc Boss", "Gorbag", None), ("Orc Big 'Un", "Skarsnik", None),
            ("Orc Boy", "Ladz", 5), ("Goblin Warrior", "Gitz", 5)], "Ogre Bodyguard")  # fmt: skip
    dwarfs = Warband.objects.get(name="Karak Delvers")
    orcs = Warband.objects.get(name="Red Fangs")
    swords = Warrior.objects.filter(warband__in=[dwarfs, orcs], hired_sword__isnull=False)
    assert swords.count() == 2

    # --- The game: the Dwarfs first; their Noble takes out one of the Ladz --------------------
    for page in (hans, urk):
        page.on("dialog", lambda dialog: dialog.accept())
    hans.get_by_role("link", name="Dashboard").first.click()
    watch.fits(hans)
    hans.locator("main").get_by_role("link", name="Siege of Sigmarhafen").first.click()
    watch.fits(hans)
    hans.get_by_role("link", name="Play a battle with the helper").click()
    watch.fits(hans)
    hans.get_by_label("Takes the second turn").select_option(str(orcs.pk))
    hans.get_by_test_id("start-game").click()
    expect(hans.get_by_test_id("whose-turn")).to_have_text("Karak Delvers")
    watch.fits(hans)
    battle = Battle.objects.get(campaign=dwarfs.campaign)
    # Urk finds the game on the campaign's page, and opens the helper from the battle's page.
    urk.get_by_role("link", name="Dashboard").first.click()
    urk.locator("main").get_by_role("link", name="Siege of Sigmarhafen").first.click()
    urk.locator("main").get_by_role("link", name="Skirmish").first.click()
    watch.fits(urk)
    urk.get_by_test_id("open-helper").click()
    expect(urk.get_by_test_id("whose-turn")).to_have_text("Karak Delvers")
    watch.fits(urk)
    fighters = Fighter.objects.filter(game__battle=battle)
    noble = fighters.get(warrior__name="Thorgrim")
    ladz = fighters.filter(warrior__name="Ladz").order_by("number").first()
    taken_out_by(urk, hans, ladz, noble.warrior)
    hans.locator("summary", has_text="End the game").click()
    hans.get_by_label("Result").select_option(label="Karak Delvers won")
    hans.get_by_test_id("end-game").click()
    for page in (hans, urk):
        expect(page.get_by_test_id("turn")).to_contain_text("The game is over.")
    shows(hans, urk, ladz, "Out of action")

    # --- Each confirms his side in one press -------------------------------------------------
    for page in (hans, urk):
        page.get_by_test_id("turn").get_by_role("link", name="Check your side").click()
        watch.fits(page)
        page.get_by_role("button", name="Confirm my side as the helper recorded it").click()
        watch.fits(page)
    expect(urk.get_by_test_id("battle-status")).to_have_text("Confirmed")
    battle.refresh_from_db()
    assert PostBattleSequence.objects.filter(participant__battle=battle).count() == 2

    # --- The sequences, on the phones ----------------------------------------------------------
    # Step 0 sends each to the battle page, to declare his carried items there.
    for page, name in ((hans, "Karak Delvers"), (urk, "Red Fangs")):
        open_sequence(page, watch)
        heading(page, "Step 0:")
        page.locator("#step-panel").get_by_role("link", name="the battle page").click()
        watch.fits(page)
        page.get_by_role("link", name=f"Declare the carried items of {name}").click()
        watch.fits(page)
        page.locator("main").get_by_role("button", name="Declare").click()
        watch.fits(page)
    for page in (hans, urk):
        open_sequence(page, watch)
    # Hans: the Dwarfs won, nobody of theirs fell.
    go_on(hans, 1)
    go_on(hans, 2)
    award(hans)
    go_on(hans, 3)
    roll(hans, "Exploration: 2 dice", "1 2")  # 3, and the Miners' extra shard: 2, no double
    store(hans)
    the_rest_paying_upkeep(hans, watch)

    # Urk: the Orcs lost; one of the Ladz fell.
    go_on(urk, 1)
    roll(urk, "Ladz", "4")
    go_on(urk, 2)
    award(urk)
    go_on(urk, 3)
    roll(urk, "Exploration: 2 dice", "1 2")
    store(urk)
    the_rest_paying_upkeep(urk, watch)

    # Both sequences are complete; the upkeep was paid and the shards kept, nothing minted.
    sequences = PostBattleSequence.objects.filter(participant__battle=battle)
    assert sorted(sequences.values_list("current_step", flat=True)) == [11, 11]
    assert all(sequences.values_list("completed_at", flat=True))
    assert treasury.totals(dwarfs) == {"gold": 55 - 30, "wyrdstone": 2, "items": 0}
    assert treasury.totals(orcs) == {"gold": 100 - 30, "wyrdstone": 1, "items": 0}
    assert orcs.warriors.get(name="Ladz").group_size == 5  # his 4: back on his feet
    assert not treasury.ledger_mismatches()

    assert watch.problems == [], "\n".join(watch.problems)
