"""The battle helper, live on two phones, as it is used at the table: each player taps his own
warriors and the other's page shows it within two seconds, without a reload; the turn moves on
phase by phase; a Rally test, a jump down and its fall, and a Rout test on typed dice; the
rout ends the game and the report is filled in from it, for the players to check and confirm.

The Reavers (Alice) take the first turn, the Scourge (Bob) the second. Each warband is the
five models of ``mustered_warband`` (a captain, a champion, three Stadtwache), so two out of
action are a quarter (2 * 4 >= 5) and one is not."""

import pytest
from playwright.sync_api import expect

from battles.helper import moves, rout, start
from battles.models import Battle, Fighter, Participant, PostBattleSequence, WarriorOutcome
from battles.rules import play
from tests.browser.flows import PHASES, SEEN, card, log_in, open_panel, shows, taken_out_by
from tests.factories import CampaignFactory, mustered_warband
from tests.helpers import warriors

PHONE = {"width": 390, "height": 844}


def phone(chromium, live_server, user):
    return log_in(chromium.new_context(viewport=PHONE), live_server, user)


def tap(page, other, fighter, state, shown):
    card(page, fighter).get_by_test_id(f"tap-{state}").click()
    shows(page, other, fighter, shown)


def next_phase(page, other, *, seen=False):
    """The player whose turn it is moves it on one phase (``seen``: the other's page follows
    within two seconds; each turn's end is always checked on both, in ``end_turn``)."""
    phase = page.get_by_test_id("phase").inner_text()
    following = PHASES[PHASES.index(phase) + 1]
    page.get_by_test_id("next-phase").click()
    expect(page.get_by_test_id("phase")).to_have_text(following)
    if seen:
        expect(other.get_by_test_id("phase")).to_have_text(following, timeout=SEEN)


def end_turn(page, other, next_warband, turn):
    """The rest of the turn, then "End the turn": the next warband's recovery phase."""
    while page.get_by_test_id("phase").inner_text() != PHASES[-1]:
        next_phase(page, other)
    expect(page.get_by_test_id("next-phase")).to_have_text("End the turn")
    page.get_by_test_id("next-phase").click()
    for viewer, wait in ((page, 5_000), (other, SEEN)):
        expect(viewer.get_by_test_id("turn")).to_contain_text(f"Turn {turn}", timeout=wait)
        expect(viewer.get_by_test_id("whose-turn")).to_have_text(next_warband, timeout=wait)
        expect(viewer.get_by_test_id("phase")).to_have_text("Recovery", timeout=wait)


def rally(page, fighter, dice):
    panel = open_panel(page, fighter)
    panel.get_by_test_id("rally-dice").fill(dice)
    panel.get_by_test_id("rally").click()
    expect(page.get_by_test_id("panel")).to_have_count(0)


def models(battle, warband):
    """The warband's fighters: captain, champion, Stadtwache #1, #2, #3."""
    return list(
        Fighter.objects.filter(game__battle=battle, side__participant__warband=warband).order_by(
            "-warrior__is_leader", "-warrior__is_hero", "number"
        )
    )


