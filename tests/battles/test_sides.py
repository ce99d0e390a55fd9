"""Each side reports its own warriors (battles.report.sides): who enters, who is offered, what a
side holds, and that nobody confirms a battle over a side not entered."""

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from battles.models import Battle, Participant, WarriorOutcome
from battles.report import services, sides
from battles.rules import ReportedResult
from campaign.models import CampaignEvent
from core.errors import RuleViolation
from tests.helpers import message_beside, warriors
from warbands.models import Warrior

pytestmark = pytest.mark.django_db


def report(duel, scenario_key="skirmish", actor=None):
    return services.report_battle(
        actor=actor or duel["reavers"].owner,
        campaign=duel["campaign"],
        scenario="",
        scenario_key=scenario_key,
        results=[
            ReportedResult(duel["reavers"].pk, "won"),
            ReportedResult(duel["scourge"].pk, "lost", True, 1),
        ],
    )


def enter(battle, warband, actor=None, **kwargs):
    kwargs.setdefault("outcomes", sides.whole_side(warband))
    return sides.enter_side(battle, warband, actor=actor or warband.owner, **kwargs)


def confirmation(battle, warband) -> str:
    return Participant.objects.get(battle=battle, warband=warband).confirmation


def test_a_listed_scenario_names_the_battle(duel):
    battle = report(duel, "street_fight")

    assert (battle.scenario, battle.scenario_key) == ("Street Fight", "street_fight")
    with pytest.raises(RuleViolation, match="Pick a scenario"):
        report(duel, "no_such_scenario")


def test_only_the_sides_player_or_an_organiser_enters_it(duel):
    battle = report(duel)

    for stranger in (duel["scourge"].owner, duel["bystander"]):
        with pytest.raises(PermissionDenied):
            enter(battle, duel["reavers"], actor=stranger)
    assert not WarriorOutcome.objects.exists()
    enter(battle, duel["reavers"])
    enter(battle, duel["scourge"], actor=duel["organiser"])
    assert WarriorOutcome.objects.filter(participant__warband=duel["scourge"]).count() == 3


def test_nobody_confirms_over_a_side_not_entered(duel):
    battle = report(duel)
    enter(battle, duel["reavers"])

    with pytest.raises(RuleViolation, match="Waiting for Scourge"):
        services.respond(battle, actor=duel["scourge"].owner, agree=True)
    with pytest.raises(RuleViolation, match="Waiting for Scourge"):
        services.confirm_for_everybody(battle, actor=duel["organiser"])
    services.respond(battle, actor=duel["scourge"].owner, agree=False, reason="Not entered")
    battle.refresh_from_db()
    assert battle.status == "disputed"

    enter(battle, duel["scourge"])
    services.respond(battle, actor=duel["scourge"].owner, agree=True)
    services.respond(battle, actor=duel["reavers"].owner, agree=True)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONFIRMED


def test_entering_a_side_asks_the_others_to_confirm_again(duel):
    battle = report(duel)
    assert confirmation(battle, duel["reavers"]) == "confirmed"  # the reporter

    enter(battle, duel["reavers"])
    assert confirmation(battle, duel["reavers"]) == "confirmed"  # his own side changes nothing
    enter(battle, duel["scourge"])

    assert confirmation(battle, duel["reavers"]) == "pending"  # he has not seen it
    assert confirmation(battle, duel["scourge"]) == "pending"


def test_an_organiser_enters_a_side_for_an_absent_player_and_the_feed_says_so(duel):
    battle = report(duel)

    enter(battle, duel["scourge"], actor=duel["organiser"])

    participant = Participant.objects.get(battle=battle, warband=duel["scourge"])
    assert participant.side_entered_by == duel["organiser"]
    line = CampaignEvent.objects.get(kind="battle", battle=battle).message
    assert "organiser, entered what the warriors of Scourge did" in line
    assert duel["scourge"].owner.username in line


@pytest.mark.parametrize(
    ("absence", "shown"),
    [({"games_to_miss": 2}, "must miss 2 games"), ({"status": "captured"}, "held captive")],
)
def test_warriors_who_miss_the_game_or_are_held_captive_cannot_take_part(
    duel, client, absence, shown
):
    captain, champion, _ = warriors(duel["reavers"])
    Warrior.objects.filter(pk=champion.pk).update(**absence)
    battle = report(duel)

    with pytest.raises(RuleViolation, match="free to fight"):
        enter(battle, duel["reavers"], outcomes=[sides.Outcome(champion.pk)])
    client.force_login(duel["reavers"].owner)
    page = client.get(reverse("battle_side", args=[battle.pk, duel["reavers"].pk]))
    text = page.content.decode()
    assert f'name="o{champion.pk}-took_part"' not in text
    assert f"{champion.name} ({shown})" in text
    assert f'name="o{captain.pk}-took_part"' in text


