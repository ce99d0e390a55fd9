"""Choosing a scenario of the chapter: the picker's filter on the report, record and helper
pages, the roll on the scenario tables written in the feed, a side's role and the awards of
its role, and what a scenario changes in step 3 (battles.rules.scenarios)."""

import html
import re

import pytest
from django.urls import reverse

from battles.forms import scenario_list
from battles.helper import start
from battles.models import Battle, Participant, WarriorOutcome
from battles.report import scenario_roll, services, sides
from battles.rules import ReportedResult, scenarios
from campaign.models import CampaignEvent
from core.dice import ScriptedDice
from core.errors import RuleViolation
from tests.battles.test_scenario_income_step import in_scenario
from tests.factories import mustered_warband
from tests.helpers import (
    battle_of,
    play_to,
    roll,
    sequence_of,
    task_of,
    warriors,
)

pytestmark = pytest.mark.django_db


def options(page: str) -> list[str]:
    select = re.search(r'<select name="scenario_key".*?</select>', page, re.S)[0]
    return re.findall(r'<option value="([^"]*)"', select)


def test_the_report_page_offers_every_scenario_for_two_warbands_by_default(client, duel):
    client.force_login(duel["reavers"].owner)
    page = client.get(reverse("battle_report", args=[duel["campaign"].pk])).content.decode()

    offered = options(page)
    assert "skirmish" in offered and "rawhide" in offered and offered[-1] == ""
    assert "square_of_the_snake" not in offered  # four warbands
    assert "Roll for the scenario" in page


def test_the_filter_narrows_the_scenarios_offered_and_listed(client, duel):
    client.force_login(duel["reavers"].owner)
    url = reverse("battle_report", args=[duel["campaign"].pk])
    page = client.get(url, {"warbands": 4, "source": "Fanatic"}).content.decode()

    assert options(page) == [
        "protect_hornsbys_ferry", "stop_thief", "night_of_the_dead",
        "round_up_at_the_mordheim_corral", "the_recipe", "",
    ]  # fmt: skip
    assert "Wild boars have swallowed" in page  # each shown with its summary
    page = client.get(url, {"words": "ambush", "setting": "Mordheim"}).content.decode()
    assert options(page) == ["tc_ambush", "ambush_ap_89", "ambush_ap_90", ""]
    page = client.get(url, {"warbands": "lots", "words": "x" * 99}).content.decode()
    assert "skirmish" in options(page)  # a filter that does not read filters nothing


def listed(page: str) -> list[str]:
    """The titles in the picker's list of scenarios."""
    titles = re.findall(r'<details class="scenario">\s*<summary>([^<]*?) <small', page)
    return [html.unescape(t) for t in titles]


def test_the_list_is_drawn_once_for_each_set_of_scenarios(client, duel):
    """The list shows only the rules' data, so a process draws it once for each set a filter
    leaves (battles.forms.scenario_list) and every later page shows that copy."""
    scenario_list.cache_clear()
    client.force_login(duel["reavers"].owner)
    url = reverse("battle_report", args=[duel["campaign"].pk])
    drawn = "battles/_scenario_list.html"

    first = client.get(url, {"source": "Fanatic", "warbands": 4})
    again = client.get(url, {"source": "Fanatic", "warbands": 4, "words": ""})
    other = client.get(url, {"source": "Fanatic", "warbands": 4, "words": "thief"})
    none = client.get(url, {"words": "no such scenario"})

    assert [drawn in [t.name for t in r.templates] for r in (first, again, other, none)] == [
        True, False, True, True,
    ]  # fmt: skip
    fanatic = [s.title for s in scenarios.matching(warbands=4, source="Fanatic")]
    assert len(fanatic) == 5
    assert listed(first.content.decode()) == listed(again.content.decode()) == fanatic
    thief = [s.title for s in scenarios.matching(warbands=4, source="Fanatic", words="thief")]
    assert listed(other.content.decode()) == thief and len(thief) == 1
    assert "(5 shown)" in first.content.decode()
    assert "No scenario fits this filter." in none.content.decode()
    assert listed(none.content.decode()) == []


