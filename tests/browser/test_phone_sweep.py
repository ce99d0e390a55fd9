"""The league on a 360 px phone, where it is played: at the table and after it. One sweep over
the demo league (an organiser and two players; a confirmed battle whose post-battle sequence
waits, a game under way with the battle helper, a captive, a schedule round, a side still to
enter) visits every page linked from each user's dashboard and the pages of the table: each
step of a post-battle sequence (step 2's choice of a new skill and step 7's catalogue of hired
swords among them), a side's form, the battle helper, the treasury and the printout. On each
page nothing scrolls sideways, no two texts or controls are drawn over each other, the forms'
controls are tall enough for a finger (44 px), and a table wider than the screen scrolls in
its own box under a hint that says so. The forms of the table, and step 2's choice, are read
again at 1280 px.

PHONE_SHOTS=<folder> keeps a screenshot of every page visited, to look at what was measured.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings
from playwright.sync_api import expect

from battles import aftermath as sequences
from battles.models import Battle, PostBattleSequence
from battles.report import services
from battles.rules import ReportedResult
from core.words import possessive
from tests.browser.flows import log_in, settled
from tests.factories import PASSWORD
from tests.helpers import held, play_to, roll
from warbands.models import Warband

PHONE = {"width": 360, "height": 800}
DESKTOP = {"width": 1280, "height": 900}
SHOTS = os.environ.get("PHONE_SHOTS")
NOT_VISITED = ("/accounts/logout/", "/admin/", "/static/", "/accounts/password")
GUIDES = "/guide/"  # the guides show nobody's data

# What a page must not do on a phone, measured in the browser: be wider than the screen; draw
# two texts or controls over each other (a text's line boxes, each control's box; never an
# element against what it contains; bars that float over the page by design, fixed or sticky,
# aside); offer a control of a form, or a link drawn as a button, less than 44 px tall (a radio
# or a checkbox: its label, which is what a finger taps); hold a table wider than its box
# outside a box that scrolls under the line "Scroll sideways for more columns" (and that line
# over a box with nothing to scroll).
LAYOUT = """() => {
  const seen = (r) => r.width > 1 && r.height > 1;
  const up = (el) => {
    const line = [];
    for (; el; el = el.parentElement) line.push(el);
    return line;
  };
  // Drawn: not in a closed <details> nor hidden, nor clipped away for screen readers only.
  const shown = (el) => el.checkVisibility({visibilityProperty: true}) && !up(el).some((a) => {
    const style = getComputedStyle(a);
    return style.clip.startsWith('rect') || style.clipPath !== 'none';
  });
  const floats = (el) => up(el).some(
    (a) => ['fixed', 'sticky'].includes(getComputedStyle(a).position));
  const name = (node) => {
    const el = node.nodeType === 3 ? node.parentElement : node;
    const text = (node.nodeType === 3 ? node.textContent : (el.labels?.[0]?.textContent
      || el.getAttribute('aria-label') || el.textContent || el.name || '')).trim();
    return `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).trim()
      .split(/\\s+/).join('.') : ''} "${text.replace(/\\s+/g, ' ').slice(0, 40)}"`;
  };
  const found = {width: document.documentElement.scrollWidth, overlaps: [], short: [],
                 tables: []};
  const boxes = [];
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (texts.nextNode()) {
    const text = texts.currentNode, parent = text.parentElement;
    if (!text.textContent.trim() || parent.closest('select, option, script, style')
        || !shown(parent) || floats(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const r of range.getClientRects()) if (seen(r)) boxes.push([text, r]);
  }
  for (const control of document.querySelectorAll(
      'input:not([type=hidden]), select, textarea, button')) {
    const r = control.getBoundingClientRect();
    if (seen(r) && shown(control) && !floats(control)) boxes.push([control, r]);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 2 && h > 2) found.overlaps.push(`${name(a)} over ${name(b)}`);
    }
  }
  const controls = document.querySelectorAll(
    'main form :is(input:not([type=hidden]), select, textarea, button), main [role=button]');
  for (const control of controls) {
    const r = control.getBoundingClientRect();
    if (!seen(r) || !shown(control) || control.closest('.inline-form')) continue;
    const radio = control.matches('[type=radio], [type=checkbox]');
    const hit = radio ? (control.closest('label') || control.labels?.[0]) : control;
    const height = hit ? hit.getBoundingClientRect().height : r.height;
    if (height < 43.5) found.short.push(`${name(control)}: ${Math.round(height)} px`);
  }
  for (const table of document.querySelectorAll('main table')) {
    const r = table.getBoundingClientRect();
    if (!seen(r) || !shown(table) || r.width <= table.parentElement.clientWidth + 1) continue;
    const box = table.closest('.table-scroll, .overflow-auto');
    const scrolls = box && box.scrollWidth > box.clientWidth
      && ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
    const before = box && getComputedStyle(box, '::before');
    const hinted = before && before.display !== 'none'
      && before.content.includes('Scroll sideways');
    if (!scrolls || !hinted) {
      found.tables.push(`${name(table.querySelector('th') || table)}: ${Math.round(r.width)} px`
        + ' without a scroll hint');
    }
  }
  for (const box of document.querySelectorAll('main :is(.table-scroll, .overflow-auto)')) {
    const hint = getComputedStyle(box, '::before');
    if (hint.display !== 'none' && hint.content.includes('Scroll sideways')
        && box.scrollWidth <= box.clientWidth && shown(box)) {
      found.tables.push(`${name(box.querySelector('th') || box)}: a hint, nothing to scroll`);
    }
  }
  return found;
}"""


def measured(page, where: str, width: int = PHONE["width"]) -> list[str]:
    """What is wrong with the page's layout, each line naming the page (``where``)."""
    settled(page)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        shot = re.sub(r"\W+", "-", f"{width}-{where}").strip("-")[:90]
        height = page.evaluate("document.documentElement.scrollHeight")
        for part, top in enumerate(range(0, height, 1000)):
            clip = {"x": 0, "y": top, "width": width, "height": min(1000, height - top)}
            page.screenshot(path=f"{SHOTS}/{shot}-{part}.png", full_page=True, clip=clip)
    found = page.evaluate(LAYOUT)
    problems = [f"{found['width']} px wide"] if found["width"] > width else []
    problems += found["overlaps"] + found["tables"]
    problems += found["short"] if width <= PHONE["width"] else []  # a finger's rule
    return [f"{where}: {problem}" for problem in problems]


