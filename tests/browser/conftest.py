"""Playwright on Debian's Chromium (/usr/bin/chromium), headless, against pytest's live server.

`playwright install` is never needed: the system browser is launched by path. Without it the
browser tests are skipped with one line of reason, unless REQUIRE_BROWSER=1 (CI) makes that a
failure.
"""

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI and these machines run as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# An assertion waits as long as an action does (the contexts' 10 s), not Playwright's 5 s: on
# two busy cores a page that a user would find quick enough can take more than five.
expect.set_options(timeout=10_000)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def _reference_data_for_live_server(request):
    """Browser tests run on a transactional database (the live server is another thread)."""
    if "live_server" in request.fixturenames:
        request.getfixturevalue("reference_data")


@pytest.fixture(autouse=True)
def _quick_battle_helper_poll(settings):
    """The battle helper's pages poll four times a second instead of once: a test waits for
    the other phone's poll (``flows.SEEN``) a quarter as long, and still sees it come through
    the poll."""
    settings.BATTLE_HELPER_POLL_SECONDS = 0.25


@pytest.fixture(scope="session")
def chromium():
    if not (CHROMIUM.exists() or shutil.which(str(CHROMIUM))):
        reason = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; REQUIRE_BROWSER=1 makes this an error")
        pytest.skip(reason)

    # Playwright's sync API keeps an event loop in this thread; Django then believes it is in
    # async code and refuses the ORM calls of the tests themselves (factories, assertions).
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()
