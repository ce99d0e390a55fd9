"""Steps of the browser journeys that more than one test walks: logging in, signing up,
mustering, the battle helper's taps and the post-battle sequence's forms, written once so that
each test reads as the story it tells."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from playwright.sync_api import expect

from tests import factories

PASSWORD = "Sigmar-protects-77"


def settled(page) -> None:
    """Wait until the page's layout is final: loaded, and two frames on (scroll-state queries,
    the scroll hint, settle a frame after layout)."""
    page.wait_for_load_state()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def page_width(page) -> int:
    """How wide the page is once its layout settles (``settled``): on a busy machine Chromium
    can report the first frame's width, before the scroll-state queries of the tables' boxes
    are answered."""
    settled(page)
    return page.evaluate("document.documentElement.scrollWidth")


# --- Accounts and campaigns ----------------------------------------------------------------


def log_in(context, live_server, user):
    """A new page of the browser ``context``, logged in as ``user`` on the dashboard
    (``log_in_page``)."""
    return log_in_page(context.new_page(), live_server, user)


def log_in_page(page, live_server, user):
    """``page`` logged in as ``user``, on the dashboard.

    The session is Django's own (``Client.force_login``, through the backend the log-in form
    records) handed to the browser as the cookie the form's answer would set, with the same
    flags: one page load instead of the form's three. The tests of logging in itself, and
    those where the form's answer matters, use ``log_in_by_form``. A test that watches the page
    (its console, its requests) sets the watch up before, and the dashboard is watched too."""
    page.context.set_default_timeout(10_000)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{
        "name": cookie.key, "value": cookie.value, "path": cookie["path"],
        "domain": settings.SESSION_COOKIE_DOMAIN or urlsplit(live_server.url).hostname,
        "secure": bool(cookie["secure"]), "httpOnly": bool(cookie["httponly"]),
        **({"sameSite": cookie["samesite"]} if cookie["samesite"] else {}),
    }])  # fmt: skip
    page.goto(live_server.url + resolve_url(settings.LOGIN_REDIRECT_URL))
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    return page


def log_in_by_form(context, live_server, user):
    """A new page of the browser ``context``, logged in as ``user`` through the log-in form."""
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(factories.PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    return page


def sign_up(page, username: str) -> None:
    """Fill in the sign-up form the page shows and send it."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Sign up").click()


def sign_up_from(page, url: str, username: str) -> None:
    """Open a join link logged out, follow "Create an account", sign up and join."""
    page.goto(url)
    expect(page.get_by_test_id("invitation")).to_contain_text("You are invited to")
    page.get_by_role("link", name="Create an account").click()
    expect(page.get_by_test_id("invitation")).to_contain_text("You are invited to")
    sign_up(page, username)
    page.locator("main").get_by_role("button", name="Join").click()


def organiser_starts_a_campaign(page, url: str, username: str, name: str) -> str:
    """From the landing page: sign up, start a campaign; the join link its page shows."""
    page.goto(url)  # the landing page says what the app is, and the way in
    expect(page.get_by_test_id("landing")).to_contain_text("post-battle sequence")
    page.get_by_test_id("landing-signup").click()
    sign_up(page, username)
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    page.locator("main").get_by_text("Start a campaign").first.click()
    page.get_by_label("Name").first.fill(name)
    page.locator("main").get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=f"Run {name}")).to_be_visible()
    return page.locator("#join-heading ~ p code").inner_text()


# --- Mustering -----------------------------------------------------------------------------


def start_muster(page, name: str, warband_list: str, link="Muster your warband") -> None:
    """Follow ``link`` (the dashboard's, or the campaign page's "Muster a warband"): name the
    warband, pick its list, and open its muster board."""
    page.get_by_role("link", name=link).click()
    page.get_by_label("Warband name").fill(name)
    page.get_by_label(warband_list).check()
    page.locator("main").get_by_role("button", name="Start mustering").click()
    expect(page.get_by_role("heading", name=f"Muster {name}")).to_be_visible()


def finish_muster(page, name: str) -> None:
    """Finish mustering (it asks first) and land on the warband's roster."""
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish mustering").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


# --- The battle helper ---------------------------------------------------------------------

SEEN = 2_000  # ms: the other page polls its board every second (a quarter, in these tests)
PHASES = ("Recovery", "Movement", "Shooting", "Hand-to-hand")


def card(page, fighter):
    return page.get_by_test_id(f"fighter-{fighter.pk}")


def shows(page, other, fighter, state):
    """The player's page shows the new state at once, the other's within two seconds."""
    expect(card(page, fighter).get_by_test_id("state")).to_have_text(state)
    expect(card(other, fighter).get_by_test_id("state")).to_have_text(state, timeout=SEEN)


def open_panel(page, fighter):
    expect(page.get_by_test_id("panel")).to_have_count(0)  # the last move closed it
    card(page, fighter).get_by_test_id("more").click()
    panel = page.get_by_test_id("panel")
    expect(panel).to_be_visible()
    return panel


def taken_out_by(page, other, fighter, enemy):
    panel = open_panel(page, fighter)
    panel.get_by_test_id("taken-out").select_option(f"enemy-{enemy.pk}")
    panel.get_by_test_id("ooa").click()
    shows(page, other, fighter, "Out of action")


# --- The post-battle sequence --------------------------------------------------------------


def sequence_link(page):
    """The dashboard's link to the player's post-battle sequence."""
    return page.get_by_role("link", name=re.compile("play it|post-battle sequence", re.I)).first


def form(page, action):
    return page.locator(f"#step-panel form:has(input[name=action][value={action}])")


def heading(page, text):
    expect(page.locator("#step-heading")).to_have_text(re.compile(text))


def go_on(page, to_step):
    if to_step == 11:
        page.get_by_role("button", name="Finish the sequence").click()
        heading(page, "The sequence is complete")
    else:
        page.get_by_role("button", name=f"Continue to step {to_step}").click()
        heading(page, f"Step {to_step}:")


def roll(page, label, dice, *, further=None):
    """Type the dice of ``label``'s roll; ``further``: the roll it then asks for, in its own
    field, and its dice."""
    task = page.locator("li.task", has_text=label)
    task.get_by_label(f"Dice rolled for {label}").fill(dice)
    task.get_by_role("button", name="Roll").click()
    if further:
        (asked, more) = further
        task.get_by_label(f"Dice rolled for {asked}").fill(more)
        task.get_by_role("button", name="Roll").click()
    expect(page.locator("li.task-done", has_text=label)).to_be_visible()
