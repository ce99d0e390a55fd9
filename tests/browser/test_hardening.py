"""In Chromium: a double click and two tabs each leave one set of changes; the main pages pass
axe-core's WCAG 2 A and AA checks (also after htmx swaps) and break no Content Security Policy
rule."""

import contextlib
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from battles import aftermath as sequences
from battles.models import PostBattleSequence, StepRecord
from tests.browser.flows import log_in
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.helpers import battle_of, play_to
from warbands.models import LedgerEntry


@pytest.fixture
def league(transactional_db, reference_data):
    campaign = CampaignFactory(name="Siege of Sigmarhafen")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    duel = {
        "campaign": campaign,
        "organiser": organiser,
        "reavers": mustered_warband(campaign=campaign, name="Reavers"),
        "scourge": mustered_warband(campaign=campaign, name="Scourge"),
    }
    battle = battle_of(duel)
    sequence = PostBattleSequence.objects.get(
        participant__battle=battle, participant__warband=duel["reavers"]
    )
    return duel, battle, sequence


def test_a_treasury_move_changes_two_cards_and_reloads_the_filtered_ledger(
    live_server, chromium, league
):
    """The move answers with the two cards only (out of band); the ledger then reloads itself
    with the filter the player chose, and a double click still moves once."""
    duel, _, _ = league
    reavers = duel["reavers"]
    chest = reavers.containers.get(kind="treasure_chest")
    sack = reavers.containers.filter(kind="large_sack").order_by("gold_crowns").first()
    owner = log_in(chromium.new_context(), live_server, reavers.owner)
    errors = []
    owner.on("console", lambda message: message.type == "error" and errors.append(message.text))
    owner.goto(f"{live_server.url}/warbands/{reavers.pk}/treasury/")
    # The filter's answer must land before the move: a ledger reload replaces (aborts) a
    # filter request still on its way, which is the hx-sync the ledger asks for.
    with owner.expect_response(lambda response: "kind=gold" in response.url):
        owner.locator("#ledger select[name=kind]").select_option("gold")
    expect(owner.locator("#ledger tbody tr").first).to_contain_text("Starting treasury")

    move = owner.locator("#treasury-move form")
    move.locator("select[name=source]").select_option(str(chest.pk))
    move.locator("select[name=target]").select_option(str(sack.pk))
    move.get_by_label("Gold crowns").fill("5")
    move.get_by_role("button", name="Move").dblclick()

    chest_gold = owner.locator(f"#container-{chest.pk} [data-testid=gold]")
    expect(chest_gold).to_have_text(str(chest.gold_crowns - 5))
    expect(owner.locator(f"#container-{sack.pk} [data-testid=gold]")).to_have_text(
        str(sack.gold_crowns + 5)
    )
    expect(owner.locator("#ledger tbody tr").first).to_contain_text("Transfer between containers")
    expect(owner.locator("#ledger select[name=kind]")).to_have_value("gold")
    owner.wait_for_timeout(500)  # let a second request, if any, land
    assert LedgerEntry.objects.filter(reason="transfer", kind="gold").count() == 2
    assert (
        owner.locator(".container-card").count()
        == reavers.containers.filter(status="held").exclude(kind="loose").count()
    )
    assert not errors, errors


def test_a_filter_answered_after_a_move_does_not_bring_back_the_old_ledger(
    live_server, chromium, league
):
    """The ledger's own requests replace each other (``hx-sync``): a filter still on its way
    when a move reloads the ledger is dropped. Otherwise its answer, drawn before the move,
    swaps the ledger while the reload is out, and the reload's answer then finds its element
    gone and is thrown away: the old ledger stays. The answers are held back here to force
    that order, which a slow network or a busy server can produce."""
    duel, _, _ = league
    reavers = duel["reavers"]
    chest = reavers.containers.get(kind="treasure_chest")
    sack = reavers.containers.filter(kind="large_sack").order_by("gold_crowns").first()
    owner = log_in(chromium.new_context(), live_server, reavers.owner)
    owner.goto(f"{live_server.url}/warbands/{reavers.pk}/treasury/")
    held = []  # (route, its answer drawn when the request was made)
    owner.route(re.compile(r"/treasury/\?.*kind=gold"), lambda r: held.append((r, r.fetch())))

    def wait_for_held(count):
        while len(held) < count:  # the route's handler runs while the page waits
            owner.wait_for_timeout(50)

    owner.locator("#ledger select[name=kind]").select_option("gold")
    wait_for_held(1)  # the filter, drawn before the move
    move = owner.locator("#treasury-move form")
    move.locator("select[name=source]").select_option(str(chest.pk))
    move.locator("select[name=target]").select_option(str(sack.pk))
    move.get_by_label("Gold crowns").fill("5")
    move.get_by_role("button", name="Move").click()
    wait_for_held(2)  # the reload, drawn after the move

    for route, answer in held:  # the filter's answer first, then the reload's
        with contextlib.suppress(PlaywrightError):  # the browser dropped this request already
            route.fulfill(response=answer)
    owner.wait_for_timeout(300)
    expect(owner.locator("#ledger tbody tr").first).to_contain_text("Transfer between containers")
    expect(owner.locator("#ledger select[name=kind]")).to_have_value("gold")