def pattern(url: str) -> str:
    """A page's kind: its path with every number the same (one roster stands for all)."""
    return re.sub(r"\d+", "N", urlsplit(url).path)


def linked_pages(page, base: str) -> list[str]:
    """The app's pages the current page links to (not downloads, the admin or logging out)."""
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    pages = []
    for href in hrefs:
        path = urlsplit(href).path
        if (
            href.startswith(base)
            and not path.startswith(NOT_VISITED)
            and not re.search(r"\.(csv|json)$|/download/$", path)
            and href.split("#")[0] not in pages
        ):
            pages.append(href.split("#")[0])
    return pages


def sweep_from_dashboard(
    page, base: str, user: str, measured_before: set[str]
) -> tuple[list[str], set[str]]:
    """The dashboard, every kind of page it links to, and every kind those link to; what is
    wrong with them, and the kinds visited. A guide, the same page whoever reads it, is
    measured for the first user who reaches it (``measured_before``: the kinds an earlier user
    visited)."""
    page.goto(base + "/")
    problems = measured(page, f"{user} /")
    visited = {pattern(base + "/")} | {kind for kind in measured_before if kind.startswith(GUIDES)}
    links = linked_pages(page, base)
    for depth in (1, 2):
        further = []
        for url in links:
            if pattern(url) in visited:
                continue
            visited.add(pattern(url))
            page.goto(url)
            problems += measured(page, f"{user} {urlsplit(url).path}")
            further += linked_pages(page, base) if depth == 1 else []
        links = further
    return problems, visited


def demo_league():
    """The demo league, its users' passwords the tests' own; a hero of the Sons of Ymir held
    by the Scourge; a battle of the Sons against the Pyre reported, its sides to enter."""
    with override_settings(DEBUG=True):  # seed_demo refuses to run without it
        call_command("seed_demo", stdout=io.StringIO())
    users = {u.username: u for u in get_user_model().objects.all()}
    for user in users.values():
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    warbands = {w.name: w for w in Warband.objects.all()}
    sons, scourge, pyre = (
        warbands["The Sons of Ymir"],
        warbands["The Grey Scourge"],
        warbands["The Order of the Burning Pyre"],
    )
    held(sons.warriors.filter(is_hero=True, is_leader=False).first(), scourge)
    reported = services.report_battle(
        actor=sons.owner, campaign=sons.campaign, scenario_key="skirmish", scenario="",
        results=[ReportedResult(sons.pk, "won"), ReportedResult(pyre.pk, "lost")],
    )  # fmt: skip
    return users, warbands, reported