def test_a_henchman_group_counts_its_models_out_of_action(duel):
    _, _, guards = warriors(duel["reavers"])
    battle = report(duel)

    enter(battle, duel["reavers"], outcomes=[sides.Outcome(guards.pk, models_out_of_action=2)])
    outcome = WarriorOutcome.objects.get(warrior=guards)
    assert (outcome.models_out_of_action, outcome.out_of_action) == (2, False)

    enter(battle, duel["reavers"], outcomes=[sides.Outcome(guards.pk, models_out_of_action=3)])
    assert WarriorOutcome.objects.get(warrior=guards).out_of_action  # the whole group
    with pytest.raises(RuleViolation, match="no more of them"):
        enter(battle, duel["reavers"], outcomes=[sides.Outcome(guards.pk, models_out_of_action=4)])


def test_an_award_only_one_warrior_of_the_battle_earns(duel):
    battle = report(duel, "street_fight")
    captain = duel["reavers"].warriors.get(is_leader=True)
    rat = duel["scourge"].warriors.get(is_leader=True)
    enter(battle, duel["reavers"], outcomes=[sides.Outcome(captain.pk, awards={"escaping": 1})])

    with pytest.raises(RuleViolation, match="Only one warrior of the battle"):
        enter(battle, duel["scourge"], outcomes=[sides.Outcome(rat.pk, awards={"escaping": 1})])
    _, _, guards = warriors(duel["reavers"])
    with pytest.raises(RuleViolation, match="Only a hero"):
        enter(battle, duel["reavers"], outcomes=[sides.Outcome(guards.pk, awards={"escaping": 1})])


def test_the_leader_in_battle_is_a_hero_who_took_part(duel):
    captain, champion, guards = warriors(duel["reavers"])
    battle = report(duel)

    side = enter(battle, duel["reavers"], outcomes=[sides.Outcome(champion.pk)])
    assert side.leader is None  # the captain did not fight and nobody was named
    side = enter(
        battle, duel["reavers"], outcomes=[sides.Outcome(champion.pk)], leader_id=champion.pk
    )
    assert side.leader == champion
    for wrong in (captain, guards):
        with pytest.raises(RuleViolation, match="leader in the battle"):
            enter(
                battle, duel["reavers"], leader_id=wrong.pk,
                outcomes=[sides.Outcome(champion.pk), sides.Outcome(guards.pk)],
            )  # fmt: skip


def test_a_scenarios_wyrdstone_is_bounded_by_the_scenario(duel):
    hunt = report(duel, "wyrdstone_hunt")
    enter(hunt, duel["reavers"], scenario_shards=4)
    with pytest.raises(RuleViolation, match="4 shard"):
        enter(hunt, duel["reavers"], scenario_shards=5)
    skirmish = report(duel, "skirmish")
    with pytest.raises(RuleViolation, match="no wyrdstone of its own"):
        enter(skirmish, duel["reavers"], scenario_shards=1)


def test_the_side_page_enters_the_side_and_refuses_the_opponent(duel, client):
    captain, _, guards = warriors(duel["reavers"])
    battle = report(duel, "wyrdstone_hunt")
    url = reverse("battle_side", args=[battle.pk, duel["reavers"].pk])
    client.force_login(duel["scourge"].owner)
    assert client.get(url).status_code == 403
    client.force_login(duel["reavers"].owner)

    response = client.post(
        url,
        {
            f"o{captain.pk}-took_part": "on", f"o{captain.pk}-enemies": "2",
            f"o{captain.pk}-award_wyrdstone_counter": "1",
            f"o{guards.pk}-took_part": "on", f"o{guards.pk}-models": "2",
            "leader": str(captain.pk), "shards": "1",
        },
    )  # fmt: skip

    assert response.status_code == 302
    outcomes = {o.warrior_id: o for o in WarriorOutcome.objects.all()}
    assert set(outcomes) == {captain.pk, guards.pk}  # the champion did not take part
    assert outcomes[captain.pk].awards == {"wyrdstone_counter": 1}
    assert outcomes[guards.pk].models_out_of_action == 2
    assert Participant.objects.get(battle=battle, warband=duel["reavers"]).scenario_shards == 1
    board = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert "waiting for Scourge" in board
    assert "wyrdstone counter carried at the end" in board


def test_a_refused_side_shows_each_message_beside_its_field_and_saves_nothing(duel, client):
    captain, _, guards = warriors(duel["reavers"])
    battle = report(duel)
    enter(battle, duel["reavers"])
    before = list(WarriorOutcome.objects.values_list("warrior_id", "models_out_of_action"))
    client.force_login(duel["reavers"].owner)

    response = client.post(reverse("battle_side", args=[battle.pk, duel["reavers"].pk]), {
        f"o{captain.pk}-took_part": "on", f"o{guards.pk}-took_part": "on",
        f"o{guards.pk}-models": str(guards.group_size + 1), "leader": str(captain.pk),
    })  # fmt: skip
    html = response.content.decode()

    assert response.status_code == 422
    field = f"id_o{guards.pk}-models"
    assert f"less than or equal to {guards.group_size}" in message_beside(html, field)
    assert f'max="{guards.group_size}"' in re.search(rf'<input[^>]*id="{field}"[^>]*>', html)[0]
    assert f'value="{guards.group_size + 1}"' in html  # what was typed stays
    assert list(WarriorOutcome.objects.values_list("warrior_id", "models_out_of_action")) == before
