"""The schedule's pages: the campaign's schedule and a round's page for each role (200, 403,
404), each post's htmx partial, bad input answered beside its field with nothing changed, a
report and a game started from a planned game, the dashboard's "Your next games", and the
round page's queries bounded as the league grows."""

import datetime
import re

import pytest
from django.urls import reverse

from battles.models import Battle, Challenge, Fixture, Round
from battles.schedule import challenges, services
from tests.factories import CampaignFactory, mustered_warband
from tests.helpers import fingerprint, message_beside

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
DAY = datetime.date(2026, 5, 1)


@pytest.fixture
def paired(duel):
    round_ = services.create_round(duel["campaign"], actor=duel["organiser"], number=1,
                                   starts_on=DAY, ends_on=DAY)  # fmt: skip
    services.pair_round(round_, actor=duel["organiser"], method="closest")
    return {**duel, "round": round_, "fixture": Fixture.objects.get(round=round_)}


def stranger():
    return mustered_warband(campaign=CampaignFactory()).owner


def test_schedule_and_round_pages_for_each_role(client, paired):
    schedule = reverse("campaign_schedule", args=[paired["campaign"].pk])
    round_page = reverse("round_detail", args=[paired["round"].pk])
    client.force_login(paired["reavers"].owner)
    page = client.get(round_page).content.decode()
    assert "Reavers" in page and "Planned" in page
    assert reverse("round_pair", args=[paired["round"].pk]) not in page  # no organiser's form
    assert client.get(schedule).status_code == 200
    client.force_login(paired["organiser"])
    pair = reverse("round_pair", args=[paired["round"].pk])
    assert pair in client.get(round_page).content.decode()
    client.force_login(stranger())
    assert client.get(schedule).status_code == 404
    assert client.get(round_page).status_code == 404
    client.force_login(paired["reavers"].owner)
    assert client.post(reverse("round_clear", args=[paired["round"].pk])).status_code == 403


def test_round_create_redirects_to_the_round(client, duel):
    client.force_login(duel["organiser"])
    url = reverse("round_create", args=[duel["campaign"].pk])
    data = {"number": 1, "name": "Autumn", "starts_on": "2026-05-01", "ends_on": "2026-05-14"}
    response = client.post(url, data, headers=HTMX)
    made = Round.objects.get()
    assert response["HX-Redirect"] == reverse("round_detail", args=[made.pk])
    assert made.name == "Autumn"