def test_a_scenario_the_filter_hid_is_still_reported(client, duel):
    client.force_login(duel["reavers"].owner)
    url = reverse("battle_report", args=[duel["campaign"].pk])
    response = client.post(
        f"{url}?source=Fanatic",
        {
            "scenario_key": "rawhide", "fought_on": "2026-11-30", "fortune_table": "d66",
            f"w{duel['reavers'].pk}-took_part": "on", f"w{duel['reavers'].pk}-result": "won",
            f"w{duel['scourge'].pk}-took_part": "on", f"w{duel['scourge'].pk}-result": "lost",
        },
    )  # fmt: skip

    assert response.status_code == 302
    assert Battle.objects.get().scenario == "Rawhide"


def test_the_helper_page_has_the_picker(client, duel):
    client.force_login(duel["reavers"].owner)
    url = reverse("play_start", args=[duel["campaign"].pk])
    page = client.get(url, {"source": "Archive Pestilen", "warbands": 4}).content.decode()

    assert options(page) == ["skirmish", "dont_wake_the_giant", "square_of_the_snake", ""]


def roll_post(client, duel, dice, warbands=None, back="report"):
    ids = warbands or [duel["reavers"].pk, duel["scourge"].pk]
    return client.post(
        reverse("scenario_roll", args=[duel["campaign"].pk]),
        {"warbands": ids, "dice": dice, "back": back},
    )


def test_a_roll_for_the_scenario_is_in_the_feed_and_chooses_it(client, duel):
    client.force_login(duel["scourge"].owner)
    response = roll_post(client, duel, "3 4")

    assert response.status_code == 302
    assert response["Location"].endswith("/battles/report/?scenario=skirmish&warbands=2")
    event = CampaignEvent.objects.filter(campaign=duel["campaign"]).latest("pk")
    assert event.message == (
        f"{duel['scourge'].owner.username} rolled for the scenario of Reavers, Scourge: 2D6 on "
        "the rulebook's scenario table: 3+4 = 7, play Skirmish."
    )
    page = client.get(response["Location"]).content.decode()
    assert re.search(r'<option value="skirmish" selected>', page)
    assert "3+4 = 7, play Skirmish." in page  # the message on the page


def test_on_a_twelve_the_lowest_rated_warband_chooses(duel):
    duel["scourge"].warriors.first().delete()  # the Scourge are now the lower rated
    rolled = scenario_roll.roll_for_scenario(
        actor=duel["reavers"].owner, campaign=duel["campaign"],
        warband_ids=[duel["reavers"].pk, duel["scourge"].pk], dice=ScriptedDice([6, 6]),
    )  # fmt: skip

    assert rolled.roll.number is None
    assert rolled.message.endswith("6+6 = 12, Scourge, the lowest rated, chooses the scenario.")


def test_three_warbands_roll_on_the_multiplayer_table(duel):
    mob = mustered_warband(campaign=duel["campaign"], name="Mob", owner=duel["bystander"])
    rolled = scenario_roll.roll_for_scenario(
        actor=duel["reavers"].owner, campaign=duel["campaign"],
        warband_ids=[duel["reavers"].pk, duel["scourge"].pk, mob.pk], dice=ScriptedDice([2, 5]),
    )  # fmt: skip

    assert (rolled.roll.table, rolled.roll.name) == (
        "the multiplayer scenario table",
        "Street Brawl",
    )


def test_a_roll_is_refused_with_wrong_dice_or_a_lone_warband(client, duel):
    client.force_login(duel["reavers"].owner)
    before = CampaignEvent.objects.count()

    response = roll_post(client, duel, "3", back="play")
    assert response["Location"] == reverse("play_start", args=[duel["campaign"].pk])
    roll_post(client, duel, "", warbands=[duel["reavers"].pk])
    roll_post(client, duel, "9 9")

    assert CampaignEvent.objects.count() == before
    page = client.get(reverse("battle_report", args=[duel["campaign"].pk])).content.decode()
    assert "needs 2 dice" in page


# --- A side's role -------------------------------------------------------------------------


def report(duel, key):
    return services.report_battle(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario="", scenario_key=key,
        results=[ReportedResult(duel["reavers"].pk, "won"),
                 ReportedResult(duel["scourge"].pk, "lost", True, 1)],
    )  # fmt: skip


