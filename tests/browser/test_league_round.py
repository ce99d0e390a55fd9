"""A round of a league played end to end: the organiser sets the table's points and
tie-breakers, creates a round and pairs it by closest rating with one game of three instead
of a bye; the players see their next games, one game is reported from its "Report it" link
and confirmed while the waiting lists follow it; the game of three is recorded; the round's
games read confirmed and the league table ranks by the organiser's rules. The round page and
the dashboard fit a 360 px phone."""

import re

import pytest
from django.db.models import F
from playwright.sync_api import expect

from battles.models import Fixture
from battles.report import services, sides
from battles.rules import ReportedResult
from tests.browser.flows import log_in, page_width
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from warbands.models import Warrior
from warbands.services import ratings_of

WIDTH = 360
CAPTAIN = "Captain Adler"  # the captain of every mustered warband

# name → experience added to its captain: ratings 40, 30, 20, 12 and 0 points above the
# mustered warband's, all different, so "closest rating" pairs Averheim with Black Hounds
# and Carroburg with Dunkel, and Ebon (the bye) joins the game nearest its rating: Carroburg
# and Dunkel's (average 16 above, against Averheim and Black Hounds' 35).
LEAGUE = {
    "Averheim Blades": 40,
    "Black Hounds": 30,
    "Carroburg Crows": 20,
    "Dunkel Wolves": 12,
    "Ebon Eagles": 0,
}


def settled(page) -> None:
    """No htmx request, swap or settle under way."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def fits(page) -> None:
    assert page_width(page) <= WIDTH


def waiting_kinds(page, live_server) -> list[str]:
    """The kinds of the dashboard's "Waiting for you" items, drawn afresh."""
    page.goto(f"{live_server.url}/")
    expect(page.get_by_test_id("waiting")).to_be_visible()
    items = page.get_by_test_id("waiting-item")
    return sorted(items.nth(i).get_attribute("data-kind") for i in range(items.count()))


def expect_waiting(page, live_server, kinds: set[str], absent: set[str]) -> None:
    found = set(waiting_kinds(page, live_server))
    assert kinds <= found and not (absent & found), found


def captain(warband) -> Warrior:
    return Warrior.objects.get(warband=warband, name=CAPTAIN)


