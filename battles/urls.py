from django.urls import path

from battles.aftermath import views as aftermath
from battles.captives import views as captives
from battles.helper import views as helper
from battles.report.views import battle as report
from battles.report.views import scenario, side
from battles.schedule import views as schedule

urlpatterns = [
    path("campaigns/<int:pk>/battles/new/", report.battle_record, name="battle_record"),
    path("campaigns/<int:pk>/battles/report/", report.battle_report, name="battle_report"),
    path("campaigns/<int:pk>/battles/play/", helper.play_start, name="play_start"),
    path("campaigns/<int:pk>/battles/scenario-roll/", scenario.scenario_roll, name="scenario_roll"),
    path("campaigns/<int:pk>/schedule/", schedule.campaign_schedule, name="campaign_schedule"),
    path("campaigns/<int:pk>/rounds/new/", schedule.round_create, name="round_create"),
    path("campaigns/<int:pk>/challenges/new/", schedule.challenge_create, name="challenge_create"),
    path("rounds/<int:pk>/", schedule.round_detail, name="round_detail"),
    path("rounds/<int:pk>/pair/", schedule.round_pair, name="round_pair"),
    path("rounds/<int:pk>/games/", schedule.round_fixture_add, name="round_fixture_add"),
    path("rounds/<int:pk>/clear/", schedule.round_clear, name="round_clear"),
    path("rounds/<int:pk>/delete/", schedule.round_delete, name="round_delete"),
    path("challenges/<int:pk>/answer/", schedule.challenge_answer, name="challenge_answer"),
    path("challenges/<int:pk>/withdraw/", schedule.challenge_withdraw, name="challenge_withdraw"),
    path("battles/<int:pk>/", report.battle_detail, name="battle_detail"),
    path("battles/<int:pk>/play/", helper.play_page, name="play_page"),
    path("battles/<int:pk>/play/board/", helper.play_board, name="play_board"),
    path("battles/<int:pk>/play/move/", helper.play_move, name="play_move"),
    path(
        "battles/<int:pk>/play/fighters/<int:fighter_pk>/",
        helper.play_panel,
        name="play_panel",
    ),
    path("battles/<int:pk>/sides/<int:warband_pk>/", side.battle_side, name="battle_side"),
    path(
        "battles/<int:pk>/sides/<int:warband_pk>/as-recorded/",
        side.battle_side_as_recorded,
        name="battle_side_as_recorded",
    ),
    path("battles/<int:pk>/respond/", report.battle_respond, name="battle_respond"),
    path("battles/<int:pk>/confirm/", report.battle_confirm_all, name="battle_confirm_all"),
    path("battles/<int:pk>/correct/", report.battle_correct, name="battle_correct"),
    path(
        "battles/<int:pk>/fortune/markers/",
        report.battle_fortune_markers,
        name="battle_fortune_markers",
    ),
    path("battles/<int:pk>/fortune/discovery/", report.battle_discovery, name="battle_discovery"),
    path(
        "battles/<int:pk>/carried-items/<int:warband_pk>/",
        report.battle_declare,
        name="battle_declare",
    ),
    path(
        "battles/<int:pk>/recovery/start/",
        report.battle_recovery_start,
        name="battle_recovery_start",
    ),
    path("battles/<int:pk>/recovery/", report.battle_recover, name="battle_recover"),
    path("warbands/<int:pk>/captives/", captives.warband_captives, name="warband_captives"),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/ransom/",
        captives.captive_ransom,
        name="captive_ransom",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/exchange/",
        captives.captive_exchange,
        name="captive_exchange",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/fate/",
        captives.captive_fate,
        name="captive_fate",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/pay/",
        captives.captive_pay,
        name="captive_pay",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/accept/",
        captives.captive_accept,
        name="captive_accept",
    ),
    path("sequences/<int:pk>/", aftermath.sequence_detail, name="sequence_detail"),
    path(
        "sequences/<int:pk>/tasks/<int:task_pk>/",
        aftermath.sequence_task,
        name="sequence_task",
    ),
    path("sequences/<int:pk>/act/", aftermath.sequence_act, name="sequence_act"),
    path("sequences/<int:pk>/complete/", aftermath.sequence_complete, name="sequence_complete"),
    path("sequences/<int:pk>/undo/", aftermath.sequence_undo, name="sequence_undo"),
    path("sequences/<int:pk>/reopen/", aftermath.sequence_reopen, name="sequence_reopen"),
]
