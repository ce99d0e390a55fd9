"""What waits for a user (``league.todo``): each kind for the user it waits for and nobody
else, the list's query count against the league's growth, and the dashboard's "Waiting for
you" section with its empty state."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.captives import exchange, ransom
from battles.helper import moves
from battles.models import Battle
from battles.report import services, sides
from battles.rules import ReportedResult, play
from battles.schedule import challenges
from league import todo
from tests.battles.test_step_zero import confirmed_battle, declare
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, mustered_warband
from tests.helpers import game_of, held
from warbands import corrections

pytestmark = pytest.mark.django_db


def kinds(user) -> list[tuple[str, str]]:
    return sorted((item.kind, item.text) for item in todo.waiting_for(user))


def reported(duel) -> Battle:
    reavers, scourge = duel["reavers"], duel["scourge"]
    return services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="", scenario_key="skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip


def test_nothing_waits_for_a_user_with_nothing_to_do(duel):
    assert todo.waiting_for(duel["bystander"]) == []
    assert todo.waiting_for(duel["reavers"].owner) == []


def test_each_player_enters_his_side_then_confirms_the_report(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = reported(duel)

    assert kinds(reavers.owner) == [("side", f"Enter what the warriors of Reavers did in {battle}")]
    assert kinds(scourge.owner) == [("side", f"Enter what the warriors of Scourge did in {battle}")]
    sides.enter_side(battle, scourge, actor=scourge.owner, outcomes=sides.whole_side(scourge))
    assert kinds(scourge.owner) == []  # not before every side is in
    sides.enter_side(battle, reavers, actor=reavers.owner, outcomes=sides.whole_side(reavers))

    [item] = todo.waiting_for(scourge.owner)
    assert (item.kind, item.text) == ("confirm", f"Confirm or dispute the report of {battle}")
    assert (item.campaign_id, item.campaign) == (duel["campaign"].pk, "Siege")
    assert item.url == reverse("battle_detail", args=[battle.pk])
    assert item.since == battle.participants.get(warband=reavers).side_entered_at
    assert todo.waiting_for(duel["organiser"]) == []


def test_the_battle_helper_asks_whose_turn_it_is_only(duel):
    battle = game_of(duel)

    [item] = todo.waiting_for(duel["reavers"].owner)  # the Reavers take the first turn
    assert item.kind == "turn" and item.url == reverse("play_page", args=[battle.pk])
    assert item.text == f"Your turn with Reavers in {battle}: open the battle helper"
    assert todo.waiting_for(duel["scourge"].owner) == []


def test_a_confirmed_battle_asks_for_the_carried_items_then_the_sequence(duel):
    battle = confirmed_battle(duel)
    reavers = duel["reavers"]

    assert [i.kind for i in todo.waiting_for(reavers.owner)] == ["carried_items", "sequence"]
    declare(battle, reavers)
    [sequence] = todo.waiting_for(reavers.owner)
    waiting = f"Post-battle sequence waiting: Reavers after {battle.scenario} (step 0)"
    assert sequence.text == waiting
    assert sequence.url.startswith("/sequences/")


def test_an_organisers_declaration_waits_for_the_player_and_is_on_the_organisers_list(duel):
    battle = confirmed_battle(duel)
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    declare(battle, reavers)
    declare(battle, scourge, {"Treasure Chest": f"enemy:{reavers.pk}"}, actor=organiser)

    asked = [i.text for i in todo.waiting_for(scourge.owner) if i.kind == "carried_items"]
    assert asked == [
        f"Confirm or change where {organiser.username} declared the carried items of Scourge "
        f"ended {battle}"
    ]
    assert kinds(organiser) == [
        (
            "proposal",
            f"The carried items declared for Scourge in {battle} wait for "
            f"{scourge.owner.username}: wait for him or override",
        )
    ]
    assert "proposal" not in {i.kind for i in todo.waiting_for(reavers.owner)}


def test_a_ransom_and_an_exchange_wait_for_the_captives_player_without_the_amount(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    brandt = held(reavers.warriors.get(name="Brandt"), scourge)
    theirs = held(scourge.warriors.filter(is_hero=True).order_by("pk").first(), reavers)
    chest = scourge.containers.get(kind="treasure_chest")
    ransom.set_ransom(brandt, actor=scourge.owner, ransom=65, into=chest)
    exchange.offer_exchange(brandt, actor=scourge.owner, for_captive=theirs)

    items = todo.waiting_for(reavers.owner)
    assert [(i.kind, i.text) for i in items] == [
        ("ransom", "Answer the ransom Scourge ask for Brandt"),
        ("exchange", "Answer the exchange Scourge offer for Brandt"),
    ]
    assert {i.url for i in items} == {reverse("warband_captives", args=[reavers.pk])}
    assert todo.waiting_for(scourge.owner) == []


def test_a_correction_asked_waits_for_the_organiser_who_approves_it(duel):
    reavers = duel["reavers"]
    corrections.set_experience(
        reavers.warriors.get(name="Brandt"), actor=reavers.owner, experience=12, reason="Misread"
    )

    assert kinds(duel["organiser"]) == [
        ("correction", "Approve or refuse a correction asked for Reavers")
    ]
    assert todo.waiting_for(reavers.owner) == []


def test_a_challenge_waits_for_the_challenged_until_he_answers(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    challenge = challenges.issue_challenge(
        duel["campaign"], actor=reavers.owner, challenger_id=reavers.pk, opponent_ids=[scourge.pk]
    )
    assert kinds(scourge.owner) == [("challenge", "Reavers challenges Scourge: accept or decline")]
    assert kinds(reavers.owner) == []  # his own challenge waits for nothing of his
    challenges.answer_challenge(challenge, actor=scourge.owner, accept=True)
    assert kinds(scourge.owner) == []


def test_a_closed_campaign_asks_nothing_more(duel):
    reported(duel)
    duel["campaign"].status = "closed"
    duel["campaign"].save(update_fields=["status"])

    assert todo.waiting_for(duel["reavers"].owner) == []


def league_of(user, organiser) -> None:
    """A campaign where ``user`` has something of every kind waiting for him, and
    ``organiser`` a correction and a proposal to follow."""
    campaign = CampaignFactory()
    MembershipFactory(campaign=campaign, user=organiser, is_organiser=True)
    duel = {
        "campaign": campaign,
        "organiser": organiser,
        "reavers": mustered_warband(campaign=campaign, owner=user, name="Reavers"),
        "scourge": mustered_warband(campaign=campaign, name="Scourge"),
    }
    reavers, scourge = duel["reavers"], duel["scourge"]
    reported(duel)  # a side to enter
    battle = confirmed_battle(duel)  # carried items and a sequence
    declare(battle, scourge, {"Treasure Chest": f"enemy:{reavers.pk}"}, actor=organiser)
    captive = held(reavers.warriors.get(name="Brandt"), scourge)
    ransom.set_ransom(
        captive, actor=scourge.owner, ransom=20, into=scourge.containers.get(kind="treasure_chest")
    )
    game_of(duel)  # his turn
    corrections.set_experience(
        scourge.warriors.get(name="Brandt"), actor=scourge.owner, experience=9, reason="Misread"
    )
    challenges.issue_challenge(
        campaign, actor=scourge.owner, challenger_id=scourge.pk, opponent_ids=[reavers.pk]
    )  # a challenge to answer


def test_the_lists_queries_do_not_grow_with_the_league(django_assert_max_num_queries):
    user, organiser = UserFactory(), UserFactory()
    league_of(user, organiser)

    def queries(who) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert todo.waiting_for(who)
        return len(captured)

    small = queries(user), queries(organiser)
    for _ in range(3):
        league_of(user, organiser)
    # Four leagues, each with a side, carried items, a sequence, a ransom, a turn and a
    # challenge.
    assert len(todo.waiting_for(user)) == 4 * 6
    with django_assert_max_num_queries(small[0]):
        assert len({i.campaign_id for i in todo.waiting_for(user)}) == 4
    with django_assert_max_num_queries(small[1]):
        assert [i.kind for i in todo.waiting_for(organiser)].count("correction") == 4
    # a player: five reads and two for his challenges (the answers prefetched); an organiser:
    # four more, and one that finds no challenge for him
    assert small == (7, 10)


def test_the_dashboard_shows_what_waits_and_says_when_nothing_does(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Waiting for you" in page and 'data-testid="waiting-empty"' in page

    battle = reported(duel)
    page = client.get(reverse("dashboard")).content.decode()

    url = reverse("battle_side", args=[battle.pk, reavers.pk])
    assert f'<a href="{url}">Enter what the warriors of Reavers did in {battle}</a>' in page
    assert "Siege · since" in page and 'data-testid="waiting-empty"' not in page


def test_the_dashboard_keeps_the_list_until_something_of_it_changes(client, duel, fragment_cache):
    """Kept with the campaign cards, under the campaigns' versions and, since a turn passing
    changes none of them, the versions of the user's games under way."""
    battle = game_of(duel)
    client.force_login(duel["reavers"].owner)
    turn = "Your turn with Reavers in"
    assert turn in client.get(reverse("dashboard")).content.decode()
    for _ in play.PHASE_ORDER:  # the Reavers' turn ends: the Scourge's begins
        moves.next_phase(battle.pk, actor=duel["reavers"].owner)

    assert turn not in client.get(reverse("dashboard")).content.decode()
    client.force_login(duel["scourge"].owner)
    assert "Your turn with Scourge in" in client.get(reverse("dashboard")).content.decode()
