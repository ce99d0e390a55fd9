"""The player's and organiser's guides: readable by anybody, each section
under a fixed id, and every "?" link or hint on the pages where a question arises leads to an
id that exists."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from campaign import co_organisers
from tests.factories import UserFactory
from tests.helpers import reported

pytestmark = pytest.mark.django_db

# What each guide must cover, by the ids other pages (and people) link to.
PLAYER_IDS = {
    "join-code", "mustering", "reporting", "your-side", "battle-helper", "post-battle",
    "treasury", "organiser", "account", "mayhem-in-mordheim", "rout-order", "underdog-bonus",
    "out-of-action",
    *(f"step-{n}" for n in range(11)),
}  # fmt: skip
ORGANISER_IDS = {
    "start-campaign", "inviting", "campaign-options", "option-carried-items",
    "option-quartermaster", "option-organiser-sees-secrets", "option-random-fortune",
    "random-fortune", "recording", "corrections", "members", "powers", "closing", "schedule",
}  # fmt: skip


class Links(HTMLParser):
    """The ids and the link targets of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.append(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])


def parsed(response) -> Links:
    links = Links()
    links.feed(response.content.decode())
    return links


def guide_links(response) -> list[tuple[str, str]]:
    """(path, fragment) of every link from the page into a guide."""
    found = []
    for href in parsed(response).hrefs:
        url = urlsplit(href)
        if url.path.startswith("/guide/"):
            found.append((url.path, url.fragment))
    return found


@pytest.mark.parametrize(("name", "ids"), [("guide_player", PLAYER_IDS),
                                           ("guide_organiser", ORGANISER_IDS)])  # fmt: skip
@pytest.mark.parametrize("logged_in", [False, True])
def test_guide_answers_everybody_with_every_section(client, name, ids, logged_in):
    if logged_in:
        client.force_login(UserFactory())

    response = client.get(reverse(name))

    assert response.status_code == 200
    page = parsed(response)
    assert ids <= set(page.ids), ids - set(page.ids)
    assert len(page.ids) == len(set(page.ids)), "an id used twice"


def test_guide_refuses_a_post(client):
    assert client.post(reverse("guide_player")).status_code == 405


@pytest.mark.parametrize(("name", "other"), [("guide_player", "guide_organiser"),
                                             ("guide_organiser", "guide_player")])  # fmt: skip
def test_guide_links_land_on_sections_and_the_other_guide(client, name, other):
    page = parsed(client.get(reverse(name)))
    fragments = [urlsplit(h).fragment for h in page.hrefs if h.startswith("#")]

    assert fragments and set(fragments) <= set(page.ids)
    assert reverse(other) in {urlsplit(h).path for h in page.hrefs}


def test_the_footer_links_the_guides(client):
    assert (reverse("guide_player"), "") in guide_links(client.get(reverse("login")))


def pages_with_help(duel) -> dict[str, tuple[object, str, str]]:
    """Each page where a question arises: (who opens it, its URL, the id it must link to)."""
    campaign, reavers = duel["campaign"], duel["reavers"]
    battle = reported(duel)
    invited = UserFactory(username="marshal")
    co_organisers.invite_co_organiser(campaign, actor=duel["organiser"], username="marshal")
    return {
        "join": (reavers.owner, reverse("join"), "join-code"),
        "join_link": (
            UserFactory(), reverse("join_link", args=[campaign.join_code]), "join-code"
        ),
        "campaign_create": (reavers.owner, reverse("campaign_create"), "campaign-options"),
        "campaign_settings": (
            duel["organiser"], reverse("campaign_settings", args=[campaign.pk]),
            "campaign-options",
        ),
        "campaign_settings_powers": (
            duel["organiser"], reverse("campaign_settings", args=[campaign.pk]), "powers",
        ),
        "dashboard_invitation": (invited, reverse("dashboard"), "powers"),
        "battle_report": (reavers.owner, reverse("battle_report", args=[campaign.pk]),
                          "rout-order"),
        "battle_report_hint": (reavers.owner, reverse("battle_report", args=[campaign.pk]),
                               "reporting"),
        "battle_record": (duel["organiser"], reverse("battle_record", args=[campaign.pk]),
                          "rout-order"),
        "battle_side": (
            reavers.owner, reverse("battle_side", args=[battle.pk, reavers.pk]), "your-side"
        ),
        "warband_treasury": (reavers.owner, reverse("warband_treasury", args=[reavers.pk]),
                             "treasury"),
    }  # fmt: skip


def test_each_page_links_its_question_to_an_existing_section(client, duel):
    guides = {}
    for page, (user, url, expected) in pages_with_help(duel).items():
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200, page
        targets = guide_links(response)
        assert any(fragment == expected for _, fragment in targets), (page, targets)
        for path, fragment in targets:
            if path not in guides:
                guides[path] = set(parsed(client.get(path)).ids)
            assert not fragment or fragment in guides[path], (page, path, fragment)
