"""The printout for the table in Chromium's print to PDF: a warband of
fifteen on at most two A4 pages, no treasury value on the copy for the table, the treasury on
the owner's private copy and never on an opponent's; no axe-core WCAG 2 A or AA violation and
no Content Security Policy report, at desktop and phone widths."""

import re

import pytest

from tests.browser.flows import log_in_page
from tests.browser.test_hardening import axe_violations, watch_csp
from tests.factories import MembershipFactory
from tests.secrets import contains_value
from tests.warbands.test_print_view import printout_warband

# A PDF's page objects: "/Type /Page", not "/Type /Pages" (the page tree).
PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def printed(page, live_server, warband, *, private: bool = False) -> tuple[str, int]:
    """The sheet's text as the browser shows it, and its number of A4 pages in the PDF."""
    url = f"{live_server.url}/warbands/{warband.pk}/print/" + ("?treasury=1" if private else "")
    page.goto(url)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    page.emulate_media(media="screen")
    return page.inner_text("body"), len(PAGE_OBJECT.findall(pdf))


@pytest.mark.parametrize("plan", ["orc_mob", "kislevites", "kislevites in singles"])
def test_printout_of_fifteen_fits_two_a4_pages_without_the_treasury(live_server, page, plan):
    warband, secrets = printout_warband(plan)
    assert sum(w.group_size for w in warband.warriors.all()) == 15
    log_in_page(page, live_server, warband.owner)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    page.get_by_role("link", name="Print the roster").click()
    page.wait_for_url(f"**/warbands/{warband.pk}/print/")

    text, pages = printed(page, live_server, warband)
    assert 1 <= pages <= 2
    assert [value for value in secrets if contains_value(text, value)] == []
    assert "Rules at hand" in text
    assert f"Special rules of the {warband.warband_type.name}" in text

    text, pages = printed(page, live_server, warband, private=True)
    assert [value for value in secrets if contains_value(text, value)] == secrets
    assert pages <= 2

    page.get_by_test_id("with-charts").click()  # the post-battle charts: a sheet of their own
    page.wait_for_url("**/print/?charts=1*")
    page.get_by_text("The serious injuries chart (D66)").wait_for()
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
    assert len(PAGE_OBJECT.findall(pdf)) == pages + 1
    assert "The serious injuries chart (D66)" in page.inner_text("body")


def test_printout_passes_axe_and_the_content_security_policy(live_server, page):
    warband, _ = printout_warband("orc_mob")
    csp: list[str] = []
    watch_csp(page, csp)
    log_in_page(page, live_server, warband.owner)
    violations = []
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 900})
        for query in ("", "?treasury=1"):
            page.goto(f"{live_server.url}/warbands/{warband.pk}/print/{query}")
            violations += axe_violations(page)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{width}px wide{query}: {overflow}px too wide"
    assert violations == []
    assert csp == []


def test_printout_opponent_asking_for_the_private_copy_gets_none(live_server, page):
    warband, secrets = printout_warband("orc_mob")
    opponent = MembershipFactory(campaign=warband.campaign).user
    log_in_page(page, live_server, opponent)
    text, pages = printed(page, live_server, warband, private=True)
    assert [value for value in secrets if contains_value(text, value)] == []
    assert "Treasury" not in text
    assert pages <= 2
