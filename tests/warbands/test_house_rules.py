"""House rules per campaign: which lists and hired swords a campaign allows and its starting
gold, chosen by the organiser before anyone musters, and applied wherever a warband is created
or a hired sword hired."""

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from campaign.models import Campaign, CampaignEvent
from core.errors import RuleViolation
from tests.factories import MembershipFactory, WarbandFactory, finish, hire
from warbands import hired_swords, services, treasury
from warbands.house_rules import permissions
from warbands.house_rules.services import set_house_rules
from warbands.models import HiredSwordType, HouseRules, LedgerEntry, Warband, WarbandType
from warbands.rules.house_rules import Allowance, allowance_text, refusal

pytestmark = pytest.mark.django_db

NAMES = {"norse_explorers": "Norse Explorers", "pirates": "Pirates"}
LIST_GRADES = ["1a", "1b", "1c"]


# --- The pure reading ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grades", "keys", "key", "grade", "allowed_"),
    [
        (["1a"], [], "reikland", "1a", True),
        (["1a"], [], "pirates", "1b", False),
        (["1a"], ["pirates"], "pirates", "1b", True),
        ([], ["pirates"], "reikland", "1a", False),
        ([], ["pirates"], "pirates", "1b", True),
        (["1a", "1b"], [], "night_goblins", "1c", False),
    ],
)
def test_a_list_is_allowed_by_its_grade_or_by_name(grades, keys, key, grade, allowed_):
    assert Allowance.of(grades, keys).allows(key, grade) is allowed_


def test_no_house_rules_allow_everything():
    assert Allowance(everything=True).allows("anything", "1c")
    assert allowance_text(Allowance(everything=True), kind="list", names={}) == "every list"


@pytest.mark.parametrize(
    ("grades", "keys", "text"),
    [
        (["1a"], [], "every Grade 1a list"),
        (["1a", "1b"], [], "every Grade 1a and 1b list"),
        (["1a", "1b", "1c"], [], "every list"),
        (["1a"], ["norse_explorers"], "every Grade 1a list, and Norse Explorers"),
        ([], ["pirates", "norse_explorers"], "Norse Explorers and Pirates"),
        ([], [], "no list"),
    ],
)
def test_what_house_rules_allow_in_words(grades, keys, text):
    allowance = Allowance.of(grades, keys)
    assert allowance_text(allowance, kind="list", names=NAMES, every=LIST_GRADES) == text


def test_hired_swords_of_the_rulebook_are_named_first():
    allowance = Allowance.of(["1b", "core", "1a"], [])
    text = allowance_text(allowance, kind="hired sword", names={}, every=["core", *LIST_GRADES])
    assert text == "every rulebook, Grade 1a and 1b hired sword"


def test_a_refusal_says_what_is_allowed_instead():
    allowance = Allowance.of(["1a"], ["norse_explorers"])
    assert (
        refusal(allowance, key="reikland", grade="1a", name="x", kind="list", names=NAMES) is None
    )
    said = refusal(
        allowance, key="pirates", grade="1b", name="the Pirates", kind="list", names=NAMES
    )
    assert said == (
        "This campaign's house rules do not allow the Pirates: they allow every Grade 1a list, "
        "and Norse Explorers."
    )


# --- Setting them -------------------------------------------------------------------------------


@pytest.fixture
def organiser():
    return MembershipFactory(is_organiser=True)


def choose(membership, **changes):
    values = {
        "list_grades": ["1a"],
        "list_keys": [],
        "sword_grades": ["core", "1a"],
        "sword_keys": [],
        "starting_gold": None,
    }
    values.update(changes)
    return set_house_rules(membership.campaign, actor=membership.user, **values)


def test_the_organiser_sets_the_house_rules_and_the_feed_says_so(organiser):
    house = choose(organiser, list_keys=["norse_explorers"], starting_gold=600)
    assert house.list_grades == ["1a"] and house.list_keys == ["norse_explorers"]
    assert house.starting_gold == 600
    news = CampaignEvent.objects.filter(campaign=organiser.campaign).latest("pk").message
    assert news == f"{organiser.user.username} changed the house rules."
    choose(organiser, list_grades=["1b"])
    assert HouseRules.objects.get(campaign=organiser.campaign).list_grades == ["1b"]


def test_a_player_may_not_set_the_house_rules(organiser):
    player = MembershipFactory(campaign=organiser.campaign)
    with pytest.raises(PermissionDenied):
        choose(player)
    assert not HouseRules.objects.exists()


