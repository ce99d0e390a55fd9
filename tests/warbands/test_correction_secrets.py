"""Corrections keep secrets: on the seeded demo league, with a request waiting and an item a
correction added lying in a warband's secret strongbox, the crawler of ``test_secrets_crawl``
logs in as every member and reaches every page, partial and form it can (the organiser posting
every form as the page fills it: approving, refusing, correcting, each undone after its
answer). No answer holds another warband's treasury, and a correction's reason (the owner's
and the organisers') reaches nobody else: the feed says what a correction changed, never why."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.sharing import built_once
from tests.test_secrets_crawl import crawl, leaks, seed_with_secrets
from warbands import corrections, treasury
from warbands.models import Item, StorageContainer, Warband

pytestmark = pytest.mark.django_db
REASON = "ReasonZQ7"


def seed_with_corrections() -> dict[int, list[str]]:
    """The seeded league with its secrets, and corrections of its first warband: a request
    waiting (its reason private), and a halberd a correction added, stored in the strongbox."""
    secrets = seed_with_secrets()
    first = Warband.objects.order_by("pk").first()
    hero, *_ = first.warriors.on_roster().filter(is_hero=True).order_by("pk")
    henchmen = first.warriors.on_roster().filter(is_hero=False).order_by("pk").first() or hero
    corrections.add_item(henchmen, actor=first.owner, item=Item.objects.get(key="blunderbuss"),
                         reason=f"{REASON} found it")  # fmt: skip
    organiser = first.campaign.memberships.filter(is_organiser=True).first().user
    given = corrections.add_item(hero, actor=organiser, item=Item.objects.get(key="halberd"),
                                 reason=f"{REASON} ruled")  # fmt: skip
    strongbox = first.containers.get(label__startswith="Strongbox")
    treasury.store_warrior_item(hero.items.get(correction=given), strongbox, actor=first.owner)
    return secrets


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, seed_with_corrections)


@pytest.fixture
def league(settings, seeded):
    settings.DEBUG = True
    warbands = list(Warband.objects.order_by("pk"))
    users = {u.username: u for u in get_user_model().objects.exclude(username="admin")}
    return warbands, seeded, users


def test_no_member_learns_another_warbands_secrets_or_a_corrections_reason(
    client, league, record_property
):
    warbands, secrets, users = league
    crawled = 0
    first = warbands[0]
    organisers = set(
        first.campaign.memberships.filter(is_organiser=True).values_list("user", flat=True)
    )
    for user in users.values():
        seen = crawl(client, user)
        crawled += len(seen)
        others = [s for w in warbands if w.owner_id != user.pk for s in secrets[w.pk]]
        assert not leaks(seen, others), leaks(seen, others)[:10]
        reads = user.pk == first.owner_id or user.pk in organisers
        assert any(REASON in body for body in seen.values()) == reads, user.username
    record_property("crawled", crawled)  # in --junitxml reports: the answers read
    assert crawled > 200
    owner_pages = crawl(client, first.owner)
    assert any("Halberd (added by correction)" in body for body in owner_pages.values())
    strongbox = StorageContainer.objects.get(warband=first, label__startswith="Strongbox")
    assert strongbox.stored_items.filter(correction__isnull=False).exists()


def test_the_organiser_posting_every_correction_form_learns_no_secret(
    client, league, record_property
):
    warbands, secrets, users = league
    organiser = users["organiser"]
    assert not warbands[0].campaign.organiser_sees_secrets

    seen = crawl(client, organiser, filled=True)
    record_property("crawled", len(seen))

    everything = [s for w in warbands for s in secrets[w.pk]]
    assert not leaks(seen, everything), leaks(seen, everything)[:10]
    assert any("/decide/" in where for where in seen), "the crawl reached the decision forms"
    assert any("/corrections/new/" in where for where in seen)
