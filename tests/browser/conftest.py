"""Playwright on Debian's Chromium, headless, against pytest's live server.

`playwright install` is never needed: the system browser is launched by path. Debian builds
Chromium's headless shell too (`apt-get install chromium-headless-shell`): the same engine
without the windowed browser around it, which is what Playwright itself runs for headless tests.
It is taken where it is installed: over the suite's browser tests it needs about a quarter less
CPU than `/usr/bin/chromium --headless` and starts half the processes. Without either, the
browser tests are skipped with one line of reason, unless REQUIRE_BROWSER=1 (CI) makes that a
failure. CHROMIUM_PATH names another browser.
"""

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

SHELL, FULL = Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium")
CHROMIUM = Path(os.environ.get("CHROMIUM_PATH") or (SHELL if SHELL.exists() else FULL))
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI and these machines run as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Playwright tells Chromium to keep its shared memory in /tmp instead of /dev/shm, for
# containers whose /dev/shm holds 64 MB. Where /dev/shm has room, Chromium keeps it there:
# /tmp may be a disk, and there the browser tests took about a quarter more of Chromium's CPU.
SHM_NEEDED = 1 << 30
SHM_FLAG = "--disable-dev-shm-usage"


def shm_flags() -> tuple[list[str], list[str]]:
    """(the flags to add, Playwright's default flags to leave out) for /dev/shm."""
    try:
        roomy = shutil.disk_usage("/dev/shm").free >= SHM_NEEDED
    except OSError:
        roomy = False
    return ([], [SHM_FLAG]) if roomy else ([SHM_FLAG], [])


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
        reason = f"Chromium not found at {CHROMIUM} (apt-get install chromium-headless-shell)"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; REQUIRE_BROWSER=1 makes this an error")
        pytest.skip(reason)

    # Playwright's sync API keeps an event loop in this thread; Django then believes it is in
    # async code and refuses the ORM calls of the tests themselves (factories, assertions).
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        added, left_out = shm_flags()
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS + added,
            ignore_default_args=left_out,
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
