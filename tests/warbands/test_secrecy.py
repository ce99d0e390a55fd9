"""The secret treasury, seen by everyone who is not its owner.

Every page and partial that shows a warband is fetched as the opponent before and after the
owner's treasury changes (tests/secrets.py): for anyone who may not see inside, the response
must not change at all, and the stored item's name never appears.
"""

import pytest
from django.urls import reverse

from core.errors import RuleViolation
from core.words import possessive
from tests.factories import (
    SECRET_ITEM,
    MembershipFactory,
    UserFactory,
    change_secrets,
    hide_secrets,
    mustered_warband,
)
from tests.secrets import assert_unchanged_by_secrets, contains_value
from tests.sharing import per_test, shared_per_module
from warbands import permissions, treasury
from warbands.models import StorageContainer

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def build_league() -> dict:
    """The Reavers, their secrets hidden, and the Grey Scourge in one campaign, with an
    organiser, a bystander and a stranger."""
    owner_warband = mustered_warband(name="Reavers")
    campaign = owner_warband.campaign
    opponent_warband = mustered_warband(campaign=campaign, name="Grey Scourge")
    secrets = hide_secrets(owner_warband)
    return {
        "warband": owner_warband,
        "secrets": secrets,
        "opponent": opponent_warband.owner,
        "opponent_warband": opponent_warband,
        "organiser": MembershipFactory(campaign=campaign, is_organiser=True).user,
        "bystander": MembershipFactory(campaign=campaign).user,
        "stranger": UserFactory(),
    }


@pytest.fixture(scope="module")
def _league_built(request, django_db_setup, django_db_blocker):
    yield from shared_per_module(request, django_db_blocker, build_league)


@pytest.fixture
def league(_league_built, db):
    """``build_league``, built once for the module; each test starts from it as built."""
    return per_test(_league_built, build_league)


def pages_showing(warband) -> list[tuple[str, dict]]:
    """Every GET that shows something of the warband, plain and htmx."""
    return [
        (reverse("warband_roster", args=[warband.pk]), {}),
        (reverse("warband_roster", args=[warband.pk]), HTMX),
        (reverse("warband_export", args=[warband.pk]), {}),
        (reverse("dashboard"), {}),
        (reverse("warband_treasury", args=[warband.pk]), {}),
        (reverse("warband_treasury", args=[warband.pk]), {**HTMX, "HX-Target": "ledger"}),
        (reverse("warband_muster", args=[warband.pk]), {}),
        (reverse("admin:warbands_storagecontainer_changelist"), {}),
        (reverse("admin:warbands_ledgerentry_changelist"), {}),
    ]


@pytest.mark.parametrize("role", ["opponent", "organiser", "bystander", "stranger"])
def test_nobody_but_the_owner_sees_inside_the_containers(client, league, role):
    warband = league["warband"]
    client.force_login(league[role])

    for url, headers in pages_showing(warband):
        body = client.get(url, headers=headers).content.decode()
        for secret in league["secrets"]:
            assert not contains_value(body, secret), (url, secret)
        assert_unchanged_by_secrets(
            lambda url=url, headers=headers: client.get(url, headers=headers).content.decode(),
            lambda: change_secrets(warband),
        )


@pytest.mark.parametrize(
    ("role", "status"), [("opponent", 403), ("organiser", 403), ("stranger", 404)]
)
def test_the_treasury_page_is_closed_to_others(client, league, role, status):
    client.force_login(league[role])

    response = client.get(reverse("warband_treasury", args=[league["warband"].pk]))

    assert response.status_code == status


def test_opponents_see_kind_heaviness_and_carrier_on_the_roster(client, league):
    warband = league["warband"]
    sack = warband.containers.filter(kind="large_sack", gold_crowns=50).first()
    client.force_login(league["opponent"])

    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()

    assert "Treasure Chest" in page and "Large Sack" in page
    assert 'class="badge badge-heavy">Heavy</span>' in page  # the full sacks (50 gc)
    assert sack.is_heavy
    owner = possessive(warband.owner.username)
    assert f"What is inside is {owner} secret until an enemy captures a container." in page


def test_opponents_tell_containers_alike_apart_by_number_never_by_name(client, league):
    warband = league["warband"]
    second = warband.containers.filter(kind="large_sack").order_by("pk")[1]
    treasury.name_container(second, "Tithes", actor=warband.owner)
    client.force_login(league["opponent"])

    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()

    assert all(f"Large Sack {n}" in page for n in (1, 2, 3, 4))
    assert "Tithes" not in page


@pytest.mark.parametrize("role", ["opponent", "organiser", "stranger"])
def test_nobody_else_can_touch_the_containers(client, league, role):
    warband = league["warband"]
    chest = warband.containers.get(kind="treasure_chest")
    stored = chest.stored_items.get()
    before = treasury.totals(warband), chest.stored_items.count()
    client.force_login(league[role])

    for name, data in [
        ("treasury_name", {"container": chest.pk, "label": "Ours"}),
        ("treasury_sell", {"container": chest.pk}),
        ("treasury_place", {"container": chest.pk}),
        ("treasury_move_item", {"stored_item": stored.pk, "target": chest.pk}),
        ("treasury_equip", {"stored_item": stored.pk}),
        ("treasury_store", {"target": chest.pk}),
        ("treasury_move", {"gold": 1}),
    ]:
        response = client.post(reverse(name, args=[warband.pk]), data)
        assert response.status_code in (403, 404), name
    assert (treasury.totals(warband), chest.stored_items.count()) == before
    chest.refresh_from_db()
    assert chest.label == ""


