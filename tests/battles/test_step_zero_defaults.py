"""Step 0's questions start from what the battle helper or the report already recorded, each
explained beside its field; nothing recorded says so (``battles.report.at_the_end``)."""

import re

import pytest
from django.urls import reverse

from battles.helper import end, moves, start
from battles.models import Fighter
from battles.report import services, sides
from battles.rules import ReportedResult, play
from tests.helpers import every_side_entered, warriors
from warbands.models import Skill, WarriorSkill

pytestmark = pytest.mark.django_db


def value_of(page: str, name: str) -> str | None:
    tag = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', page)
    assert tag, name
    if tag.group(0).startswith("<select"):
        chosen = re.search(r'<option value="(\d+)" selected>', page[tag.end() :])
        return chosen.group(1) if chosen else None
    found = re.search(r'value="([^"]*)"', tag.group(0))
    return found.group(1) if found else None


def declare_page(client, battle, warband):
    client.force_login(warband.owner)
    return client.get(reverse("battle_declare", args=[battle.pk, warband.pk])).content.decode()


def quartermaster(warrior):
    WarriorSkill.objects.create(warrior=warrior, skill=Skill.objects.get(key="quartermaster"))


def test_a_helper_game_fills_in_who_was_left_on_the_table(client, duel):
    """The helper knows every model's state: the henchman taken out leaves the others on the
    table, and of two Quartermasters only the one on his feet counts."""
    campaign, reavers = duel["campaign"], duel["reavers"]
    campaign.quartermaster_skill = True
    campaign.save(update_fields=["quartermaster_skill"])
    captain, champion, group = warriors(reavers)
    quartermaster(captain)
    quartermaster(champion)
    battle = start.start_game(
        actor=reavers.owner, campaign=campaign, scenario_key="skirmish",
        warband_ids=[reavers.pk, duel["scourge"].pk],
    )  # fmt: skip
    models = Fighter.objects.filter(game__battle=battle, side__participant__warband=reavers)
    total = models.count()
    henchman = models.get(warrior=group, number=1)
    moves.set_state(battle.pk, henchman.pk, play.OUT_OF_ACTION, actor=reavers.owner,
                    cause="enemy", by_id=warriors(duel["scourge"])[0].pk)  # fmt: skip
    moves.set_state(battle.pk, models.get(warrior=champion).pk, play.KNOCKED_DOWN,
                    actor=reavers.owner)  # fmt: skip
    end.end_game(battle.pk, actor=reavers.owner, winner_id=None)

    page = declare_page(client, battle, reavers)

    assert value_of(page, "securers") == str(total - 1)
    assert value_of(page, "quartermasters") == "1"
    assert "so the recovery rolls need to know how many you had left" in page
    assert "From the battle helper&#x27;s table at the end of the game." in page
    assert "Not recorded: choose it if a Band of Pitters fought with you." in page


def test_a_reported_game_counts_the_models_not_out_of_action(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    captain, _champion, group = warriors(reavers)
    battle = services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="Skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip
    before = declare_page(client, battle, reavers)
    assert value_of(before, "securers") is None
    assert "Not recorded: count them." in before

    every_side_entered(
        battle,
        [
            sides.Outcome(captain.pk, out_of_action=True),
            sides.Outcome(group.pk, models_out_of_action=2),
        ],
    )
    models = sum(w.group_size for w in sides.fighters(reavers))

    page = declare_page(client, battle, reavers)

    assert value_of(page, "securers") == str(models - 1 - 2)
    assert "From the report&#x27;s side: those not out of action." in page
    assert "Not recorded: count them." not in page


def test_the_declaration_says_why_each_question_is_asked(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="Skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip
    every_side_entered(battle)
    services.respond(battle, actor=scourge.owner, agree=True)

    page = declare_page(client, battle, reavers)

    assert 'data-testid="why-items"' in page
    assert "moves every recovery roll one (or two) your way" in page
    assert value_of(page, "securers") == str(sum(w.group_size for w in sides.fighters(reavers)))