def test_the_house_rules_are_fixed_once_a_warband_is_mustering(organiser):
    choose(organiser)
    warband = WarbandFactory(campaign=organiser.campaign, name="Early Birds")
    with pytest.raises(RuleViolation, match="Early Birds"):
        choose(organiser, list_grades=["1b"])
    assert HouseRules.objects.get().list_grades == ["1a"]
    reason = permissions.fixed_reason(
        organiser.campaign, permissions.first_warband(organiser.campaign)
    )
    assert warband.owner.username in reason


def test_a_closed_campaigns_house_rules_cannot_change(organiser):
    Campaign.objects.filter(pk=organiser.campaign_id).update(status=Campaign.Status.CLOSED)
    organiser.campaign.refresh_from_db()
    with pytest.raises(PermissionDenied):
        choose(organiser)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"list_grades": [], "list_keys": []}, "at least one warband list"),
        ({"list_keys": ["no_such_list"]}, "No such warband list: no_such_list"),
        ({"sword_keys": ["no_such_sword"]}, "No such hired sword: no_such_sword"),
        ({"starting_gold": 0}, "Starting gold runs from 1"),
        ({"starting_gold": 5001}, "Starting gold runs from 1"),
    ],
)
def test_impossible_house_rules_are_refused_and_nothing_changes(organiser, changes, message):
    with pytest.raises(RuleViolation, match=message):
        choose(organiser, **changes)
    assert not HouseRules.objects.exists()


# --- Applying them ------------------------------------------------------------------------------


def create(membership, key: str):
    return services.create_warband(
        actor=membership.user,
        campaign=membership.campaign,
        warband_type=WarbandType.objects.get(key=key),
        name="New Blood",
    )


def test_a_campaign_without_house_rules_allows_every_list_with_its_own_gold(organiser):
    warband = create(organiser, "trantios")  # a Grade 1b list of 600 gc
    assert (warband.gold_crowns, warband.starting_gold) == (600, 600)


def test_a_list_the_house_rules_leave_out_is_refused_and_nothing_is_created(organiser):
    choose(organiser, list_keys=["norse_explorers"])
    player = MembershipFactory(campaign=organiser.campaign)
    with pytest.raises(RuleViolation, match="do not allow the Pirates: they allow every Grade"):
        create(player, "pirates")
    assert not Warband.objects.exists()
    assert create(player, "norse_explorers").warband_type.key == "norse_explorers"


def test_the_house_rules_starting_gold_is_the_purse_and_the_audit_agrees(organiser):
    choose(organiser, starting_gold=650)
    warband = create(organiser, "reikland")
    assert (warband.gold_crowns, warband.starting_gold) == (650, 650)
    hire(warband, "mercenary_captain", items=["sword"])
    hire(warband, "warrior", models=2)
    purse = 650 - (60 + 10) - 2 * 25
    assert warband.gold_crowns == purse
    assert not treasury.conservation_problems()
    finish(warband)
    assert not treasury.conservation_problems()
    sacks = warband.containers.filter(kind="large_sack").count()
    started = LedgerEntry.objects.filter(
        warband=warband, reason=LedgerEntry.Reason.STARTING_TREASURY
    )
    assert sum(started.values_list("amount", flat=True)) == purse - 2 * sacks


def test_a_purse_beyond_its_starting_gold_is_found_by_the_audit(organiser):
    choose(organiser, starting_gold=650)
    warband = create(organiser, "reikland")
    Warband.objects.filter(pk=warband.pk).update(starting_gold=500)
    assert treasury.conservation_problems()


def test_a_hired_sword_the_house_rules_leave_out_is_refused_at_muster(organiser):
    choose(organiser, sword_grades=["core"], sword_keys=["roadwarden"])
    warband = create(organiser, "reikland")
    hire(warband, "mercenary_captain")
    with pytest.raises(RuleViolation, match="do not allow a Bard: they allow every rulebook"):
        hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="bard")
    assert not warband.warriors.filter(hired_sword__isnull=False).exists()
    hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="roadwarden")
    hired_swords.hire_at_muster(warband, actor=warband.owner, sword_key="ogre_bodyguard")
    offered = dict(hired_swords.hireable_swords(warband))
    assert "house rules" in offered[HiredSwordType.objects.get(key="bard")]
    assert offered[HiredSwordType.objects.get(key="halfling_scout")] is None


# --- The pages ----------------------------------------------------------------------------------