@pytest.mark.django_db(transaction=True)
def test_a_short_game_on_two_phones_reports_itself(live_server, chromium):
    campaign = CampaignFactory(name="Siege of Sigmarhafen")
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    champion = warriors(reavers)[1]
    alice = phone(chromium, live_server, reavers.owner)
    bob = phone(chromium, live_server, scourge.owner)

    # Alice starts a Skirmish from the campaign's page: the Reavers first, then the Scourge.
    alice.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    alice.get_by_role("link", name="Play a battle with the helper").click()
    expect(alice.get_by_label("Takes the first turn")).to_have_value(str(reavers.pk))
    alice.get_by_label("Takes the second turn").select_option(str(scourge.pk))
    alice.get_by_test_id("start-game").click()
    expect(alice.get_by_test_id("whose-turn")).to_have_text("Reavers")
    battle = Battle.objects.get(campaign=campaign)
    assert battle.status == Battle.Status.PLAYING
    bob.goto(alice.url)
    adler, _, runner, jumper, _ = models(battle, reavers)
    theirs = models(battle, scourge)
    assert len(theirs) == 5  # two out of action are a quarter, one is not
    for page in (alice, bob):
        expect(page.get_by_test_id("phase")).to_have_text("Recovery")
    expect(bob.get_by_test_id("next-phase")).to_have_count(0)  # not his turn
    # Nobody taps the other's warriors: no buttons on them.
    expect(card(alice, theirs[0]).locator("button, [data-testid=more]")).to_have_count(0)
    expect(card(bob, adler).locator("button, [data-testid=more]")).to_have_count(0)

    # Turn 1, the Reavers. Captain Adler is stunned: Bob sees it without reloading.
    tap(alice, bob, adler, "stunned", "Stunned")
    expect(card(alice, adler).get_by_test_id("tap-standing")).to_have_count(0)
    next_phase(alice, bob, seen=True)  # movement
    tap(alice, bob, runner, "fleeing", "Fleeing")

    # Stadtwache #2 jumps down 4": two Initiative tests (I 3), a 1 and a 6, and he falls.
    panel = open_panel(alice, jumper)
    panel.get_by_test_id("test-kind").select_option(label="Jumping down")
    panel.get_by_test_id("test-height").fill("4")
    panel.get_by_test_id("test-dice").fill("1 6")
    panel.get_by_test_id("take-test").click()
    expect(alice.get_by_test_id("note")).to_have_text("Failed.")
    expect(card(alice, jumper)).to_contain_text('Falls 4": the hits are to roll.')
    expect(card(bob, jumper)).to_contain_text('Falls 4"', timeout=SEEN)
    panel = open_panel(alice, jumper)
    # D3 as a D6: 3 hits at S4, wounding T3 on 3+ (a 3, a 1, a 1), then a 6 on the injury chart.
    panel.get_by_test_id("fall-dice").fill("5 3 1 1 6")
    panel.get_by_test_id("roll-fall").click()
    expect(alice.get_by_test_id("note")).to_have_text("3 hits, 1 wound.")
    shows(alice, bob, jumper, "Out of action")
    for page in (alice, bob):
        expect(page.get_by_test_id("log")).to_contain_text("3 hits at Strength 4")
        expect(page.get_by_test_id("log")).to_contain_text("out of action (a fall)")
        expect(page.get_by_test_id("dice-log")).to_contain_text("D6: 5")
    end_turn(alice, bob, "Scourge", 1)

    # Turn 1, the Scourge: Adler stays stunned; Bob moves his own turn on.
    expect(alice.get_by_test_id("next-phase")).to_have_count(0)
    expect(card(bob, adler).get_by_test_id("state")).to_have_text("Stunned")
    end_turn(bob, alice, "Reavers", 2)

    # Turn 2, the Reavers' recovery: Adler is knocked down, and may not stand up yet.
    shows(alice, bob, adler, "Knocked down")
    expect(card(alice, adler).get_by_test_id("tap-standing")).to_have_count(0)
    # The runner's Rally test, 6 6 against Ld 7: he flees on.
    rally(alice, runner, "6 6")
    expect(alice.get_by_test_id("note")).to_have_text("Stadtwache #1 flees on.")
    shows(alice, bob, runner, "Fleeing")
    expect(bob.get_by_test_id("dice-log")).to_contain_text(
        "Rally test: Stadtwache #1, 2D6 against Ld 7: 2D6: 6 + 6", timeout=SEEN
    )
    end_turn(alice, bob, "Scourge", 2)
    end_turn(bob, alice, "Reavers", 3)

    # Turn 3, the Reavers' recovery: Adler stands up; the runner rallies on 1 2.
    expect(card(alice, adler)).to_contain_text("may stand up")
    tap(alice, bob, adler, "standing", "Standing")
    rally(alice, runner, "1 2")
    shows(alice, bob, runner, "Standing")
    expect(bob.get_by_test_id("dice-log")).to_contain_text("2D6: 1 + 2", timeout=SEEN)
    next_phase(alice, bob)
    next_phase(alice, bob)
    next_phase(alice, bob, seen=True)  # hand-to-hand: Brandt takes out two of the Scourge

    # Bob records it on his own warriors (Alice has no buttons on them).
    expect(card(alice, theirs[2]).get_by_test_id("more")).to_have_count(0)
    taken_out_by(bob, alice, theirs[2], champion)
    taken_out_by(bob, alice, theirs[3], champion)
    expect(alice.get_by_test_id(f"rout-{scourge.pk}")).to_have_count(0)  # not his turn yet
    for page in (alice, bob):
        expect(page.get_by_test_id(f"side-{scourge.pk}").get_by_test_id("out-count")).to_have_text(
            "2 of 5"
        )

    # The Scourge's turn 3 begins with its Rout test: 6 6 against Ld 8, and it routs.
    end_turn(alice, bob, "Scourge", 3)
    banner = bob.get_by_test_id(f"rout-{scourge.pk}")
    expect(banner).to_contain_text("Scourge must take a Rout test")
    expect(alice.get_by_test_id(f"rout-{scourge.pk}")).to_be_visible(timeout=SEEN)
    expect(bob.get_by_test_id("next-phase")).to_have_count(0)  # the test comes first
    expect(bob.get_by_test_id("next-phase-waiting")).to_be_disabled()
    expect(bob.get_by_test_id("next-phase-why")).to_have_text(
        "Scourge takes its Rout test first (or routs)."
    )
    banner.get_by_test_id("rout-dice").fill("6 6")
    banner.get_by_test_id("rout-test").click()
    for page, wait in ((bob, 5_000), (alice, SEEN)):
        expect(page.get_by_test_id("turn")).to_contain_text("The game is over.", timeout=wait)
        expect(page.get_by_test_id("log")).to_contain_text("Scourge routs (first to rout)")
        expect(page.get_by_test_id("log")).to_contain_text("The game is over: Reavers won.")
        expect(page.get_by_test_id("dice-log")).to_contain_text("Rout test: Scourge")
        expect(page.get_by_test_id("next-phase")).to_have_count(0)

    # The report is written from the game.
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    assert WarriorOutcome.objects.get(warrior=champion).enemies_out_of_action == 2
    routed = Participant.objects.get(battle=battle, warband=scourge)
    assert (routed.routed, routed.rout_order, routed.result) == (True, 1, "lost")
    winner = Participant.objects.get(battle=battle, warband=reavers)
    assert (winner.routed, winner.result) == (False, "won")
    group = WarriorOutcome.objects.get(participant=routed, warrior=warriors(scourge)[2])
    assert (group.models_out_of_action, group.taken_out_by_id) == (2, champion.pk)

    # Both players find the battle waiting for their sides (see the next test).
    alice.get_by_test_id("turn").get_by_role("link", name="Check your side of the report").click()
    expect(alice.get_by_test_id("battle-status")).to_have_text("Waiting for confirmation")
    expect(alice.get_by_test_id("missing-sides")).to_contain_text("Reavers and Scourge")


