"""Random fortune (Mayhem in Mordheim), with scripted dice."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from battles import rules
from battles.report import fortune, services
from battles.report.forms import FortuneTableForm
from battles.rules import ReportedResult
from campaign.models import RandomFortuneEntry
from core.dice import ScriptedDice
from core.errors import RuleViolation
from warbands.models import VesselItem


@pytest.mark.parametrize(("face", "markers"), [(1, 3), (2, 3), (3, 4), (4, 4), (5, 5), (6, 5)])
def test_markers_are_a_d3_plus_the_number_of_warbands(face, markers):
    assert rules.random_fortune_markers(ScriptedDice([face]), warbands=2) == markers


def test_placement_goes_from_the_lowest_rating_and_ties_roll_off():
    placers = [
        rules.Placer(1, "High", 140),
        rules.Placer(2, "Low A", 80),
        rules.Placer(3, "Low B", 80),
        rules.Placer(4, "Middle", 100),
    ]

    order = rules.placement_order(placers, ScriptedDice([2, 5]))

    assert [p.name for p in order] == ["Low B", "Low A", "Middle", "High"]


@pytest.mark.parametrize(
    ("face", "artefact", "discovered", "cult"),
    [
        (1, False, False, False),
        (1, True, False, True),
        (2, True, False, False),
        (3, False, False, False),
        (4, False, True, False),
        (5, True, True, False),
        (6, False, True, False),
    ],
)
def test_discovery_tests(face, artefact, discovered, cult):
    test = rules.discovery_test(ScriptedDice([face]), warband="W", holds_dark_artefact=artefact)

    assert (test.discovered, test.cult_attack) == (discovered, cult)


def test_the_fortune_table_lookup_by_d66_and_d100():
    rows = [
        rules.FortuneRow(11, 16, "Silver goblet", "carried_item"),
        rules.FortuneRow(21, 26, "Mule", "animal"),
    ]

    assert rules.fortune_roll(ScriptedDice([2, 4]), "d66") == 24
    assert rules.look_up_fortune(rows, 24).result == "Mule"
    assert rules.look_up_fortune(rows, 31) is None
    assert rules.fortune_roll(ScriptedDice([73]), "d100") == 73


pytestmark = pytest.mark.django_db


def fortune_battle(duel, *, d3_face=6):
    """A battle with random fortune in play, its markers rolled (a 6 for the D3: 5 markers
    for two warbands; their ratings tie, so two roll-off dice follow)."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = services.report_battle(
        actor=reavers.owner,
        campaign=duel["campaign"],
        scenario="Hidden Treasure",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost", True, 1)],
        random_fortune=True,
    )
    if d3_face is not None:
        fortune.roll_fortune_markers(
            battle, actor=reavers.owner, dice=ScriptedDice([d3_face, 3, 4])
        )
    return battle


def test_markers_are_rolled_once_and_logged(duel):
    battle = fortune_battle(duel, d3_face=None)

    markers, order = fortune.roll_fortune_markers(
        battle, actor=duel["reavers"].owner, dice=ScriptedDice([6, 3, 4])
    )

    assert markers == 5
    assert len(order) == 2
    with pytest.raises(RuleViolation, match="already"):
        fortune.roll_fortune_markers(battle, actor=duel["reavers"].owner, dice=ScriptedDice([1]))


def test_a_discovery_uses_the_campaigns_table_when_there_is_one(duel):
    RandomFortuneEntry.objects.create(
        campaign=duel["campaign"], table="d66", low=31, high=36, result="Bag of gems"
    )
    battle = fortune_battle(duel)

    found = fortune.test_discovery(
        battle, duel["reavers"], actor=duel["reavers"].owner, dice=ScriptedDice([4, 3, 2])
    )

    assert (found.discovered, found.table_roll, found.result) == (True, 32, "Bag of gems")


def test_without_a_table_the_discovery_is_recorded_as_typed(duel):
    battle = fortune_battle(duel)

    found = fortune.test_discovery(
        battle, duel["reavers"], actor=duel["reavers"].owner, dice=ScriptedDice([6]),
        result="A silver locket",
    )  # fmt: skip
    nothing = fortune.test_discovery(
        battle, duel["reavers"], actor=duel["reavers"].owner, dice=ScriptedDice([3])
    )

    assert (found.result, found.table_roll) == ("A silver locket", None)
    assert (nothing.discovered, nothing.result) == (False, "")


def test_a_natural_one_brings_the_cult_to_a_warband_with_a_dark_artefact(duel):
    VesselItem.objects.create(warband=duel["scourge"], kind="dark_artefact", name="Eye of Zar")
    battle = fortune_battle(duel)

    test = fortune.test_discovery(
        battle, duel["scourge"], actor=duel["scourge"].owner, dice=ScriptedDice([1])
    )

    assert test.cult_attack
    assert battle.campaign.events.filter(message__contains="The cult attacked Scourge").exists()


