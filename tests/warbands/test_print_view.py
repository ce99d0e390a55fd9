"""The printout for the table: who may open it, what it never shows (the
treasury, unless the owner asks for his private copy), and what it costs in queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Membership
from tests.factories import (
    MembershipFactory,
    UserFactory,
    WarbandFactory,
    change_secrets,
    finish,
    hide_secrets,
    hire,
    mustered_warband,
)
from tests.secrets import assert_unchanged_by_secrets, contains_value
from tests.sharing import per_test, shared_per_module
from warbands.models import Injury, Skill, WarbandType, WarriorSkill

pytestmark = pytest.mark.django_db

# Fifteen models of a list with many special rules: (type, models, items).
ORC_MOB = [
    ("orc_boss", 1, ["sword", "light_armour", "helmet"]),
    ("orc_shaman", 1, ["axe"]),
    ("orc_big_un", 1, ["axe", "shield"]),
    ("orc_big_un", 1, ["club", "helmet", "bow"]),
    ("orc_boy", 3, ["axe", "shield"]),
    ("goblin_warrior", 4, ["short_bow", "dagger"]),
    ("cave_squig", 3, []),
    ("troll", 1, []),
]
KISLEVITES = [
    ("druzhina_captain", 1, ["sword", "light_armour", "helmet"]),
    ("esaul", 1, ["axe", "shield", "bow"]),
    ("bear_tamer", 1, ["morning_star", "helmet"]),
    ("youth", 1, ["spear"]),
    ("youth", 1, ["short_bow", "dagger"]),
    ("warrior", 4, ["axe", "shield"]),
    ("cossack", 3, ["spear", "bow"]),
    ("streltsi", 2, ["handgun", "halberd"]),
    ("trained_bear", 1, []),
]
# The most cards fifteen models make: six heroes, nine henchmen "groups" of one.
SINGLES = [
    ("druzhina_captain", 1, ["sword", "light_armour", "helmet", "pistol"]),
    ("esaul", 1, ["axe", "shield", "bow", "helmet"]),
    ("bear_tamer", 1, ["morning_star", "helmet", "buckler"]),
    ("youth", 1, ["spear", "throwing_knives"]),
    ("youth", 1, ["short_bow", "mace"]),
    *[("warrior", 1, ["axe", "shield"])] * 3,
    *[("cossack", 1, ["spear", "bow"])] * 3,
    *[("streltsi", 1, ["handgun", "halberd"])] * 3,
    ("trained_bear", 1, []),
]
PLANS = {
    "orc_mob": ("orc_mob", ORC_MOB),
    "kislevites": ("kislevites", KISLEVITES),
    "kislevites in singles": ("kislevites", SINGLES),
}
SKILLS = ["strike_to_injure", "step_aside", "mighty_blow", "resilient", "dodge", "sprint"]


def printout_warband(plan: str = "orc_mob", **kwargs):
    """A mustered warband of fifteen models through the real services (heroes with two skills,
    one with a serious injury and experience, henchmen groups with experience), with the
    distinctive treasure of ``hide_secrets`` in its chest. Returns (warband, secrets)."""
    list_key, warriors = PLANS[plan]
    list_type = WarbandType.objects.get(key=list_key)
    warband = WarbandFactory(warband_type=list_type, gold_crowns=1000, **kwargs)
    for n, (type_key, models, items) in enumerate(warriors):
        name = f"{type_key.replace('_', ' ').title()} {n}"
        hire(warband, type_key, models=models, items=items, name=name)
    finish(warband)
    heroes = list(warband.warriors.filter(is_hero=True).order_by("pk"))
    for n, hero in enumerate(heroes):
        for key in SKILLS[n % 3 * 2 : n % 3 * 2 + 2]:
            WarriorSkill.objects.create(warrior=hero, skill=Skill.objects.filter(key=key).first())
    Injury.objects.create(warrior=heroes[0], name="Leg wound", effect="Leg wound: -1 Movement")
    warband.warriors.filter(pk=heroes[0].pk).update(experience=31)
    henchmen = warband.warriors.filter(is_hero=False, warrior_type__gains_experience=True)
    henchmen.update(experience=3)
    return warband, hide_secrets(warband)


def _url(warband, **query) -> str:
    url = reverse("warband_print", args=[warband.pk])
    return url + ("?treasury=1" if query.get("treasury") else "")


def _client(client, user):
    client.force_login(user)
    return client


def _opponent(warband):
    return MembershipFactory(campaign=warband.campaign).user


def _organiser(warband, *, sees_secrets=False):
    Campaign.objects.filter(pk=warband.campaign_id).update(organiser_sees_secrets=sees_secrets)
    warband.campaign.refresh_from_db()
    return MembershipFactory(campaign=warband.campaign, is_organiser=True).user


def _shows_any(text: str, secrets) -> list:
    return [value for value in secrets if contains_value(text, value)]


@pytest.fixture(scope="module")
def _sheet_built(request, django_db_setup, django_db_blocker):
    yield from shared_per_module(request, django_db_blocker, printout_warband)


@pytest.fixture
def sheet(_sheet_built, db):
    """The Orc Mob of ``printout_warband`` and its secrets, built once for the module; each
    test starts from it as built."""
    return per_test(_sheet_built, printout_warband)


def test_print_anonymous_goes_to_log_in(client, sheet):
    warband, _ = sheet
    response = client.get(_url(warband))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_print_stranger_gets_404(client, sheet):
    warband, _ = sheet
    assert _client(client, UserFactory()).get(_url(warband)).status_code == 404


def test_print_refuses_post(client, sheet):
    warband, _ = sheet
    assert _client(client, warband.owner).post(_url(warband)).status_code == 405


def test_print_shows_every_warrior_with_rules_and_no_treasury_to_the_owner(client, sheet):
    warband, secrets = sheet
    response = _client(client, warband.owner).get(_url(warband))
    text = response.content.decode()
    assert response.status_code == 200
    assert text.count('data-testid="printed-warrior"') == 8  # 15 models: 4 heroes, 4 groups
    for name in ("Orc Boss 0", "Troll 7", "Animosity", "Mighty Blow", "Leg wound"):
        assert name in text
    assert "Special rules of the Orc Mob" in text
    assert "-1 Movement" in text  # the injury's short form
    assert 'data-testid="private-copy"' in text  # the owner is offered his private copy
    assert _shows_any(text, secrets) == []
    for word in ("Treasure Chest", "Large Sack", "wyrdstone", "Treasury"):
        assert word not in text


def test_print_private_copy_shows_the_treasury_to_the_owner(client, sheet):
    warband, secrets = sheet
    text = _client(client, warband.owner).get(_url(warband, treasury=True)).content.decode()
    assert _shows_any(text, secrets) == secrets
    assert 'data-testid="private-note"' in text
    assert "Treasure Chest" in text


@pytest.mark.parametrize("treasury", [False, True])
def test_print_opponent_never_gets_the_treasury(client, sheet, treasury):
    warband, secrets = sheet
    opponent = _opponent(warband)
    response = _client(client, opponent).get(_url(warband, treasury=treasury))
    text = response.content.decode()
    assert response.status_code == 200
    assert _shows_any(text, secrets) == []
    assert 'data-testid="private-copy"' not in text
    assert 'data-testid="treasury"' not in text


@pytest.mark.parametrize("sees_secrets", [False, True])
def test_print_organiser_gets_the_treasury_only_when_the_campaign_says_so(
    client, sheet, sees_secrets
):
    warband, secrets = sheet
    organiser = _organiser(warband, sees_secrets=sees_secrets)
    text = _client(client, organiser).get(_url(warband, treasury=True)).content.decode()
    assert _shows_any(text, secrets) == (secrets if sees_secrets else [])


@pytest.mark.parametrize("who", ["owner", "opponent"])
def test_print_copy_for_the_table_does_not_depend_on_the_treasury(client, who):
    warband = mustered_warband()
    hide_secrets(warband)
    user = warband.owner if who == "owner" else _opponent(warband)
    _client(client, user)
    assert_unchanged_by_secrets(
        lambda: client.get(_url(warband)).content.decode(), lambda: change_secrets(warband)
    )


def test_print_roster_links_to_it(client):
    warband = mustered_warband()
    text = _client(client, warband.owner).get(reverse("warband_roster", args=[warband.pk]))
    assert _url(warband) in text.content.decode()


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("treasury", [False, True])
def test_print_query_count_does_not_grow_with_the_roster(client, treasury):
    small = mustered_warband()
    large, _ = printout_warband("kislevites")
    Membership.objects.get_or_create(campaign=large.campaign, user=small.owner)
    large.owner = small.owner  # one user reading both, so only the roster differs
    large.save(update_fields=["owner"])
    client.force_login(small.owner)
    counts = [_queries(client, _url(w, treasury=treasury)) for w in (small, large)]
    assert counts[0] == counts[1]
    assert counts[1] <= 12