def test_a_double_click_and_two_tabs_each_apply_once(live_server, chromium, league):
    duel, _, sequence = league
    reavers = duel["reavers"]
    play_to(sequence, 9, reavers.owner)
    context = chromium.new_context()
    first = log_in(context, live_server, reavers.owner)
    url = f"{live_server.url}/sequences/{sequence.pk}/"
    first.goto(url)
    chest = reavers.containers.get(kind="treasure_chest")
    sack = reavers.containers.filter(kind="large_sack").order_by("gold_crowns").first()

    move = first.locator("#step-panel form:has(input[name=action][value=move])")
    move.locator("select[name=source]").select_option(str(chest.pk))
    move.locator("select[name=target]").select_option(str(sack.pk))
    move.get_by_label("Gold crowns").fill("5")
    move.get_by_role("button", name="Move").dblclick()
    expect(first.locator(".treasury-summary")).to_contain_text("95 / 100")
    first.wait_for_timeout(500)  # let a second request, if any, land
    chest.refresh_from_db()
    assert chest.gold_crowns == 95
    assert LedgerEntry.objects.filter(step=9, reason="transfer", kind="gold").count() == 2

    second = context.new_page()
    second.goto(url)
    first.get_by_role("button", name="Continue to step 10").dblclick()
    expect(first.locator("#step-heading")).to_have_text(re.compile("Step 10"))
    second.get_by_role("button", name="Continue to step 10").click()
    expect(second.get_by_role("alert")).to_contain_text("already done: nothing changed")
    sequence.refresh_from_db()
    assert sequence.current_step == 10
    assert StepRecord.objects.filter(sequence=sequence, step=9).count() == 1
    context.close()


#: WCAG 2 A and AA; details of the violations only (axe lists each passed or inapplicable rule
#: without the nodes it looked at, which is most of its work on a page and of its answer).
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]},
    "resultTypes": ["violations"],
}


def axe_violations(page) -> list[str]:

    results = Axe().run(page, options=AXE_OPTIONS)
    return [
        f"{page.url}: {v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(n["target"]) for n in v["nodes"][:3])
        for v in results.response["violations"]
    ]


def watch_csp(page, found: list[str]) -> None:
    page.on(
        "console",
        lambda message: (
            found.append(f"{page.url}: {message.text}")
            if "Content Security Policy" in message.text
            or "Content-Security-Policy" in message.text
            else None
        ),
    )


def test_main_pages_pass_axe_and_the_content_security_policy(live_server, chromium, league):
    duel, battle, sequence = league
    reavers, campaign = duel["reavers"], duel["campaign"]
    play_to(sequence, 2, reavers.owner)
    checked, violations, csp = [], [], []

    anonymous = chromium.new_context().new_page()
    watch_csp(anonymous, csp)
    for path in ("/accounts/login/", "/accounts/signup/"):
        anonymous.goto(live_server.url + path)
        violations += axe_violations(anonymous)
        checked.append(path)

    owner = log_in(chromium.new_context(), live_server, reavers.owner)
    watch_csp(owner, csp)
    organiser = log_in(chromium.new_context(), live_server, duel["organiser"])
    watch_csp(organiser, csp)
    pages = [
        (owner, "/"),
        (owner, f"/campaigns/{campaign.pk}/"),
        (owner, f"/campaigns/{campaign.pk}/feed/"),
        (owner, f"/warbands/{reavers.pk}/"),
        (owner, f"/warbands/{reavers.pk}/treasury/"),
        (owner, f"/warbands/{reavers.pk}/rename/"),
        (owner, f"/campaigns/{campaign.pk}/battles/report/"),
        (owner, f"/campaigns/{campaign.pk}/warbands/new/"),
        (owner, f"/battles/{battle.pk}/"),
        (owner, f"/sequences/{sequence.pk}/"),
        (owner, "/accounts/password_change/"),
        (organiser, f"/campaigns/{campaign.pk}/settings/"),
        (organiser, f"/campaigns/{campaign.pk}/battles/new/"),
        (organiser, f"/campaigns/{campaign.pk}/random-fortune/"),
    ]
    for page, path in pages:
        page.goto(live_server.url + path)
        violations += axe_violations(page)
        checked.append(path)

    # After htmx swaps: the experience awarded, then the treasury's ledger filtered.
    owner.goto(f"{live_server.url}/sequences/{sequence.pk}/")
    owner.get_by_role("button", name="Award the experience").click()
    expect(owner.locator("#step-panel")).to_contain_text("No advance this time")
    violations += axe_violations(owner)
    sequences.prepare(sequence)
    owner.get_by_role("button", name="Continue to step 3").click()
    expect(owner.locator("#step-heading")).to_have_text(re.compile("Step 3"))
    violations += axe_violations(owner)
    owner.goto(f"{live_server.url}/warbands/{reavers.pk}/treasury/")
    owner.locator("#ledger select[name=kind]").select_option("gold")
    expect(owner.locator("#ledger")).to_contain_text("Gold crowns")
    violations += axe_violations(owner)
    checked += ["sequence after a swap", "next step after a swap", "ledger after a swap"]

    assert not violations, "\n".join(violations)
    assert not csp, "\n".join(csp)
    assert len(checked) == 19