@pytest.fixture
def phone(live_server, chromium):
    """A new 360 px browser logged in as the user given; closed after the test."""
    contexts = []

    def logged_in(user):
        contexts.append(chromium.new_context(viewport={"width": WIDTH, "height": 800}))
        return log_in(contexts[-1], live_server, user)

    yield logged_in
    for context in contexts:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_round_is_paired_played_and_ranked(live_server, phone):
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    bands = {}
    for name, experience in LEAGUE.items():
        bands[name] = warband = mustered_warband(campaign=campaign, name=name)
        Warrior.objects.filter(pk=captain(warband).pk).update(
            experience=F("experience") + experience
        )
    crows, wolves, eagles = (bands[n] for n in ("Carroburg Crows", "Dunkel Wolves", "Ebon Eagles"))
    ratings = [ratings_of([w])[w.pk] for w in bands.values()]
    assert ratings == sorted(set(ratings), reverse=True)  # all different, in LEAGUE's order

    # --- The organiser sets the table's rules, creates the round and pairs it -----------------
    boss = phone(organiser)
    boss.goto(f"{live_server.url}/campaigns/{campaign.pk}/standings/")
    boss.get_by_label("Points for a win").fill("3")
    boss.get_by_label("Points for a draw").fill("1")
    boss.get_by_label("Points for a loss").fill("0")
    boss.get_by_label("Points for playing at all").fill("1")
    boss.get_by_label("Tie-breaker 1").select_option("enemies_ooa")
    boss.get_by_label("Tie-breaker 2").select_option("head_to_head")
    boss.get_by_label("Tie-breaker 3").select_option("")
    boss.get_by_label("Tie-breaker 4").select_option("")
    boss.get_by_role("button", name="Save").click()
    expect(boss.get_by_text("The league table's rules are saved.")).to_be_visible()

    boss.goto(f"{live_server.url}/campaigns/{campaign.pk}/schedule/")
    boss.get_by_text("New round", exact=True).click()
    expect(boss.get_by_label("Number")).to_have_value("1")
    boss.get_by_role("button", name="Create the round").click()
    expect(boss).to_have_url(re.compile(r"/rounds/\d+/$"))
    assert boss.url == f"{live_server.url}/rounds/{campaign.rounds.get().pk}/"
    boss.get_by_label("Pair by").select_option("closest")
    boss.get_by_label("With an odd number, one game of three instead of a bye").check()
    boss.get_by_test_id("pair").click()
    games = boss.get_by_test_id("fixture")
    expect(games).to_have_count(2)
    settled(boss)
    expect(boss.get_by_test_id("done")).to_have_text("2 games paired.")
    pair = games.filter(has_text="Averheim Blades")
    expect(pair.locator("strong")).to_have_text(["Averheim Blades", "Black Hounds"])
    three = games.filter(has_text="Carroburg Crows")
    expect(three.locator("strong")).to_have_text(
        ["Carroburg Crows", "Dunkel Wolves", "Ebon Eagles"]
    )
    expect(boss.get_by_test_id("fixture-state")).to_have_text(["Planned", "Planned"])
    fits(boss)
    round_url = boss.url

    # --- Every player's dashboard shows his next game ----------------------------------------
    players = {name: phone(warband.owner) for name, warband in bands.items()}
    for name, page in players.items():
        page.goto(f"{live_server.url}/")
        mine = page.get_by_test_id("next-game")
        expect(mine).to_have_count(1)
        expect(mine).to_contain_text(name)
        expect(mine).to_contain_text("Round 1")
        fits(page)

    # --- Averheim reports the game of two from its "Report it" link --------------------------
    reporter, opponent = players["Averheim Blades"], players["Black Hounds"]
    reporter.get_by_test_id("next-game").get_by_role("link", name="Report it").click()
    expect(reporter.get_by_test_id("planned-game")).to_be_visible()
    expect(reporter.get_by_label("Averheim Blades took part")).to_be_checked()
    expect(reporter.get_by_label("Black Hounds took part")).to_be_checked()
    expect(reporter.get_by_label("Carroburg Crows took part")).not_to_be_checked()
    reporter.get_by_label("Scenario:", exact=True).select_option("skirmish")
    reporter.get_by_label("Result of Averheim Blades").select_option("won")
    reporter.get_by_label("Result of Black Hounds").select_option("lost")
    reporter.locator("main").get_by_role("button", name="Report the battle").click()
    reporter.get_by_label(f"Enemies {CAPTAIN} put out of action").fill("2")
    reporter.locator("main").get_by_role("button", name="Save the warriors of Averheim").click()
    expect(reporter.get_by_test_id("missing-sides")).to_contain_text("waiting for Black Hounds")
    battle_url = reporter.url

    # the opponent: his side to enter, then (his side in) the report to confirm
    expect_waiting(opponent, live_server, {"side"}, {"confirm", "sequence"})
    opponent.locator("[data-testid=waiting-item][data-kind=side]").get_by_role("link").click()
    opponent.get_by_label(f"Enemies {CAPTAIN} put out of action").fill("1")
    opponent.locator("main").get_by_role("button", name="Save the warriors of Black").click()
    expect(opponent.get_by_test_id("missing-sides")).to_have_count(0)
    expect_waiting(opponent, live_server, {"confirm"}, {"side", "sequence"})
    # a side entered after the report asks the reporter to confirm again
    expect_waiting(reporter, live_server, {"confirm"}, {"side", "sequence"})

    opponent.locator("[data-testid=waiting-item][data-kind=confirm]").get_by_role("link").click()
    opponent.get_by_label("Confirm", exact=True).check()
    opponent.get_by_role("button", name="Send").click()
    expect(opponent.get_by_test_id("battle-status")).to_have_text("Waiting for confirmation")
    reporter.goto(battle_url)
    reporter.get_by_label("Confirm", exact=True).check()
    reporter.get_by_role("button", name="Send").click()
    expect(reporter.get_by_test_id("battle-status")).to_have_text("Confirmed")
    expect_waiting(opponent, live_server, {"sequence"}, {"side", "confirm"})
    expect_waiting(reporter, live_server, {"sequence"}, {"side", "confirm"})
    expect(reporter.get_by_test_id("next-game")).to_have_count(0)
    fits(reporter)

    # --- The game of three, recorded through the services ------------------------------------
    # (reporting, entering sides and confirming through their pages is covered by
    # tests/browser/test_battle.py; here only the round and the table need its result)
    fixture = Fixture.objects.get(sides__warband=crows)
    battle = services.record_battle(
        actor=organiser, campaign=campaign, scenario="Skirmish", fixture_id=fixture.pk,
        results=[ReportedResult(crows.pk, "won"), ReportedResult(wolves.pk, "lost"),
                 ReportedResult(eagles.pk, "lost")],
    )  # fmt: skip
    for warband, enemies in ((crows, 3), (wolves, 0), (eagles, 1)):
        deeds = [sides.Outcome(captain(warband).pk, enemies_out_of_action=enemies)]
        sides.enter_side(
            battle, warband, actor=organiser, outcomes=sides.whole_side(warband, deeds)
        )
    services.confirm_for_everybody(battle, actor=organiser)

    boss.goto(round_url)
    expect(boss.get_by_test_id("fixture-state")).to_have_text(["Confirmed", "Confirmed"])
    fits(boss)

    # --- The league table, by the organiser's rules ------------------------------------------
    # Points = 3 a win + 1 a draw + 0 a loss + 1 a battle played:
    #   Carroburg won (3 + 1 = 4), 3 enemies out of action
    #   Averheim  won (3 + 1 = 4), 2 enemies out of action
    #   Black Hounds lost (0 + 1 = 1), 1 enemy
    #   Ebon      lost (0 + 1 = 1), 1 enemy
    #   Dunkel    lost (0 + 1 = 1), 0 enemies
    # Carroburg and Averheim tie on 4: enemies out of action (the first tie-breaker) puts
    # Carroburg first, though Averheim's rating is higher. Black Hounds and Ebon tie on 1 and
    # on enemies; head-to-head cannot part them (they never met, 0 points each) and rating is
    # no tie-breaker here: they share third place, by name; Dunkel is fifth on enemies.
    boss.goto(f"{live_server.url}/campaigns/{campaign.pk}/table/")
    rows = boss.locator("#league-table tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.locator("td:nth-child(2)")).to_have_text(
        ["Carroburg Crows", "Averheim Blades", "Black Hounds", "Ebon Eagles", "Dunkel Wolves"]
    )
    expect(rows.locator("td:nth-child(1)")).to_have_text(["1", "2", "3", "3", "5"])
    expect(rows.locator("td:nth-child(3)")).to_have_text(["4", "4", "1", "1", "1"])
    expect(rows.locator("td:nth-child(11)")).to_have_text(["3", "2", "1", "1", "0"])
    fits(boss)
