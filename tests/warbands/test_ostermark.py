"""The Ostermarkers (the fourth Mercenaries variant, Grade 1b): what their own rules change in
the app. The captain brings his wardog at no cost when he is hired at the muster (the
``starting_item`` effect); every failed Rout test may be rolled again in the battle helper (the
``rout_reroll`` effect), the second roll standing; the list is a Mercenaries list for the hired
swords. The list against its text: ``test_grade_1b_1c_lists``; its musters:
``test_grade_1b_1c_musters``."""

import html
import json
import re

import pytest
from django.urls import reverse

from battles.helper import moves, rout, start
from battles.models import Fighter, GameSide
from battles.rules import play
from tests.factories import WarbandFactory, hire, mustered_warband
from tests.helpers import warriors
from warbands import hired_swords, services
from warbands.models import HiredSwordType, Item, WarbandType, WarriorItem
from warbands.reference import DATA_DIR, warband_files
from warbands.rules.special_rules import APPLIED, TABLE, handling, handling_for

pytestmark = pytest.mark.django_db


def ostermark(**kwargs):
    return WarbandFactory(warband_type=WarbandType.objects.get(key="ostermark"), **kwargs)


def items_of(warrior) -> list[tuple[str, int]]:
    owned = WarriorItem.objects.filter(warrior=warrior)
    return sorted(owned.values_list("item__key", "price_paid"))


def test_the_captain_brings_his_wardog_at_no_cost_and_no_one_else_does():
    warband = ostermark()
    captain = hire(warband, "mercenary_captain")
    champion = hire(warband, "champion")

    assert items_of(captain) == [("dagger", 0), ("wardog", 0)]
    assert items_of(champion) == [("dagger", 0)]
    assert warband.gold_crowns == 500 - 60 - 35
    dog = WarriorItem.objects.get(warrior=captain, item__key="wardog")
    services.remove_item(dog, actor=warband.owner)  # the player may leave it at the farm
    warband.refresh_from_db()
    assert warband.gold_crowns == 500 - 60 - 35  # nothing comes back: it cost nothing


def test_a_reikland_captain_brings_no_wardog():
    warband = WarbandFactory(warband_type=WarbandType.objects.get(key="reikland"))
    assert items_of(hire(warband, "mercenary_captain")) == [("dagger", 0)]


def test_every_starting_item_of_the_lists_is_an_item_of_the_catalogue():
    named = [
        rule["item"]
        for path in warband_files(DATA_DIR)
        for warrior in json.loads(path.read_text(encoding="utf-8"))["warriors"]
        for rule in warrior.get("special_rules", [])
        if rule.get("effect") == "starting_item"
    ]
    assert "wardog" in named  # the Ostermark captain's; the Lustrian Reavers' heroes' gear too
    assert Item.objects.filter(key__in=named).count() == len(set(named))


def test_the_pages_say_which_of_the_rules_the_app_applies():
    warband_type = WarbandType.objects.get(key="ostermark")
    kinds = {rule["name"]: handling(rule).kind for rule in warband_type.special_rules}
    assert kinds == {
        "Hardy (Rout tests)": APPLIED,
        "Hardy (All Alone)": TABLE,
        "Skill Table": TABLE,
    }
    captain = warband_type.warrior_types.get(key="mercenary_captain")
    dog = next(r for r in captain.special_rules if r["name"] == "Farm Dog")
    assert handling_for(dog, captain).kind == APPLIED


def test_the_muster_board_shows_the_dog_and_what_the_app_does_with_each_rule(client):
    warband = ostermark()
    hire(warband, "mercenary_captain")
    client.force_login(warband.owner)
    page = client.get(reverse("warband_muster", args=[warband.pk])).content.decode()

    assert "Wardog" in page and "Farm Dog" in page and "Hardy (Rout tests)" in page
    notes = [html.unescape(n) for n in re.findall(r'data-testid="rule-handling">([^<]*)<', page)]
    assert "Applied by the app: the battle helper's Rout test, which offers the re-roll." in notes
    assert "Applied by the app: the item he brings when hired at the muster, at no cost." in notes


def test_the_heroes_take_the_reikland_skill_table():
    def table(key):
        heroes = WarbandType.objects.get(key=key).warrior_types.filter(kind="hero")
        return {h.key: sorted(h.skill_lists.values_list("key", flat=True)) for h in heroes}

    assert table("ostermark") == table("reikland")


@pytest.mark.parametrize(
    ("sword", "hired"),
    [
        ("roadwarden", True),  # "Mercenaries" among the few he serves
        ("warrior_priest_of_sigmar", True),  # any but Middenheim's
        ("wolf_priest_of_ulric", False),  # Middenheim's only
        ("dark_elf_assassin", False),  # evil warbands only
    ],
)
def test_the_hired_swords_serve_them_as_mercenaries(sword, hired):
    warband = ostermark()
    refusal = hired_swords.sword_refusal(warband, HiredSwordType.objects.get(key=sword))
    assert (refusal is None) == hired, refusal


# --- The Rout test in the battle helper -------------------------------------------------------


def farmers_in_a_game(duel):
    """The Reavers against an Ostermark warband (captain, champion, three warriors) with two of
    its five out of action as its first turn begins: a Rout test is due."""
    ostermark_list = WarbandType.objects.get(key="ostermark")
    farmers = mustered_warband(
        campaign=duel["campaign"], name="Farmers", warband_type=ostermark_list
    )
    reavers = duel["reavers"]
    battle = start.start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, farmers.pk],
    )  # fmt: skip
    theirs = list(Fighter.objects.filter(game__battle=battle, side__position=1))
    assert len(theirs) == 5
    for target in theirs[:2]:
        moves.set_state(battle.pk, target.pk, play.OUT_OF_ACTION, actor=farmers.owner,
                        cause="enemy", by_id=warriors(reavers)[1].pk)  # fmt: skip
    for _ in play.PHASE_ORDER:
        moves.next_phase(battle.pk, actor=reavers.owner)
    return battle, theirs[0].side_id, farmers.owner


def test_a_failed_rout_test_is_rolled_again_and_the_second_roll_stands(duel):
    battle, side_id, owner = farmers_in_a_game(duel)

    rout.take_rout_test(battle.pk, side_id, entered="6 6", actor=owner)
    side = GameSide.objects.get(pk=side_id)
    offered = rout.rerolls(side, rout.side_fighters(side))
    assert [(r.key, r.label) for r in offered] == [("rout_reroll", "Hardy (Rout tests)")]
    assert side.rout_failed and not side.participant.routed

    rout.reroll(battle.pk, side_id, "rout_reroll", entered="5 6", actor=owner)
    side.refresh_from_db()
    assert side.participant.routed  # failed again: no third roll, the warband routs


def test_the_rerolled_test_passed_the_game_goes_on(duel):
    battle, side_id, owner = farmers_in_a_game(duel)
    rout.take_rout_test(battle.pk, side_id, entered="6 5", actor=owner)

    rout.reroll(battle.pk, side_id, "rout_reroll", entered="2 3", actor=owner)

    side = GameSide.objects.get(pk=side_id)
    assert not side.rout_failed and not side.participant.routed
    moves.next_phase(battle.pk, actor=owner)  # nothing holds the turn any more