def test_round_create_bad_input_beside_its_field_and_nothing_changed(client, duel):
    client.force_login(duel["organiser"])
    url = reverse("round_create", args=[duel["campaign"].pk])
    before = fingerprint()
    data = {"number": "-3", "starts_on": "2026-05-10", "ends_on": "2026-05-01"}
    response = client.post(url, data, headers=HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert html.strip().startswith('<div id="new-round">')
    assert "greater than or equal to 1" in message_beside(html, "id_number")
    assert "ends on or after" in message_beside(html, "id_ends_on")
    assert fingerprint() == before


def test_round_pair_partial_and_asking_before_replacing(client, paired):
    client.force_login(paired["organiser"])
    url = reverse("round_pair", args=[paired["round"].pk])
    before = fingerprint()
    response = client.post(url, {"method": "closest"}, headers=HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert html.strip().startswith('<div id="round-fixtures">')
    # the checkbox's message follows its label (forms/_field.html), which it names
    assert 'aria-describedby="id_replace_error"' in html
    assert re.search(r'id="id_replace_error" role="alert">[^<]*tick the box to replace', html)
    assert fingerprint() == before
    response = client.post(url, {"method": "round_robin", "replace": "on"}, headers=HTMX)
    assert response.status_code == 200
    assert "1 game paired." in response.content.decode()
    assert Fixture.objects.filter(round=paired["round"]).count() == 1


def test_round_pair_refused_once_a_game_has_its_battle(client, paired):
    client.force_login(paired["reavers"].owner)
    url = reverse("battle_report", args=[paired["campaign"].pk])
    fixture = paired["fixture"]
    page = client.get(f"{url}?fixture={fixture.pk}").content.decode()
    assert f'name="fixture" value="{fixture.pk}"' in page
    data = {"fixture": fixture.pk, "scenario_key": "skirmish", "fought_on": "2026-05-02",
            f"w{paired['reavers'].pk}-took_part": "on", f"w{paired['reavers'].pk}-result": "won",
            f"w{paired['scourge'].pk}-took_part": "on",
            f"w{paired['scourge'].pk}-result": "lost"}  # fmt: skip
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    fixture.refresh_from_db()
    assert fixture.battle == Battle.objects.get()
    # another report from the same planned game is refused, and says why
    again = client.post(url, data)
    assert again.status_code == 422 and "has its battle already" in again.content.decode()
    assert Battle.objects.count() == 1
    client.force_login(paired["organiser"])
    for name, data in (("round_pair", {"method": "closest", "replace": "on"}),
                       ("round_clear", {"sure": "on"})):  # fmt: skip
        response = client.post(reverse(name, args=[paired["round"].pk]), data, headers=HTMX)
        assert response.status_code == 422
        assert "its pairings stay" in response.content.decode()
    assert client.get(reverse("round_detail", args=[paired["round"].pk])).status_code == 200
    response = client.post(reverse("round_delete", args=[paired["round"].pk]))
    assert Round.objects.count() == 1


def test_round_fixture_add_bad_input_and_partial(client, paired):
    client.force_login(paired["organiser"])
    services.clear_round(paired["round"], actor=paired["organiser"])
    url = reverse("round_fixture_add", args=[paired["round"].pk])
    before = fingerprint()
    response = client.post(url, {"warbands": [paired["reavers"].pk]}, headers=HTMX)
    assert response.status_code == 422
    assert "two to four" in response.content.decode()
    response = client.post(url, {"warbands": ["999999", paired["reavers"].pk]}, headers=HTMX)
    assert response.status_code == 422
    assert fingerprint() == before
    ids = [paired["reavers"].pk, paired["scourge"].pk]
    response = client.post(url, {"warbands": ids, "planned_on": "2026-05-03"}, headers=HTMX)
    assert response.status_code == 200
    assert "Game added." in response.content.decode()
    assert Fixture.objects.get().planned_on == datetime.date(2026, 5, 3)


def test_round_clear_asks_and_round_delete_asks_first(client, paired):
    client.force_login(paired["organiser"])
    url = reverse("round_clear", args=[paired["round"].pk])
    response = client.post(url, {}, headers=HTMX)
    assert response.status_code == 422
    assert Fixture.objects.count() == 1
    assert client.post(url, {"sure": "on"}).status_code == 302
    assert not Fixture.objects.exists()
    delete = reverse("round_delete", args=[paired["round"].pk])
    assert "cannot be brought back" in client.get(delete).content.decode()
    assert Round.objects.exists()
    assert client.post(delete).status_code == 302
    assert not Round.objects.exists()


def test_challenge_create_answer_and_withdraw_through_the_page(client, duel):
    scourge, reavers = duel["scourge"], duel["reavers"]
    client.force_login(scourge.owner)
    url = reverse("challenge_create", args=[duel["campaign"].pk])
    before = fingerprint()
    response = client.post(url, {"challenger": scourge.pk, "opponents": [scourge.pk]},
                           headers=HTMX)  # fmt: skip
    assert response.status_code == 422
    assert response.content.decode().strip().startswith('<div id="challenges">')
    assert fingerprint() == before
    response = client.post(url, {"challenger": scourge.pk, "opponents": [reavers.pk],
                                 "scenario_key": "skirmish"}, headers=HTMX)  # fmt: skip
    assert response.status_code == 200 and "Challenge sent" in response.content.decode()
    made = Challenge.objects.get()
    answer = reverse("challenge_answer", args=[made.pk])
    assert client.post(answer, {"answer": "accept"}).status_code == 403  # not his to answer
    client.force_login(reavers.owner)
    page = client.get(reverse("campaign_schedule", args=[duel["campaign"].pk])).content.decode()
    assert answer in page
    assert client.post(reverse("challenge_withdraw", args=[made.pk])).status_code == 403
    response = client.post(answer, {"answer": "maybe"}, headers=HTMX)
    assert response.status_code == 422
    response = client.post(answer, {"answer": "accept"}, headers=HTMX)
    assert response.status_code == 200 and "the game is planned" in response.content.decode()
    made.refresh_from_db()
    assert made.fixture is not None
    response = client.post(answer, {"answer": "decline"}, headers=HTMX)
    assert response.status_code == 422 and "accepted already" in response.content.decode()


def test_a_stranger_cannot_answer_or_challenge(client, duel):
    made = challenges.issue_challenge(duel["campaign"], actor=duel["scourge"].owner,
                                      challenger_id=duel["scourge"].pk,
                                      opponent_ids=[duel["reavers"].pk])  # fmt: skip
    client.force_login(stranger())
    assert client.post(reverse("challenge_answer", args=[made.pk]),
                       {"answer": "accept"}).status_code == 404  # fmt: skip
    url = reverse("challenge_create", args=[duel["campaign"].pk])
    assert client.post(url, {"challenger": duel["reavers"].pk}).status_code == 404


def test_play_start_from_a_fixture_fills_the_turn_order(client, paired):
    client.force_login(paired["scourge"].owner)
    url = reverse("play_start", args=[paired["campaign"].pk])
    page = client.get(f"{url}?fixture={paired['fixture'].pk}").content.decode()
    assert 'data-testid="planned-game"' in page
    assert client.get(f"{url}?fixture=nonsense").status_code == 200


def test_filtering_the_scenarios_keeps_the_planned_game(client, paired):
    """The picker's filter is a GET form of its own: it carries the planned game along, so
    the page it draws is still filled in from it."""
    client.force_login(paired["scourge"].owner)
    url = reverse("battle_report", args=[paired["campaign"].pk])
    page = client.get(f"{url}?fixture={paired['fixture'].pk}").content.decode()
    assert f'<input type="hidden" name="fixture" value="{paired["fixture"].pk}">' in page
    filtered = client.get(url, {"fixture": paired["fixture"].pk, "words": "ambush"})
    assert 'data-testid="planned-game"' in filtered.content.decode()
    odd = client.get(url, {"fixture": '"><script>x</script>'}).content.decode()
    assert "<script>x</script>" not in odd


def test_dashboard_lists_next_games_and_challenges(client, paired):
    challenges.issue_challenge(paired["campaign"], actor=paired["scourge"].owner,
                               challenger_id=paired["scourge"].pk,
                               opponent_ids=[paired["reavers"].pk])  # fmt: skip
    client.force_login(paired["reavers"].owner)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Your next games" in page
    assert page.count('data-testid="next-game"') == 1
    assert page.count('data-kind="challenge"') == 1
    assert f"?fixture={paired['fixture'].pk}" in page
    client.force_login(paired["scourge"].owner)  # the challenger waits for no answer
    page = client.get(reverse("dashboard")).content.decode()
    assert page.count('data-kind="challenge"') == 0
    assert page.count('data-testid="next-game"') == 1


def test_round_page_queries_do_not_grow(client, duel, django_assert_max_num_queries):
    campaign = duel["campaign"]
    round_ = services.create_round(campaign, actor=duel["organiser"], number=1, starts_on=DAY,
                                   ends_on=DAY)  # fmt: skip
    services.pair_round(round_, actor=duel["organiser"], method="closest")
    url = reverse("round_detail", args=[round_.pk])
    client.force_login(duel["organiser"])
    client.get(url)
    with django_assert_max_num_queries(14) as small:
        assert client.get(url).status_code == 200
    for name in ("Crows", "Wolves", "Pyre", "Rats"):
        mustered_warband(campaign=campaign, name=name)
    services.pair_round(round_, actor=duel["organiser"], method="closest", replace=True)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(url).status_code == 200
    schedule = reverse("campaign_schedule", args=[campaign.pk])
    with django_assert_max_num_queries(16):
        assert client.get(schedule).status_code == 200


def test_the_policy_is_set_on_the_settings_page_and_required_refuses_a_plain_report(client, duel):
    campaign = duel["campaign"]
    client.force_login(duel["organiser"])
    settings_page = reverse("campaign_settings", args=[campaign.pk])
    assert 'name="challenge_policy"' in client.get(settings_page).content.decode()
    data = {"name": campaign.name, "description": "", "start_date": "2026-05-01",
            "max_warbands_per_player": 1, "challenge_policy": "required"}  # fmt: skip
    assert client.post(settings_page, data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.challenge_policy == "required"
    client.force_login(duel["reavers"].owner)
    reavers, scourge = duel["reavers"].pk, duel["scourge"].pk
    response = client.post(reverse("battle_report", args=[campaign.pk]), {
        "scenario_key": "skirmish", "fought_on": "2026-05-02",
        f"w{reavers}-took_part": "on", f"w{reavers}-result": "won",
        f"w{scourge}-took_part": "on", f"w{scourge}-result": "lost",
    })  # fmt: skip
    assert response.status_code == 422
    assert "only planned games" in response.content.decode()
    assert not Battle.objects.exists()
    # forbidden: no challenge form on the schedule, and a posted one is refused
    campaign.challenge_policy = "forbidden"
    campaign.save(update_fields=["challenge_policy"])
    schedule = client.get(reverse("campaign_schedule", args=[campaign.pk])).content.decode()
    assert reverse("challenge_create", args=[campaign.pk]) not in schedule
    posted = {"challenger": reavers, "opponents": [scourge]}
    response = client.post(reverse("challenge_create", args=[campaign.pk]), posted, headers=HTMX)
    assert response.status_code == 422 and "challenges are off" in response.content.decode()
    assert not Challenge.objects.exists()