@pytest.mark.django_db(transaction=True)
def test_the_league_on_a_phone(live_server, chromium):
    users, warbands, reported = demo_league()
    reavers = warbands["Reikland Reavers"]
    base = live_server.url
    problems, reached = [], set()

    for username in ("organiser", "alice", "bob"):
        context = chromium.new_context(viewport=PHONE)
        page = log_in(context, live_server, users[username])
        found, visited = sweep_from_dashboard(page, base, username, reached)
        problems += found
        reached |= visited
        context.close()
    # The sweep reached the pages of the table and after it (their links are not broken).
    assert {
        "/sequences/N/",
        "/battles/N/",
        "/battles/N/play/",
        "/warbands/N/captives/",
        "/warbands/N/treasury/",
        "/warbands/N/print/",
        "/rounds/N/",
        "/campaigns/N/schedule/",
    } <= reached, sorted(reached)

    alice = users["alice"]
    phone = log_in(chromium.new_context(viewport=PHONE), live_server, alice)
    desktop = log_in(chromium.new_context(viewport=DESKTOP), live_server, alice)
    sons = warbands["The Sons of Ymir"]
    helper = Battle.objects.get(status=Battle.Status.PLAYING)
    for where, path in [
        ("the side form", f"/battles/{reported.pk}/sides/{sons.pk}/"),
        ("the report", f"/campaigns/{sons.campaign_id}/battles/report/"),
        ("the battle helper", f"/battles/{helper.pk}/play/"),
        ("the treasury", f"/warbands/{reavers.pk}/treasury/"),
        ("the printout", f"/warbands/{reavers.pk}/print/"),
    ]:
        for browser, width in ((phone, PHONE["width"]), (desktop, DESKTOP["width"])):
            browser.goto(base + path)
            problems += measured(browser, where, width)

    # The Reavers' post-battle sequence, step by step; the captain reaches an advance in step
    # 2 and rolls a new skill, whose choice is read on the phone and on a desktop.
    sequence = PostBattleSequence.objects.filter(participant__warband=reavers).latest("pk")
    for step in range(11):
        play_to(sequence, step, alice)
        if step == 2:
            captain = reavers.warriors.get(is_leader=True)
            captain.experience = 19
            captain.save(update_fields=["experience"])
            sequences.prepare(sequence)
            sequences.act(sequence, actor=alice, step=2, action="award")
            advance = sequence.tasks.get(
                step=2, label__startswith=f"{possessive(captain.name)} advance"
            )
            roll(sequence, advance, [2, 2], alice)  # 4: a new skill
            desktop.goto(f"{base}/sequences/{sequence.pk}/")
            expect(desktop.locator("label.choice").first).to_be_visible()
            problems += measured(desktop, "step 2's choice of a skill", DESKTOP["width"])
        phone.goto(f"{base}/sequences/{sequence.pk}/")
        expect(phone.locator("#step-heading")).to_contain_text(f"Step {step}:")
        problems += measured(phone, f"step {step}")
        if step == 2:  # a tap on the skill's name chooses it
            task = phone.locator("li.task", has_text=f"{possessive(captain.name)} advance")
            task.locator("label.choice", has_text="Haggle (Academic)").click()
            task.get_by_role("button", name="Go on").click()
            expect(phone.locator("li.task-done", has_text="advance").first).to_be_visible()
            assert captain.skills.filter(skill__key="haggle").exists()
        if step == 7:  # the catalogue of hired swords, a row per sword, opened with a tap
            phone.get_by_test_id("open-catalogue").click()
            expect(phone.locator("form.hire-row").first).to_be_visible()
            problems += measured(phone, "step 7's catalogue of hired swords")
        if step == 8:  # the captain haggles over a purchase
            item = phone.get_by_label(f"Item for {captain.name}")
            buy = phone.locator("form", has=item)
            item.select_option(index=1)
            buy.get_by_role("checkbox").check()
            buy.get_by_role("button", name="Buy").click()
            expect(phone.get_by_test_id("receipts")).to_be_visible()
            # and sells something, its price left unstored for step 9 to store
            sell = phone.locator("form", has=phone.locator("input[name=action][value=sell]"))
            sell.locator("select[name=what]").select_option(index=1)
            sell.locator("select[name=into]").select_option("pile")
            phone.once("dialog", lambda dialog: dialog.accept())
            sell.get_by_role("button", name="Sell").click()
            expect(phone.locator(".unstored")).to_be_visible()
            problems += measured(phone, "step 8 after a purchase and a sale")
            phone.get_by_role("button", name="Continue to step 9").click()
            expect(phone.locator("#step-heading")).to_contain_text("Step 9:")
            # The new step opens at its top, not with the finger over one of its selects.
            expect(phone.locator("#step-heading")).to_be_in_viewport()
            assert phone.evaluate("window.scrollX") == 0
            sequence.refresh_from_db()

    # The other side of that battle: the Witch Hunters' steps 8 and 9, other lists, other names.
    pyre = warbands["The Order of the Burning Pyre"]
    carol = users["carol"]
    theirs = PostBattleSequence.objects.filter(participant__warband=pyre).latest("pk")
    other = log_in(chromium.new_context(viewport=PHONE), live_server, carol)
    for step in (8, 9):
        play_to(theirs, step, carol)
        other.goto(f"{base}/sequences/{theirs.pk}/")
        problems += measured(other, f"the Pyre's step {step}")

    assert not problems, "\n".join(problems)
