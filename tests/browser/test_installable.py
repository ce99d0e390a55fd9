"""The installed app in Chromium: the manifest and its icons, the service worker controlling
the page, and one phone's journey without signal. A player's own roster and printout are
readable offline with a notice saying when they were saved; an opponent's roster, a treasury
page and everything else are never kept (the worker's caches are read with ``caches.keys()``);
log-out empties them; and the next user of the same browser cannot read the first one's
copies offline. No Content Security Policy report on the way, and the saved copy with its
notice and the offline page pass axe-core's WCAG 2 A and AA checks.

Service workers need a secure context: the live server is on localhost, which Chromium counts
as one over plain http.
"""

from urllib.parse import urlsplit

from playwright.sync_api import expect

from core.offline import user_key
from tests.browser.flows import log_in_by_form
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import CampaignFactory, mustered_warband

# Every address kept in every cache of the worker, by cache name.
KEPT = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
  }
  return kept;
}"""

MANIFEST = """async () => {
  const link = document.querySelector("link[rel=manifest]");
  const response = await fetch(link.href);
  const manifest = await response.json();
  const sizes = [];
  for (const icon of manifest.icons) {
    const image = new Image();
    image.src = icon.src;
    await image.decode();
    sizes.push([icon.sizes, icon.purpose, image.naturalWidth + "x" + image.naturalHeight]);
  }
  return {type: response.headers.get("content-type"), manifest, sizes};
}"""


# ``wait_for_function`` evaluates a string, which the app's Content Security Policy refuses:
# these wait inside one evaluated function instead.
CONTROLLED = """async () => {
  if (!navigator.serviceWorker.controller) {
    await new Promise((done) => navigator.serviceWorker.addEventListener("controllerchange", done));
  }
  return true;
}"""
NO_USER_CACHE = """async () => {
  for (let tries = 0; tries < 200; tries++) {
    if (!(await caches.keys()).some((name) => name.startsWith("mh-user-"))) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return false;
}"""


def user_pages(kept: dict) -> set[str]:
    """Every page kept for a user (the shell's files and offline page left out)."""
    return {path for name, paths in kept.items() if name.startswith("mh-user-") for path in paths}


def test_own_roster_and_printout_readable_offline_never_another_players(live_server, chromium):
    campaign = CampaignFactory(name="Siege")
    mine = mustered_warband(campaign=campaign, name="Reavers")
    theirs = mustered_warband(campaign=campaign, name="Scourge")
    assert urlsplit(live_server.url).hostname in ("localhost", "127.0.0.1")  # secure context
    roster, printout = f"/warbands/{mine.pk}/", f"/warbands/{mine.pk}/print/"
    their_roster = f"/warbands/{theirs.pk}/"
    context = chromium.new_context(viewport={"width": 412, "height": 900})
    csp: list[str] = []
    page = log_in_by_form(context, live_server, mine.owner)
    watch_csp(page, csp)

    # Installable: the manifest parses, with its icons at the sizes they claim.
    found = page.evaluate(MANIFEST)
    assert found["type"] == "application/manifest+json"
    manifest = found["manifest"]
    assert (manifest["name"], manifest["start_url"], manifest["display"]) == (
        "Mordheim Campaigns", "/", "standalone",
    )  # fmt: skip
    assert sorted(found["sizes"]) == [
        ["192x192", "any", "192x192"], ["512x512", "any", "512x512"],
        ["512x512", "maskable", "512x512"],
    ]  # fmt: skip
    assert page.evaluate(CONTROLLED)

    # Online: his roster and printout are kept; the opponent's roster and his treasury not.
    for path in (roster, printout, their_roster, f"/warbands/{mine.pk}/treasury/", roster):
        page.goto(live_server.url + path)
    kept = page.evaluate(KEPT)
    assert user_pages(kept) == {roster, printout}
    # His copies are under his opaque key, which the page's meta tag names, never his name.
    key = page.locator("meta[name=offline-user]").get_attribute("content")
    assert [name for name in kept if name.startswith("mh-user-")] == [f"mh-user-{key}"]
    assert key == user_key(mine.owner) and mine.owner.username not in key
    assert any("/static/css/app.css" in paths for paths in kept.values())

    # The network goes: the page says so and holds its forms back.
    context.set_offline(True)
    notice = page.locator("#offline-notice")
    expect(notice).to_contain_text("You are offline")
    expect(page.get_by_role("button", name="Log out")).to_be_disabled()

    # Offline: the saved roster and printout, each with its notice; anything else, the
    # offline page, which lists what is saved.
    page.goto(live_server.url + roster)
    expect(notice).to_contain_text("You are offline: this is the copy saved at")
    expect(notice).to_contain_text("changes need the network")
    violations = axe_violations(page)
    expect(page.locator("main h1").first).to_contain_text("Reavers")
    page.goto(live_server.url + printout)
    expect(page.locator(".offline-notice")).to_contain_text("this is the copy saved at")
    expect(page.locator("main h1")).to_contain_text("Reavers")
    page.goto(live_server.url + their_roster)
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    assert "Scourge" not in page.content()
    saved = page.locator("[data-offline-copies] a")
    expect(saved).to_have_count(2)
    violations += axe_violations(page)
    expect(page.get_by_text("battle helper", exact=False)).to_be_visible()

    # Back online, log out: every kept page goes.
    context.set_offline(False)
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/accounts/login/")
    assert page.evaluate(NO_USER_CACHE)
    assert user_pages(page.evaluate(KEPT)) == set()

    # The next user of the same browser, offline, cannot read the first one's roster.
    other = log_in_by_form(context, live_server, theirs.owner)
    watch_csp(other, csp)
    assert other.evaluate(CONTROLLED)
    other.goto(live_server.url + their_roster)
    assert user_pages(other.evaluate(KEPT)) == {their_roster}
    context.set_offline(True)
    other.goto(live_server.url + roster)
    expect(other.get_by_role("heading", name="You are offline")).to_be_visible()
    assert "Reavers" not in other.content()
    other.goto(live_server.url + their_roster)
    expect(other.locator("#offline-notice")).to_contain_text("this is the copy saved at")
    context.close()
    assert csp == [] and violations == []
