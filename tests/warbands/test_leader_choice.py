"""A list whose player chooses which hero leads (its ``leader`` roster rule): the owner names one
of his heroes on the muster board, may name another while mustering, never has two, and cannot
finish without one; nobody else names him, and not after mustering."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from core.errors import RuleViolation
from tests.factories import UserFactory, WarbandFactory, buy_storage_for_purse, hire, lead
from tests.warbands.test_muster import refused
from warbands import leadership, services
from warbands.models import WarbandType, Warrior
from warbands.rules import leader as rules
from warbands.rules.special_rules import PART, TABLE, handling

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
COURT = "court_of_the_profane_pleasures"


@pytest.fixture
def court():
    """A Court being mustered: Whipmaster, Danseuse and two Cultists, nobody named leader."""
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key=COURT))
    hire(warband, "slaaneshi_whipmaster", name="Vex")
    hire(warband, "slaaneshi_danseuse", name="Lira")
    hire(warband, "cultist", models=2, name="Cultists")
    return warband


def leaders(warband) -> list[str]:
    return list(warband.warriors.filter(is_leader=True).values_list("name", flat=True))


# --- The rule, pure --------------------------------------------------------------------------


def test_the_roster_rule_reads_any_hero_or_the_types_named_or_no_choice():
    assert rules.leader_from({"leader": "any_hero"}) == ()
    assert rules.leader_from({"leader": ["conqueror", "trapmaster"]}) == ("conqueror", "trapmaster")
    assert rules.leader_from({}) is None
    with pytest.raises(ValueError):
        rules.leader_from({"leader": "the_tallest"})


@pytest.mark.parametrize(
    ("allowed", "candidate", "reason"),
    [
        (None, rules.Candidate("Brandt", "champion", True), "leader's warrior type"),
        ((), rules.Candidate("Cultists", "cultist", False), "own heroes"),
        ((), rules.Candidate("Aldo", "ogre_bodyguard", True, hired_sword=True), "own heroes"),
        ((), rules.Candidate("Rufus", "ruffian", True, never_leader=True), "never lead"),
        (("conqueror",), rules.Candidate("Lira", "trapmaster", True), "not of a type"),
    ],
)
def test_who_may_not_be_named_leader(allowed, candidate, reason):
    with pytest.raises(RuleViolation, match=reason):
        rules.check_leader_choice(allowed, candidate)


def test_the_lists_leader_rule_says_the_roster_keeps_who_leads_when_he_is_chosen():
    assert handling({"name": "Leader"}, leader_chosen=True).kind == PART
    assert handling({"name": "Leader"}).kind == TABLE


# --- Naming him while mustering ----------------------------------------------------------------


def test_no_hero_of_the_court_leads_when_hired(court):
    assert leaders(court) == []
    assert not court.warband_type.warrior_types.filter(is_leader=True).exists()


def test_the_owner_names_a_hero_the_leader(court):
    lead(court, "slaaneshi_danseuse")
    assert leaders(court) == ["Lira"]


def test_naming_another_hero_while_mustering_moves_the_lead(court):
    lead(court, "slaaneshi_danseuse")
    lead(court, "slaaneshi_whipmaster")
    assert leaders(court) == ["Vex"]


def test_the_leader_named_again_is_refused_and_there_is_never_a_second(court):
    lead(court, "slaaneshi_danseuse")
    lira = court.warriors.get(name="Lira")
    refused(court, lambda: leadership.name_leader(lira, actor=court.owner), "already leads")
    hire(court, "slaaneshi_priest_of_obscene", name="Ossian")  # a hero hired later does not lead
    assert leaders(court) == ["Lira"]


def test_a_henchman_group_is_never_named_leader(court):
    cultists = court.warriors.get(name="Cultists")
    refused(court, lambda: leadership.name_leader(cultists, actor=court.owner), "own heroes")


def test_a_list_with_a_leader_type_names_nobody():
    warband = WarbandFactory()
    hire(warband, "mercenary_captain", name="Adler")
    brandt = hire(warband, "champion", name="Brandt")
    refused(warband, lambda: leadership.name_leader(brandt, actor=warband.owner), "warrior type")
    assert leaders(warband) == ["Adler"]


def test_mustering_cannot_finish_without_a_leader_named(court):
    buy_storage_for_purse(court)
    refused(court, lambda: services.finish_muster(court, actor=court.owner), "no leader named")
    lead(court, "slaaneshi_whipmaster")
    services.finish_muster(court, actor=court.owner)
    court.refresh_from_db()
    assert court.status == "active"
    assert leaders(court) == ["Vex"]


def test_removing_the_named_leader_while_mustering_leaves_none(court):
    lead(court, "slaaneshi_danseuse")
    services.dismiss_warrior(court.warriors.get(name="Lira"), actor=court.owner)
    problems = [p.message for p in services.muster_problems(court, list(services.roster(court)))]
    assert "The warband has no leader named yet." in problems


def test_nobody_but_the_owner_names_the_leader(court):
    vex = court.warriors.get(name="Vex")
    with pytest.raises(PermissionDenied):
        leadership.name_leader(vex, actor=UserFactory())
    assert leaders(court) == []


def test_the_leader_is_not_changed_once_mustering_is_over(court):
    lead(court, "slaaneshi_danseuse")
    buy_storage_for_purse(court)
    services.finish_muster(court, actor=court.owner)
    vex = court.warriors.get(name="Vex")
    refused(court, lambda: leadership.name_leader(vex, actor=court.owner), "Mustering is over")
    assert leaders(court) == ["Lira"]


# --- The muster board --------------------------------------------------------------------------


def test_the_board_offers_each_hero_but_the_leader_to_be_named(client, court):
    lead(court, "slaaneshi_danseuse")
    client.force_login(court.owner)
    page = client.get(reverse("warband_muster", args=[court.pk])).content.decode()
    assert 'data-testid="leader-choice"' in page
    assert "Name Vex the leader" in page
    assert "Name Lira the leader" not in page  # she leads
    assert "Name Cultists the leader" not in page
    assert "who leads (the hero named at the muster)" in page  # the list's Leader rule


def test_naming_him_with_htmx_draws_the_board_again(client, court):
    client.force_login(court.owner)
    vex = court.warriors.get(name="Vex")
    response = client.post(reverse("warrior_lead", args=[vex.pk]), headers=HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="muster-board">')
    assert "Name Lira the leader" in page
    assert leaders(court) == ["Vex"]


def test_naming_him_without_htmx_goes_back_to_the_muster_page(client, court):
    client.force_login(court.owner)
    vex = court.warriors.get(name="Vex")
    response = client.post(reverse("warrior_lead", args=[vex.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("warband_muster", args=[court.pk])
    assert leaders(court) == ["Vex"]


def test_a_refused_naming_is_the_board_with_the_reason_and_status_422(client, court):
    client.force_login(court.owner)
    cultists = court.warriors.get(name="Cultists")
    response = client.post(reverse("warrior_lead", args=[cultists.pk]), headers=HTMX)
    assert response.status_code == 422
    assert "own heroes" in response.content.decode()
    assert leaders(court) == []


def test_another_player_cannot_name_the_leader(client, court):
    other = WarbandFactory(campaign=court.campaign)
    client.force_login(other.owner)
    vex = court.warriors.get(name="Vex")
    response = client.post(reverse("warrior_lead", args=[vex.pk]), headers=HTMX)
    assert response.status_code in (403, 404)
    assert not Warrior.objects.filter(warband=court, is_leader=True).exists()


def test_the_new_warband_page_says_the_player_chooses_the_leader(client, court):
    client.force_login(court.owner)
    page = client.get(reverse("warband_create", args=[court.campaign_id])).content.decode()
    assert "Leader: a hero of your choice" in page