def test_the_house_rules_page_lets_the_organiser_choose_them(client, organiser):
    client.force_login(organiser.user)
    url = reverse("house_rules", args=[organiser.campaign_id])
    page = client.get(url).content.decode()
    assert "Every list." in page and 'name="list_keys"' in page
    answer = client.post(
        url,
        {"list_grades": ["1a"], "list_keys": ["pirates"], "sword_grades": ["core"],
         "starting_gold": "600"},
    )  # fmt: skip
    assert answer.status_code == 302
    page = client.get(url).content.decode()
    assert "Every Grade 1a list, and Pirates." in page
    assert "Every rulebook hired sword." in page and "600 gc for every list" in page


def test_a_form_allowing_no_list_says_so_at_the_field(client, organiser):
    client.force_login(organiser.user)
    url = reverse("house_rules", args=[organiser.campaign_id])
    answer = client.post(url, {"sword_grades": ["core"], "starting_gold": ""})
    assert answer.status_code == 422
    assert "Allow at least one grade or one list" in answer.content.decode()
    assert not HouseRules.objects.exists()


def test_players_read_the_house_rules_but_may_not_post_them(client, organiser):
    choose(organiser, list_keys=["pirates"])
    player = MembershipFactory(campaign=organiser.campaign)
    client.force_login(player.user)
    url = reverse("house_rules", args=[organiser.campaign_id])
    page = client.get(url).content.decode()
    assert "Every Grade 1a list, and Pirates." in page and 'name="list_keys"' not in page
    assert client.post(url, {"list_grades": ["1b"]}).status_code == 403
    assert HouseRules.objects.get().list_grades == ["1a"]


def test_a_stranger_sees_no_house_rules(client, organiser):
    client.force_login(MembershipFactory().user)
    assert client.get(reverse("house_rules", args=[organiser.campaign_id])).status_code == 404


def test_once_fixed_the_page_says_why_and_a_post_changes_nothing(client, organiser):
    choose(organiser)
    WarbandFactory(campaign=organiser.campaign, name="Early Birds")
    client.force_login(organiser.user)
    url = reverse("house_rules", args=[organiser.campaign_id])
    page = client.get(url).content.decode()
    assert "started mustering Early Birds" in page and 'name="list_keys"' not in page
    answer = client.post(url, {"list_grades": ["1b"], "sword_grades": ["core"]})
    assert answer.status_code == 422 and "Early Birds" in answer.content.decode()
    assert HouseRules.objects.get().list_grades == ["1a"]


def radio_of(page: str, pk: int) -> str:
    return re.search(rf'<input[^>]*value="{pk}"[^>]*>', page).group(0)


def test_the_new_warband_page_greys_the_lists_left_out_and_refuses_them(client, organiser):
    choose(organiser, list_keys=["norse_explorers"], starting_gold=550)
    player = MembershipFactory(campaign=organiser.campaign)
    client.force_login(player.user)
    url = reverse("warband_create", args=[organiser.campaign_id])
    page = client.get(url).content.decode()
    assert "allow every Grade 1a list, and Norse Explorers" in page
    pirates = WarbandType.objects.get(key="pirates")
    norse = WarbandType.objects.get(key="norse_explorers")
    assert "disabled" in radio_of(page, pirates.pk) and "disabled" not in radio_of(page, norse.pk)
    assert "starting gold 550 gc" in page
    answer = client.post(url, {"name": "Sea Dogs", "warband_type": pirates.pk})
    assert answer.status_code == 422
    assert "do not allow the Pirates" in answer.content.decode()
    assert not Warband.objects.exists()


def test_the_organiser_turns_on_the_sawbones_optional_rule(client, organiser):
    client.force_login(organiser.user)
    url = reverse("house_rules", args=[organiser.campaign_id])
    assert "Sawbones: off" in client.get(url).content.decode()
    answer = client.post(url, {"list_grades": ["1a"], "sword_grades": ["core"], "sawbones": "on"})
    assert answer.status_code == 302
    assert HouseRules.objects.get().sawbones
    assert "Sawbones: on" in client.get(url).content.decode()


def test_the_hired_swords_left_out_cost_no_query_each(organiser, django_assert_max_num_queries):
    """The swords a house rule refuses cite the named ones, read once for the whole catalogue."""
    choose(organiser, sword_grades=["core"], sword_keys=["roadwarden", "bard"])
    warband = create(organiser, "reikland")
    with django_assert_max_num_queries(5):
        offered = hired_swords.hireable_swords(warband)
    refused = [reason for _sword, reason in offered if reason and "house rules" in reason]
    assert len(refused) > 30 and "Bard and Roadwarden" in refused[0]
