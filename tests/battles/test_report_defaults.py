"""A battle report's rows read as players fill them: a result chosen means
the warband took part, ticked or not, so that "A battle needs at least two warbands" does not
greet a player who picked both results and forgot the boxes."""

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.report.forms import participant_rows, reported_results

pytestmark = pytest.mark.django_db


def test_a_row_with_a_result_took_part_and_a_row_without_did_not(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    data = {f"w{reavers.pk}-result": "won", f"w{scourge.pk}-took_part": "on"}

    results, errors = reported_results(participant_rows(data, [reavers, scourge]))

    assert [r.warband_id for r in results] == [reavers.pk]
    assert errors == ["Scourge: say whether it won, drew or lost."]


def test_a_report_with_results_and_no_boxes_ticked_is_recorded(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    client.force_login(reavers.owner)

    client.post(
        reverse("battle_report", args=[duel["campaign"].pk]),
        {"scenario_key": "skirmish", "fought_on": "2026-11-30",
         f"w{reavers.pk}-result": "won", f"w{scourge.pk}-result": "lost"},
    )  # fmt: skip

    battle = Battle.objects.get()
    assert set(battle.participants.values_list("warband__name", "result")) == {
        ("Reavers", "won"), ("Scourge", "lost")
    }  # fmt: skip