def played_out(campaign):
    """The same game played through the services: the Reavers' Stadtwache #2 out of action
    by a fall, two of the Scourge's taken out by Brandt, the Scourge routing on 6 6."""
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    champion = warriors(reavers)[1]
    battle = start.start_game(
        actor=reavers.owner, campaign=campaign, warband_ids=[reavers.pk, scourge.pk],
        scenario_key="skirmish",
    )  # fmt: skip
    ours, theirs = models(battle, reavers), models(battle, scourge)
    moves.set_state(battle.pk, ours[3].pk, play.OUT_OF_ACTION, actor=reavers.owner, cause="fall")
    for fighter in theirs[2:4]:
        moves.set_state(battle.pk, fighter.pk, play.OUT_OF_ACTION, actor=scourge.owner,
                        cause="enemy", by_id=champion.pk)  # fmt: skip
    for _ in PHASES:
        moves.next_phase(battle.pk, actor=reavers.owner)
    rout.take_rout_test(battle.pk, theirs[0].side_id, entered="6 6", actor=scourge.owner)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.REPORTED
    return battle, reavers, scourge, champion


@pytest.mark.django_db(transaction=True)
def test_each_player_finds_his_side_filled_in_from_the_game_and_confirms(live_server, chromium):
    """One player confirms his side as the helper wrote it in one press; the other checks his
    first, saves it unchanged and confirms, which keeps the first one's confirmation."""
    campaign = CampaignFactory(name="Siege of Sigmarhafen")
    battle, reavers, scourge, champion = played_out(campaign)
    alice = phone(chromium, live_server, reavers.owner)
    bob = phone(chromium, live_server, scourge.owner)

    # Alice takes hers as the helper wrote it, in one press: saved, and confirmed for her.
    alice.goto(f"{live_server.url}/battles/{battle.pk}/")
    expect(alice.get_by_test_id("as-recorded")).to_contain_text("confirms the battle for you")
    alice.get_by_role("button", name="Confirm my side as the helper recorded it").click()
    expect(alice.get_by_test_id("missing-sides")).to_contain_text("waiting for Scourge")
    fell = WarriorOutcome.objects.get(participant__warband=reavers, warrior=warriors(reavers)[2])
    assert fell.models_out_of_action == 1  # the fall, as the helper wrote it

    # Bob looks at his first: filled in from the game, saved as it is, then confirmed. His
    # side unchanged, Alice's confirmation stands and the battle counts.
    bob.goto(f"{live_server.url}/battles/{battle.pk}/")
    bob.get_by_role("link", name="Change my side first").click()
    expect(bob.get_by_label("How many of Stadtwache went out of action")).to_have_value(
        "2", timeout=1_000
    )
    expect(bob.get_by_label("Who took Stadtwache out")).to_have_value(str(champion.pk))
    bob.locator("main").get_by_role("button", name="Save the warriors of Scourge").click()
    bob.get_by_label("Confirm", exact=True).check()
    bob.get_by_role("button", name="Send").click()
    expect(bob.get_by_test_id("battle-status")).to_have_text("Confirmed")
    assert WarriorOutcome.objects.get(warrior=champion).enemies_out_of_action == 2
    participants = set(Participant.objects.filter(battle=battle).values_list("pk", flat=True))
    started = set(
        PostBattleSequence.objects.filter(participant__battle=battle).values_list(
            "participant", flat=True
        )
    )
    assert started == participants
