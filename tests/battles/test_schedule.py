"""The schedule's services: rounds and their pairings, games by hand, the refusals once a game
has a battle, challenges and their answers, a battle reported or started from a planned game,
the campaign's policy, and who may do each (organiser, co-organiser, player, opponent,
stranger)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied

from battles.helper.start import start_game
from battles.models import Challenge, ChallengeAnswer, Fixture, Round
from battles.report import services as report
from battles.rules import ReportedResult
from battles.schedule import challenges, queries, services
from campaign.models import Campaign
from core.errors import RuleViolation
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.helpers import confirm_with_every_side

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 5, 1)


def a_round(duel, number=1, actor=None):
    return services.create_round(
        duel["campaign"], actor=actor or duel["organiser"], number=number, starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=13),
    )  # fmt: skip


def games(round_):
    return sorted(
        sorted(s.warband.name for s in f.sides.all()) for f in queries.round_fixtures(round_)
    )


def results(*warbands):
    return [ReportedResult(warbands[0].pk, "won")] + [
        ReportedResult(w.pk, "lost") for w in warbands[1:]
    ]


@pytest.fixture
def five(duel):
    """The duel with three more warbands: five in all, an odd league."""
    campaign = duel["campaign"]
    extra = [mustered_warband(campaign=campaign, name=n) for n in ("Crows", "Wolves", "Pyre")]
    return {**duel, "extra": extra}


# --- Rounds ---------------------------------------------------------------------------------


def test_create_round_numbers_it_once(duel):
    made = a_round(duel)
    assert (made.number, made.ends_on) == (1, DAY + datetime.timedelta(days=13))
    assert services.next_number(duel["campaign"]) == 2
    with pytest.raises(RuleViolation) as refused:
        a_round(duel)
    assert refused.value.field == "number"
    assert Round.objects.count() == 1


def test_create_round_refuses_an_end_before_its_start(duel):
    with pytest.raises(RuleViolation) as refused:
        services.create_round(duel["campaign"], actor=duel["organiser"], number=1,
                              starts_on=DAY, ends_on=DAY - datetime.timedelta(days=1))  # fmt: skip
    assert refused.value.field == "ends_on"


@pytest.mark.parametrize("who", ["reavers", "bystander", "stranger"])
def test_only_organisers_create_and_pair_rounds(duel, who):
    actor = {"reavers": duel["reavers"].owner, "bystander": duel["bystander"],
             "stranger": mustered_warband(campaign=CampaignFactory()).owner}[who]  # fmt: skip
    with pytest.raises(PermissionDenied):
        a_round(duel, actor=actor)
    round_ = a_round(duel)
    with pytest.raises(PermissionDenied):
        services.pair_round(round_, actor=actor, method="closest")
    assert not Fixture.objects.exists()


def test_a_co_organiser_plans_too(duel):
    co = MembershipFactory(campaign=duel["campaign"], is_organiser=True).user
    round_ = a_round(duel, actor=co)
    said = services.pair_round(round_, actor=co, method="round_robin")
    assert games(round_) == [["Reavers", "Scourge"]]
    assert said == "1 game paired."


def test_a_closed_campaign_is_not_planned(duel):
    round_ = a_round(duel)
    Campaign.objects.filter(pk=duel["campaign"].pk).update(status="closed")
    round_.campaign.refresh_from_db()
    with pytest.raises(PermissionDenied):
        services.pair_round(round_, actor=duel["organiser"], method="closest")


def test_round_robin_of_five_gives_a_bye_and_says_so(five):
    round_ = a_round(five)
    said = services.pair_round(round_, actor=five["organiser"], method="round_robin")
    assert len(games(round_)) == 2
    assert "has the bye" in said


def test_a_game_of_three_instead_of_a_bye(five):
    round_ = a_round(five)
    said = services.pair_round(round_, actor=five["organiser"], method="closest", three_way=True)
    assert sorted(len(g) for g in games(round_)) == [2, 3]
    assert "bye" not in said


def test_left_out_warbands_are_not_paired(five):
    round_ = a_round(five)
    left = [five["extra"][0].pk]
    services.pair_round(round_, actor=five["organiser"], method="closest", left_out=left)
    assert "Crows" not in [name for game in games(round_) for name in game]
    assert len(games(round_)) == 2


def test_closest_rating_avoids_earlier_opponents(five):
    first, second = a_round(five, 1), a_round(five, 2)
    services.pair_round(first, actor=five["organiser"], method="closest")
    services.pair_round(second, actor=five["organiser"], method="closest")
    met = {frozenset(g) for g in map(tuple, games(first))}
    assert not met & {frozenset(g) for g in map(tuple, games(second))}


def test_closest_rating_repeats_only_with_no_other_way_and_says_so(duel):
    battle = report.report_battle(actor=duel["reavers"].owner, campaign=duel["campaign"],
                                  scenario="Skirmish",
                                  results=results(duel["reavers"], duel["scourge"]))  # fmt: skip
    confirm_with_every_side(battle)
    round_ = a_round(duel)
    said = services.pair_round(round_, actor=duel["organiser"], method="closest")
    assert "meet again" in said
    assert Fixture.objects.get(round=round_).repeat


def test_pairing_again_asks_first_then_replaces(duel):
    round_ = a_round(duel)
    services.pair_round(round_, actor=duel["organiser"], method="closest")
    with pytest.raises(RuleViolation) as refused:
        services.pair_round(round_, actor=duel["organiser"], method="closest")
    assert refused.value.field == "replace"
    services.pair_round(round_, actor=duel["organiser"], method="closest", replace=True)
    assert Fixture.objects.filter(round=round_).count() == 1


def test_a_round_with_a_battle_keeps_its_pairings(duel):
    round_ = a_round(duel)
    services.pair_round(round_, actor=duel["organiser"], method="closest")
    fixture = Fixture.objects.get(round=round_)
    report.report_battle(actor=duel["reavers"].owner, campaign=duel["campaign"],
                         scenario="Skirmish", results=results(duel["reavers"], duel["scourge"]),
                         fixture_id=fixture.pk)  # fmt: skip
    organiser = duel["organiser"]
    for refused in (
        lambda: services.pair_round(round_, actor=organiser, method="closest", replace=True),
        lambda: services.clear_round(round_, actor=organiser),
        lambda: services.delete_round(round_, actor=organiser),
    ):
        with pytest.raises(RuleViolation, match="battle reported or under way"):
            refused()
    assert Fixture.objects.filter(round=round_).count() == 1


def test_clear_and_delete_an_unplayed_round(duel):
    round_ = a_round(duel)
    services.pair_round(round_, actor=duel["organiser"], method="closest")
    assert services.clear_round(round_, actor=duel["organiser"]) == 1
    services.delete_round(round_, actor=duel["organiser"])
    assert not Round.objects.exists()


def test_a_game_by_hand(five):
    round_ = a_round(five)
    ids = [five["reavers"].pk, five["scourge"].pk, five["extra"][0].pk]
    services.add_fixture(round_, actor=five["organiser"], warband_ids=ids,
                         scenario_key="skirmish", planned_on=DAY)  # fmt: skip
    assert games(round_) == [["Crows", "Reavers", "Scourge"]]
    with pytest.raises(RuleViolation, match="already in another game") as refused:
        services.add_fixture(round_, actor=five["organiser"],
                             warband_ids=[five["reavers"].pk, five["extra"][1].pk])  # fmt: skip
    assert refused.value.field == "warbands"
    with pytest.raises(RuleViolation):
        services.add_fixture(round_, actor=five["organiser"], warband_ids=[five["extra"][1].pk])
    with pytest.raises(RuleViolation):
        services.add_fixture(round_, actor=five["organiser"],
                             warband_ids=[five["extra"][1].pk, five["extra"][2].pk],
                             scenario_key="nonsense")  # fmt: skip
    assert len(games(round_)) == 1


def test_a_game_by_hand_refuses_another_campaigns_warband(duel):
    round_ = a_round(duel)
    foreign = mustered_warband(campaign=CampaignFactory())
    with pytest.raises(RuleViolation):
        services.add_fixture(round_, actor=duel["organiser"],
                             warband_ids=[duel["reavers"].pk, foreign.pk])  # fmt: skip
    assert not Fixture.objects.exists()


# --- Challenges -------------------------------------------------------------------------------


def challenge(duel, **kwargs):
    return challenges.issue_challenge(
        duel["campaign"], actor=duel["scourge"].owner, challenger_id=duel["scourge"].pk,
        opponent_ids=[duel["reavers"].pk], **kwargs,
    )  # fmt: skip


def test_a_challenge_accepted_by_all_becomes_a_fixture(five):
    made = challenges.issue_challenge(
        five["campaign"], actor=five["scourge"].owner, challenger_id=five["scourge"].pk,
        opponent_ids=[five["reavers"].pk, five["extra"][0].pk], scenario_key="skirmish",
    )  # fmt: skip
    assert [c.pk for c in queries.challenges_awaiting(five["reavers"].owner)] == [made.pk]
    challenges.answer_challenge(made, actor=five["reavers"].owner, accept=True)
    made.refresh_from_db()
    assert (made.status, made.fixture_id) == ("waiting", None)
    assert queries.challenges_awaiting(five["reavers"].owner) == []
    challenges.answer_challenge(made, actor=five["extra"][0].owner, accept=True)
    made.refresh_from_db()
    assert made.status == "accepted"
    fixture = made.fixture
    assert fixture.round is None and fixture.scenario_key == "skirmish"
    assert sorted(s.warband.name for s in fixture.sides.all()) == ["Crows", "Reavers", "Scourge"]
    assert [f.pk for f in queries.open_fixtures_for(five["scourge"].owner)] == [fixture.pk]


def test_one_refusal_declines_the_challenge(duel):
    made = challenge(duel)
    challenges.answer_challenge(made, actor=duel["reavers"].owner, accept=False)
    made.refresh_from_db()
    assert (made.status, made.fixture_id) == ("declined", None)
    with pytest.raises(RuleViolation, match="declined already"):
        challenges.answer_challenge(made, actor=duel["reavers"].owner, accept=True)


@pytest.mark.parametrize("who", ["challenger", "bystander", "organiser", "stranger"])
def test_only_the_challenged_player_answers(duel, who):
    made = challenge(duel)
    actor = {"challenger": duel["scourge"].owner, "bystander": duel["bystander"],
             "organiser": duel["organiser"],
             "stranger": mustered_warband(campaign=CampaignFactory()).owner}[who]  # fmt: skip
    with pytest.raises(PermissionDenied):
        challenges.answer_challenge(made, actor=actor, accept=True)
    assert ChallengeAnswer.objects.get().answer == "waiting"


def test_only_the_challenger_withdraws_before_it_is_accepted(duel):
    made = challenge(duel)
    with pytest.raises(PermissionDenied):
        challenges.withdraw_challenge(made, actor=duel["reavers"].owner)
    challenges.withdraw_challenge(made, actor=duel["scourge"].owner)
    assert Challenge.objects.get().status == "withdrawn"
    accepted = challenge(duel)
    challenges.answer_challenge(accepted, actor=duel["reavers"].owner, accept=True)
    with pytest.raises(RuleViolation, match="accepted already"):
        challenges.withdraw_challenge(accepted, actor=duel["scourge"].owner)


def test_a_challenge_names_warbands_of_the_campaign_not_ones_own(duel):
    campaign, scourge = duel["campaign"], duel["scourge"]
    second = mustered_warband(campaign=campaign, owner=scourge.owner, name="Second")
    foreign = mustered_warband(campaign=CampaignFactory())
    for challenger, opponents in (
        (scourge.pk, [second.pk]),  # his own
        (scourge.pk, [foreign.pk]),  # another campaign's
        (duel["reavers"].pk, [scourge.pk]),  # not his warband to challenge with
        (scourge.pk, []),
    ):
        with pytest.raises((RuleViolation, PermissionDenied)):
            challenges.issue_challenge(campaign, actor=scourge.owner, challenger_id=challenger,
                                       opponent_ids=opponents)  # fmt: skip
    assert not Challenge.objects.exists()


def test_a_stranger_cannot_challenge_into_a_campaign(duel):
    stranger = mustered_warband(campaign=CampaignFactory())
    with pytest.raises((RuleViolation, PermissionDenied)):
        challenges.issue_challenge(duel["campaign"], actor=stranger.owner,
                                   challenger_id=stranger.pk,
                                   opponent_ids=[duel["reavers"].pk])  # fmt: skip
    assert not Challenge.objects.exists()


def test_challenges_forbidden_by_the_campaign(duel):
    Campaign.objects.filter(pk=duel["campaign"].pk).update(challenge_policy="forbidden")
    duel["campaign"].refresh_from_db()
    with pytest.raises(RuleViolation, match="challenges are off"):
        challenge(duel)


# --- Playing a planned game --------------------------------------------------------------------


def test_a_report_from_a_fixture_links_it_and_it_cannot_start_another(duel):
    made = challenge(duel)
    challenges.answer_challenge(made, actor=duel["reavers"].owner, accept=True)
    fixture = Challenge.objects.get().fixture
    both = results(duel["reavers"], duel["scourge"])
    battle = report.report_battle(actor=duel["reavers"].owner, campaign=duel["campaign"],
                                  scenario="Skirmish", results=both,
                                  fixture_id=fixture.pk)  # fmt: skip
    fixture.refresh_from_db()
    assert fixture.battle == battle
    assert fixture.state == "reported"
    assert queries.open_fixtures_for(duel["reavers"].owner) == []
    with pytest.raises(RuleViolation, match="has its battle already"):
        start_game(actor=duel["reavers"].owner, campaign=duel["campaign"],
                   scenario_key="skirmish", fixture_id=fixture.pk,
                   warband_ids=[duel["reavers"].pk, duel["scourge"].pk])  # fmt: skip
    confirm_with_every_side(battle)
    fixture.refresh_from_db()
    assert fixture.state == "confirmed"


def test_a_game_started_from_a_fixture_is_being_played(duel):
    round_ = a_round(duel)
    services.pair_round(round_, actor=duel["organiser"], method="closest")
    fixture = Fixture.objects.get()
    battle = start_game(actor=duel["scourge"].owner, campaign=duel["campaign"],
                        scenario_key="skirmish", fixture_id=fixture.pk,
                        warband_ids=[duel["scourge"].pk, duel["reavers"].pk])  # fmt: skip
    assert Fixture.objects.get().battle == battle
    assert queries.round_fixtures(round_)[0].state == "playing"


def test_a_fixture_is_played_by_its_own_warbands(five):
    round_ = a_round(five)
    services.add_fixture(round_, actor=five["organiser"],
                         warband_ids=[five["reavers"].pk, five["scourge"].pk])  # fmt: skip
    fixture = Fixture.objects.get()
    with pytest.raises(RuleViolation, match="between other warbands"):
        report.report_battle(actor=five["reavers"].owner, campaign=five["campaign"],
                             scenario="Skirmish",
                             results=results(five["reavers"], five["extra"][0]),
                             fixture_id=fixture.pk)  # fmt: skip
    assert Fixture.objects.get().battle is None


def test_required_policy_refuses_a_battle_from_no_fixture(duel):
    Campaign.objects.filter(pk=duel["campaign"].pk).update(challenge_policy="required")
    duel["campaign"].refresh_from_db()
    with pytest.raises(RuleViolation, match="only planned games"):
        report.report_battle(actor=duel["reavers"].owner, campaign=duel["campaign"],
                             scenario="Skirmish",
                             results=results(duel["reavers"], duel["scourge"]))  # fmt: skip
    with pytest.raises(RuleViolation, match="only planned games"):
        start_game(actor=duel["reavers"].owner, campaign=duel["campaign"],
                   scenario_key="skirmish",
                   warband_ids=[duel["reavers"].pk, duel["scourge"].pk])  # fmt: skip
    made = challenge(duel)
    challenges.answer_challenge(made, actor=duel["reavers"].owner, accept=True)
    fixture = Challenge.objects.get().fixture
    report.report_battle(actor=duel["reavers"].owner, campaign=duel["campaign"],
                         scenario="Skirmish", results=results(duel["reavers"], duel["scourge"]),
                         fixture_id=fixture.pk)  # fmt: skip


# --- Bounded reads -----------------------------------------------------------------------------


def test_the_dashboard_reads_are_bounded(five, django_assert_max_num_queries):
    for number in (1, 2):
        services.pair_round(a_round(five, number), actor=five["organiser"], method="closest")
    for opponent in five["extra"]:
        challenges.issue_challenge(five["campaign"], actor=opponent.owner,
                                   challenger_id=opponent.pk,
                                   opponent_ids=[five["reavers"].pk])  # fmt: skip
    owner = five["reavers"].owner
    with django_assert_max_num_queries(2):
        assert len(queries.open_fixtures_for(owner)) == 2
    with django_assert_max_num_queries(2):
        assert len(queries.challenges_awaiting(owner)) == 3
