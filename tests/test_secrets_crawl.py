"""Secrets never leak: a crawler logs in as every member of the demo campaign who is not a
warband's owner, follows every link and htmx endpoint it can reach (pages, partials, exports,
feeds, forms posted empty, error pages) and looks for that warband's secret values. After a
capture, the captor sees the captured container's contents and nobody else does. After
captives of the battle helper's game are sold, ransomed and priced, the slavers' price is the
captor's alone and a ransom the two players': the battle page and the helper tell the
others only what became of each hero.

Corrections keep secrets too: the league has a correction request waiting and an item a
correction added lying in a warband's secret strongbox. A correction's reason (the owner's
and the organisers') reaches nobody else: the feed says what a correction changed, never why.

A crawl of the league as seeded is the same for every test that starts from it (each post is
rolled back, and drawing a page never writes): it is sent once for the module and read by
every test that asks for it (``Crawls``); so is the crawl after a capture and the captives'
deals, read by the two tests about them. The crawler itself is ``tests.crawler``.
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from battles.captives import fates as captive_fates
from battles.captives import ransom
from battles.dice import dice_for
from battles.helper import end
from battles.models import Battle, Captive
from tests.crawler import crawl, leaks, ordering, requests
from tests.secrets import contains_value
from tests.sharing import built_once
from warbands import corrections, treasury
from warbands.models import Item, LedgerEntry, StorageContainer, Warband, Warrior

pytestmark = pytest.mark.django_db
REASON = "ReasonZQ7"  # in the reasons of the first warband's corrections


def test_a_number_is_a_leak_wherever_it_is_shown_but_not_as_an_id():
    ids = '<option value="1557">Chest</option><option value="container:1557">Chest</option>'
    hidden = '<input type="hidden" name="warrior" value="1557">'
    assert not leaks({"ids": ids + hidden}, ["1557"])
    for shown in (
        "<p>1557 gc</p>",
        '<input type="number" name="gold" value="1557">',
        '<input type="number" max="1557">',
        "<option>Chest (1557 gc)</option>",
    ):
        assert leaks({"shown": ids + shown}, ["1557"]) == ["'1557' in shown"], shown
    assert leaks({"label": '<option value="Strongbox1ZV">'}, ["Strongbox1ZV"])  # not a number


def test_a_secret_number_is_found_in_a_page_but_not_as_an_id():
    for shown in ("<p>214 gc</p>", '<input type="number" name="gold" value="214">', ">214<"):
        assert contains_value(shown, 214), shown
    for named in (
        '<input type="hidden" name="fighter" value="214">',
        '<option value="214">Scout</option>',
        "/warriors/214/",
        'id="fighter-214"',
    ):
        assert not contains_value(named, 214), named
    assert contains_value('<option value="Heirloom214">', "Heirloom214")  # not a number


def test_the_crawl_reads_one_ordering_of_a_table_and_every_other_query():
    won, rating = ordering("/c/1/?sort=won&dir=desc"), ordering("/c/1/?dir=asc&sort=rating")
    assert won == rating != ordering("/c/1/")
    assert ordering("/c/1/?sort=won&page=2") != won  # another page of the table is read too
    assert ordering("/c/1/?page=2") == "/c/1/?page=2"


def give_secrets(warband: Warband, index: int) -> list[str]:
    """A distinctive treasury: a labelled chest holding a named heirloom, and a total of gold
    no page would show by chance."""
    token = f"Heirloom{index}QX{warband.pk}"
    label = f"Strongbox{index}ZV"
    chest = StorageContainer.objects.create(warband=warband, kind="treasure_chest", label=label)
    treasury.add_item(chest, item=None, name=token, reason=LedgerEntry.Reason.INCOME)
    target = 1000 + 137 * index + 9
    while (held := treasury.totals(warband)["gold"]) < target:
        box = StorageContainer.objects.create(warband=warband, kind="treasure_chest")
        treasury.add_treasure(box, gold=min(100, target - held), reason=LedgerEntry.Reason.INCOME)
    return [token, label, str(target)]


def seed_with_secrets() -> dict[int, list[str]]:
    """The demo league, each warband given its secrets: {warband pk: its secret values}."""
    with override_settings(DEBUG=True):  # seed_demo refuses to run without it
        call_command("seed_demo", stdout=io.StringIO())
    warbands = Warband.objects.order_by("pk")
    return {w.pk: give_secrets(w, i) for i, w in enumerate(warbands, start=1)}


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
    """The league is seeded once for the module (``tests.sharing.built_once``): each test
    starts from it as seeded, what the test before it wrote (a capture) rolled back."""
    yield from built_once(django_db_blocker, seed_with_corrections)


class Crawls:
    """The crawls of the league as seeded, each sent once for the module: every member's
    (``members``) and the organiser's posting every form (``organiser_posting``). A test that
    changes the league before it crawls calls ``crawl`` itself. The tests that read one crawl
    stand next to each other: ``make test``'s workers steal tests from the end of each other's
    queue, and a worker that got only some of them sends the crawl again (as each worker does
    when the module straddles the middle of the suite, where the workers' halves meet)."""

    def __init__(self) -> None:
        self._members: dict[str, dict[str, str]] | None = None
        self._posting: tuple[str, dict[str, str]] | None = None
        self._taken: tuple[dict[str, dict[str, str]], dict] | None = None

    def members(self, client, users) -> dict[str, dict[str, str]]:
        """{username: what the member's crawl read}."""
        if self._members is None:
            self._members = {name: crawl(client, user) for name, user in users.items()}
        return self._members

    def after_taking(self, client, league) -> tuple[dict[str, dict[str, str]], dict]:
        """Every member's crawl after a capture and the captives of the helper game
        (``taking``), sent once for both tests that read it: {username: what it read}, and
        what was taken. The change is rolled back with the test that sent the crawl."""
        if self._taken is None:
            taken = taking(league)
            self._taken = {name: crawl(client, user) for name, user in league[2].items()}, taken
        return self._taken

    def organiser_posting(self, client, organiser) -> tuple[str, dict[str, str]]:
        """The organiser's crawl posting every form, after a finished step was made impossible
        to reopen (``reopening_the_treasury_refuses``); and the name that refusal would tell.
        The change is rolled back with the test that sent the crawl."""
        if self._posting is None:
            name = reopening_the_treasury_refuses()
            self._posting = name, crawl(client, organiser, filled=True)
        return self._posting


@pytest.fixture(scope="module")
def crawls() -> Crawls:
    return Crawls()


@pytest.fixture
def league(seeded):
    """The seeded league's warbands, their secrets and its members, read afresh for the test.
    Pages are drawn as a league's server draws them, with DEBUG off (seeding alone needs it
    on): its error pages are the app's own."""
    warbands = list(Warband.objects.order_by("pk"))
    users = {u.username: u for u in get_user_model().objects.exclude(username="admin")}
    return warbands, seeded, users


def test_no_member_ever_sees_another_warbands_treasury(client, league, crawls):
    warbands, secrets, users = league
    pages = 0
    for name, user in users.items():
        seen = crawls.members(client, users)[name]
        pages += len(seen)
        others = [s for w in warbands if w.owner_id != user.pk for s in secrets[w.pk]]
        assert not leaks(seen, others), leaks(seen, others)[:10]
        own = [s for w in warbands if w.owner_id == user.pk for s in secrets[w.pk]]
        if own:  # the crawler reaches the owner's own treasury, where they are shown
            assert all(any(s in body for body in seen.values()) for s in own)
    assert pages > 200


def test_no_member_learns_another_warbands_secrets_or_a_corrections_reason(
    client, league, crawls, record_property
):
    warbands, secrets, users = league
    crawled = 0
    first = warbands[0]
    organisers = set(
        first.campaign.memberships.filter(is_organiser=True).values_list("user", flat=True)
    )
    for name, user in users.items():
        seen = crawls.members(client, users)[name]
        crawled += len(seen)
        others = [s for w in warbands if w.owner_id != user.pk for s in secrets[w.pk]]
        assert not leaks(seen, others), leaks(seen, others)[:10]
        reads = user.pk == first.owner_id or user.pk in organisers
        assert any(REASON in body for body in seen.values()) == reads, user.username
    record_property("crawled", crawled)  # in --junitxml reports: the answers read
    assert crawled > 200
    owner_pages = crawls.members(client, users)[first.owner.username]
    assert any("Halberd (added by correction)" in body for body in owner_pages.values())
    strongbox = StorageContainer.objects.get(warband=first, label__startswith="Strongbox")
    assert strongbox.stored_items.filter(correction__isnull=False).exists()


def taking(league) -> dict:
    """The first warband's strongbox captured by the second, and the helper game's captives
    dealt with (``captives_of_the_helper_game``): two changes that touch different warbands'
    secrets, so one crawl of the league after both serves the two tests that follow."""
    warbands, secrets, _ = league
    loser, captor = warbands[0], warbands[1]
    strongbox = loser.containers.get(label__startswith="Strongbox")
    treasury.capture_container(strongbox, captor)
    battle, told = captives_of_the_helper_game()
    return {"loser": loser, "captor": captor, "secrets": secrets[loser.pk][:2],
            "battle": battle.pk, "told": told}  # fmt: skip


def test_after_a_capture_only_the_captor_sees_inside(client, league, crawls):
    _, _, users = league
    seen, taken = crawls.after_taking(client, league)
    loser, captor = taken["loser"], taken["captor"]
    heirloom, label = taken["secrets"]

    assert any(heirloom in body for body in seen[captor.owner.username].values())
    for name, user in users.items():
        if user.pk in (captor.owner_id, loser.owner_id):
            continue
        assert not leaks(seen[name], [heirloom, label]), name


def reopening_the_treasury_refuses() -> str:
    """Make a finished post-battle step of the demo impossible to reopen, as play makes it:
    an item the step stored has left its container since (sold by its owner). The
    container gets a name of its own, which the treasury's refusal would tell; returned."""
    entry = (
        LedgerEntry.objects.filter(
            kind=LedgerEntry.Kind.ITEM, amount__gt=0, step__gte=1, reverses=None,
            battle__isnull=False,
        )
        .exclude(container__kind=StorageContainer.LOOSE)
        .select_related("container")
        .order_by("-pk")
        .first()
    )  # fmt: skip
    assert entry is not None, "the demo stores an item in a post-battle step"
    stored = entry.container.stored_items.filter(name=entry.item_name).first()
    treasury.remove_item(stored, reason=LedgerEntry.Reason.SALE)
    name = f"Cache{entry.container_id}QZ"
    StorageContainer.objects.filter(pk=entry.container_id).update(label=name)
    return name


def test_the_organiser_who_may_not_see_secrets_learns_none_even_posting_every_form(
    client, league, crawls
):
    """With "organiser sees secrets" off, the organiser reaches every page and posts every
    form as the page fills it (confirming, recording, declaring, rolling, reopening steps:
    each undone after its answer); no answer holds a warband's secret, not even the refusal
    to reopen a step whose treasure has moved on."""
    warbands, secrets, users = league
    organiser = users["organiser"]
    assert not warbands[0].campaign.organiser_sees_secrets
    assert not any(w.owner_id == organiser.pk for w in warbands)

    name, seen = crawls.organiser_posting(client, organiser)

    everything = [s for w in warbands for s in secrets[w.pk]] + [name]
    assert not leaks(seen, everything), leaks(seen, everything)[:10]
    reopened = [where for where in seen if "/reopen/" in where]
    assert reopened, "the crawl reached the organiser's reopen forms"
    assert any(
        "That step cannot be reopened: later treasury changes depend on it." in seen[where]
        for where in reopened
    )


def test_the_organiser_posting_every_correction_form_learns_no_secret(
    client, league, crawls, record_property
):
    warbands, secrets, users = league
    organiser = users["organiser"]
    assert not warbands[0].campaign.organiser_sees_secrets

    _, seen = crawls.organiser_posting(client, organiser)
    record_property("crawled", len(seen))

    everything = [s for w in warbands for s in secrets[w.pk]]
    assert not leaks(seen, everything), leaks(seen, everything)[:10]
    assert any("/decide/" in where for where in seen), "the crawl reached the decision forms"
    assert any("/corrections/new/" in where for where in seen)


def _taken(warband: Warband, name: str, captor: Warband, battle: Battle) -> Captive:
    warrior = warband.warriors.get(name=name)
    Warrior.objects.filter(pk=warrior.pk).update(status=Warrior.Status.CAPTURED)
    return Captive.objects.create(warrior=warrior, captor=captor, battle=battle)


def captives_of_the_helper_game() -> tuple[Battle, dict[str, str]]:
    """The demo's game under way (the Grey Scourge against Von Carstein's Get) ends, and its
    captives are dealt with: the Scourge sell Hunch to the slavers (a 4: 20 gc) and take a
    ransom of 73 gc for Igor; the Get ask 1379 gc for Snikch. The battle and what each deal
    leaves where it may be read: {what: the text}."""
    battle = Battle.objects.get(game__isnull=False, status=Battle.Status.PLAYING)
    scourge = Warband.objects.get(name="The Grey Scourge")
    get = Warband.objects.get(name="Von Carstein's Get")
    bob, dave = scourge.owner, get.owner
    end.end_game(battle.pk, actor=bob, winner_id=scourge.pk)
    sold = _taken(get, "Hunch", scourge, battle)
    chest = StorageContainer.objects.create(warband=scourge, kind="treasure_chest")
    dice = dice_for(battle, entered="4", warband=scourge, user=bob)
    captive_fates.decide_fate(sold, actor=bob, fate="sold", into=chest, dice=dice)
    ransomed = _taken(get, "Igor", scourge, battle)
    ransom.set_ransom(ransomed, actor=bob, ransom=73, into=chest)
    purse = get.containers.held().filter(gold_crowns__gte=73).exclude(kind="loose").first()
    ransom.pay_ransom(ransomed, actor=dave, pay_from=purse, amount=73)
    asked = _taken(scourge, "Snikch", get, battle)
    box = StorageContainer.objects.create(warband=get, kind="treasure_chest")
    ransom.set_ransom(asked, actor=dave, ransom=1379, into=box)
    return battle, {
        "the slavers' price": "Hunch sold for 20 gc",
        "the ransom paid": "73 gc",
        "the ransom asked": "1379",
    }


def test_after_captives_prices_are_the_captors_and_ransoms_the_two_players(
    client, league, crawls, record_property
):
    """Crawled as the captive's own player (the Get's, who learns Hunch is gone, not for how
    much), another player and the organiser who may not see secrets; and, to show that the
    crawl reads the battle page and the helper, as the captor, who finds his price there."""
    crawled_as, taken = crawls.after_taking(client, league)
    battle = Battle.objects.get(pk=taken["battle"])
    price, paid, asked = taken["told"].values()

    captor = crawled_as["bob"]
    crawled = requests(captor)
    on_the_battle = {w: b for w, b in captor.items() if f"/battles/{battle.pk}/" in w}
    assert any(price in body for body in on_the_battle.values())
    assert any(f"/battles/{battle.pk}/play/" in where for where in captor)
    hidden = {"dave": [price], "alice": [price, paid, asked], "organiser": [price, paid, asked]}
    for name, secrets in hidden.items():
        seen = crawled_as[name]
        crawled += requests(seen)
        assert any(f"/battles/{battle.pk}/play/" in where for where in seen), name
        assert not leaks(seen, secrets), (name, leaks(seen, secrets)[:10])
        page = seen[f"/battles/{battle.pk}/"]
        assert "Hunch of Von Carstein" in page and "s Get sold to the slavers" in page, name
    record_property("requests crawled", crawled)  # in --junitxml reports