def test_a_role_award_needs_the_sides_role(duel):
    battle = report(duel, "rawhide")
    reavers = duel["reavers"]
    captain, _champion, guards = warriors(reavers)
    deeds = [sides.Outcome(guards.pk, awards={"stopping_wagon": 2}), sides.Outcome(captain.pk)]

    with pytest.raises(RuleViolation, match="side playing “ambushers”"):
        sides.enter_side(battle, reavers, actor=reavers.owner, outcomes=deeds)
    with pytest.raises(RuleViolation, match="side playing “ambushers”"):
        sides.enter_side(battle, reavers, actor=reavers.owner, outcomes=deeds, role="Marienburgers")
    with pytest.raises(RuleViolation, match="no role “pirates”"):
        sides.enter_side(battle, reavers, actor=reavers.owner, outcomes=deeds, role="pirates")
    sides.enter_side(battle, reavers, actor=reavers.owner, outcomes=deeds, role="ambushers")

    assert Participant.objects.get(battle=battle, warband=reavers).role == "ambushers"


def test_the_side_page_asks_the_role_only_for_a_scenario_with_roles(client, duel):
    client.force_login(duel["reavers"].owner)
    battle = report(duel, "rawhide")
    url = reverse("battle_side", args=[battle.pk, duel["reavers"].pk])
    page = client.get(url).content.decode()
    assert 'name="role"' in page and "ambushers only" in page

    skirmish = report(duel, "skirmish")
    page = client.get(reverse("battle_side", args=[skirmish.pk, duel["reavers"].pk]))
    assert 'name="role"' not in page.content.decode()


def test_step_two_gives_the_role_award_to_the_side_of_that_role(duel):
    reavers = duel["reavers"]
    battle = in_scenario(battle_of(duel), "rawhide")
    captain, _champion, guards = warriors(reavers)
    outcomes = WarriorOutcome.objects.filter(participant__battle=battle)
    outcomes.filter(warrior=captain).update(awards={"successful_ambush": 1})
    outcomes.filter(warrior=guards).update(awards={"stopping_wagon": 1, "getting_away": 1})
    battle.participants.filter(warband=reavers).update(role="ambushers")
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)

    text = str(sequence.state["experience_lines"])
    assert "leader whose warband stopped the wyrdstone" in text
    assert "stopped a wagon" in text
    assert "drove a wagon off the table" not in text  # the Marienburgers' award


# --- Exploration after the scenario ----------------------------------------------------------


def test_nobody_explores_after_the_wizards_tower(duel):
    reavers = duel["reavers"]
    battle = in_scenario(battle_of(duel), "the_wizards_tower")
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    task = task_of(sequence, "exploration")

    assert task.label == "Exploration: 0 dice (The Wizard's Tower: no exploration)"
    done = roll(sequence, task, [], reavers.owner)
    assert done.summary.startswith("Dice none = 0; 0 wyrdstone shards")


def test_only_the_winner_explores_after_mordheims_burning_and_without_his_extra_die(duel):
    reavers = duel["reavers"]
    battle = in_scenario(battle_of(duel), "mordheims_burning")
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    assert task_of(sequence, "exploration").label == (
        "Exploration: 2 dice (one won, -1 from Mordheim's Burning)"
    )

    loser = in_scenario(battle_of(duel, won=False), "mordheims_burning")
    sequence = play_to(sequence_of(loser, reavers), 3, reavers.owner)
    assert task_of(sequence, "exploration").label.startswith("Exploration: 0 dice")


def test_the_battle_helper_shows_what_the_scenario_leaves_to_the_table(client, duel):
    """A game of Ambush! (Town Cryer): no Rout tests, and the defenders' counters are the
    players' to place: the helper's page says both where the players look during the game."""
    played = scenarios.scenario("tc_ambush")
    assert not played.aftermath.rout_tests and played.table
    battle = start.start_game(
        actor=duel["reavers"].owner, campaign=duel["campaign"], scenario_key="tc_ambush",
        warband_ids=[duel["reavers"].pk, duel["scourge"].pk],
    )  # fmt: skip
    client.force_login(duel["scourge"].owner)
    page = client.get(reverse("play_page", args=[battle.pk])).content.decode()
    assert "no Rout tests" in page
    assert html.escape(played.table) in page