def test_an_organiser_sees_inside_only_when_the_campaign_says_so(client, league):
    warband = league["warband"]
    campaign = warband.campaign
    campaign.organiser_sees_secrets = True
    campaign.save()
    client.force_login(league["organiser"])

    page = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()
    roster = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()

    assert SECRET_ITEM in page and SECRET_ITEM in roster
    assert reverse("treasury_move", args=[warband.pk]) not in page  # read-only
    assert client.post(reverse("treasury_move", args=[warband.pk]), {}).status_code == 403


def test_the_treasury_page_says_plainly_whether_the_organisers_see_inside(client, league):
    warband = league["warband"]
    campaign = warband.campaign
    client.force_login(warband.owner)
    url = reverse("warband_treasury", args=[warband.pk])

    page = client.get(url).content.decode()
    assert "This campaign's organisers cannot see inside your containers." in page
    campaign.organiser_sees_secrets = True
    campaign.save()
    page = client.get(url).content.decode()
    assert (
        "This campaign's organisers can see inside your containers (but none who has a "
        "warband in play here)." in page
    )


def test_after_a_capture_the_captor_sees_inside_and_nobody_else_does(client, league):
    warband, captor = league["warband"], league["opponent_warband"]
    chest = warband.containers.get(kind="treasure_chest")

    treasury.capture_container(chest, captor)

    client.force_login(captor.owner)
    captor_treasury = client.get(reverse("warband_treasury", args=[captor.pk])).content.decode()
    assert SECRET_ITEM in captor_treasury
    assert f'<span data-testid="gold">{chest.gold_crowns}</span>' in captor_treasury

    # The bystander sees the captor's new chest from outside only.
    client.force_login(league["bystander"])
    for url, headers in pages_showing(captor) + pages_showing(warband):
        body = client.get(url, headers=headers).content.decode()
        assert SECRET_ITEM not in body, url
        assert_unchanged_by_secrets(
            lambda url=url, headers=headers: client.get(url, headers=headers).content.decode(),
            lambda: treasury.add_treasure(
                StorageContainer.objects.get(pk=chest.pk), gold=1, reason="income"
            ),
        )

    # The former owner no longer sees what is in the chest now; its ledger keeps the capture.
    client.force_login(warband.owner)
    own = client.get(reverse("warband_treasury", args=[warband.pk])).content.decode()
    assert f"container-{chest.pk}" not in own
    assert "Capture" in own
    # Its ledger calls the chest by its kind now: what the captor calls it is the captor's.
    assert "Treasure Chest (captured)" in own and "Treasure Chest 2" not in own
    assert_unchanged_by_secrets(
        lambda: client.get(reverse("warband_treasury", args=[warband.pk])).content.decode(),
        lambda: treasury.name_container(
            StorageContainer.objects.get(pk=chest.pk), "Prize", actor=captor.owner
        ),
    )
    assert_unchanged_by_secrets(
        lambda: client.get(reverse("warband_roster", args=[captor.pk])).content.decode(),
        lambda: treasury.add_treasure(
            StorageContainer.objects.get(pk=chest.pk), gold=1, reason="income"
        ),
    )


def test_a_treasury_refusal_reaches_only_those_who_may_see_inside(league):
    warband = league["warband"]

    def refusal_for(user) -> str:
        with (
            pytest.raises(RuleViolation) as refused,
            permissions.secret_refusals(user, warband, neutral="Refused."),
        ):
            raise RuleViolation(f"{SECRET_ITEM} is no longer in the Large Sack “Tithes”.")
        return str(refused.value)

    secret = f"{SECRET_ITEM} is no longer in the Large Sack “Tithes”."
    assert refusal_for(warband.owner) == secret
    assert refusal_for(None) == secret  # the app itself
    for role in ("organiser", "opponent", "bystander"):
        assert refusal_for(league[role]) == "Refused.", role
    warband.campaign.organiser_sees_secrets = True
    warband.campaign.save()
    assert refusal_for(league["organiser"]) == secret


def test_being_staff_shows_no_opponent_its_treasury_in_the_admin(client, league):
    """The admin goes through the same gate as the site: a site admin who plays in the league
    is the owner's opponent there, and its containers and ledger are not his to read."""
    warband, opponent = league["warband"], league["opponent"]
    opponent.is_staff = opponent.is_superuser = True
    opponent.save(update_fields=["is_staff", "is_superuser"])
    client.force_login(opponent)
    chest = warband.containers.get(kind="treasure_chest")
    urls = [
        reverse("admin:warbands_storagecontainer_changelist"),
        reverse("admin:warbands_ledgerentry_changelist"),
    ]

    for url in urls:
        response = client.get(url)
        assert response.status_code == 200
        body = response.content.decode()
        for secret in league["secrets"]:
            assert not contains_value(body, secret), (url, secret)
        assert_unchanged_by_secrets(
            lambda url=url: client.get(url).content.decode(), lambda: change_secrets(warband)
        )
    change = reverse("admin:warbands_storagecontainer_change", args=[chest.pk])
    assert client.get(change).status_code in (302, 404)  # not found: to the admin's index
    own = league["opponent_warband"].containers.get(kind="treasure_chest")
    own_page = client.get(reverse("admin:warbands_storagecontainer_change", args=[own.pk]))
    assert own_page.status_code == 200


def test_the_owner_as_staff_reads_his_own_treasury_in_the_admin(client, league):
    warband = league["warband"]
    owner = warband.owner
    owner.is_staff = owner.is_superuser = True
    owner.save(update_fields=["is_staff", "is_superuser"])
    client.force_login(owner)

    body = client.get(reverse("admin:warbands_storagecontainer_changelist")).content.decode()

    assert str(warband.containers.get(kind="treasure_chest").pk) in body
    assert "Grey Scourge" not in body
