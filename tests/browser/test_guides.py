"""In Chromium: a visitor who is not logged in reaches the guides from the footer, follows the
contents to a section, and neither guide has an axe-core WCAG 2 A or AA violation, at desktop
and phone widths."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_hardening import axe_violations


@pytest.mark.parametrize("width", [1280, 360])
def test_guides_are_reached_from_the_footer_and_pass_axe(live_server, chromium, width):
    context = chromium.new_context(viewport={"width": width, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()

    page.goto(live_server.url + "/accounts/login/")
    page.locator("footer").get_by_role("link", name="Guides").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Player's guide")
    violations = axe_violations(page)
    page.get_by_role("navigation", name="On this page").get_by_role("link", name="Terms").click()
    assert page.url.endswith("/guide/#terms")
    expect(page.locator("#rout-order")).to_be_in_viewport()
    page.locator("main").get_by_role("link", name="organiser's guide").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Organiser's guide")
    violations += axe_violations(page)

    assert not violations, "\n".join(violations)
    context.close()