def test_random_fortune_must_be_in_play(duel):
    battle = services.report_battle(
        actor=duel["reavers"].owner,
        campaign=duel["campaign"],
        scenario="Skirmish",
        results=[
            ReportedResult(duel["reavers"].pk, "won"),
            ReportedResult(duel["scourge"].pk, "lost"),
        ],
    )

    with pytest.raises(RuleViolation, match="not in play"):
        fortune.test_discovery(
            battle, duel["reavers"], actor=duel["reavers"].owner, dice=ScriptedDice([5])
        )


def test_no_marker_is_tested_before_the_markers_are_rolled(duel):
    battle = fortune_battle(duel, d3_face=None)

    with pytest.raises(RuleViolation, match="Roll the random fortune markers first"):
        fortune.test_discovery(
            battle, duel["reavers"], actor=duel["reavers"].owner, dice=ScriptedDice([5])
        )
    assert not battle.discoveries.exists()


def test_no_more_tests_than_markers_placed(duel):
    battle = fortune_battle(duel, d3_face=3)  # D3 2 + two warbands: 4 markers
    reavers, scourge = duel["reavers"], duel["scourge"]
    for warband, face in ((reavers, 5), (scourge, 2), (reavers, 3), (scourge, 6)):
        fortune.test_discovery(battle, warband, actor=warband.owner, dice=ScriptedDice([face]))

    with pytest.raises(RuleViolation, match="All 4 random fortune markers have been tested"):
        fortune.test_discovery(battle, reavers, actor=reavers.owner, dice=ScriptedDice([6]))
    assert battle.discoveries.count() == 4
    assert fortune.markers_left(battle) == 0


def test_a_player_never_tests_a_marker_for_the_opponent(duel):
    battle = fortune_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]

    with pytest.raises(PermissionDenied):
        fortune.test_discovery(battle, scourge, actor=reavers.owner, dice=ScriptedDice([1]))
    assert not battle.discoveries.exists()


def test_an_organiser_tests_a_marker_for_the_warband_that_reached_it(duel):
    battle = fortune_battle(duel)

    found = fortune.test_discovery(
        battle, duel["scourge"], actor=duel["organiser"], dice=ScriptedDice([4]),
        result="A rusty key",
    )  # fmt: skip

    assert (found.warband, found.result) == (duel["scourge"], "A rusty key")


HTMX = {"HX-Request": "true"}


def test_the_discovery_form_offers_a_player_only_his_own_warband(client, duel):
    battle = fortune_battle(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    client.force_login(reavers.owner)
    url = reverse("battle_discovery", args=[battle.pk])

    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    form = page.split(f'action="{url}"')[1].split("</form>")[0]
    assert f'<option value="{reavers.pk}">' in form
    assert f'<option value="{scourge.pk}">' not in form
    assert "5 markers left to test" in page

    response = client.post(url, {"warband": scourge.pk, "dice": "1"}, headers=HTMX)
    assert response.status_code == 403
    response = client.post(url, {"warband": reavers.pk, "dice": "2"}, headers=HTMX)
    assert response.status_code == 200
    assert "4 markers left to test" in response.content.decode()
    assert list(battle.discoveries.values_list("warband", flat=True)) == [reavers.pk]


def test_once_every_marker_is_tested_the_page_offers_no_more_tests(client, duel):
    battle = fortune_battle(duel, d3_face=1)  # 3 markers
    for _ in range(3):
        fortune.test_discovery(
            battle, duel["reavers"], actor=duel["reavers"].owner, dice=ScriptedDice([2])
        )
    client.force_login(duel["organiser"])
    url = reverse("battle_discovery", args=[battle.pk])

    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    assert f'action="{url}"' not in page
    response = client.post(url, {"warband": duel["scourge"].pk, "dice": "6"}, headers=HTMX)
    assert response.status_code == 422
    assert "All 3 random fortune markers have been tested" in response.content.decode()


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        ("11-16 | Goblet | carried_item", None),
        ("11-16 Goblet", "write low-high | result | kind"),
        ("a-b | Goblet", "is not a range"),
        ("60-70 | Goblet", "must lie in 1-66"),
        ("11-16 | Goblet | dragon", "kind must be one of"),
        ("11-16 | A\n14-20 | B", "cover the same roll"),
    ],
)
def test_the_fortune_table_form(lines, error):
    form = FortuneTableForm({"table": "d66", "lines": lines})

    assert form.is_valid() is (error is None)
    if error:
        assert error in str(form.errors)
    else:
        assert form.cleaned_data["rows"] == [(11, 16, "Goblet", "carried_item")]
