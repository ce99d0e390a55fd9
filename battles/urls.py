from django.urls import path

from battles import captive_views, play_views, sequence_views, side_views, views

urlpatterns = [
    path("campaigns/<int:pk>/battles/new/", views.battle_record, name="battle_record"),
    path("campaigns/<int:pk>/battles/report/", views.battle_report, name="battle_report"),
    path("campaigns/<int:pk>/battles/play/", play_views.play_start, name="play_start"),
    path("battles/<int:pk>/", views.battle_detail, name="battle_detail"),
    path("battles/<int:pk>/play/", play_views.play_page, name="play_page"),
    path("battles/<int:pk>/play/board/", play_views.play_board, name="play_board"),
    path("battles/<int:pk>/play/move/", play_views.play_move, name="play_move"),
    path(
        "battles/<int:pk>/play/fighters/<int:fighter_pk>/",
        play_views.play_panel,
        name="play_panel",
    ),
    path("battles/<int:pk>/sides/<int:warband_pk>/", side_views.battle_side, name="battle_side"),
    path("battles/<int:pk>/respond/", views.battle_respond, name="battle_respond"),
    path("battles/<int:pk>/confirm/", views.battle_confirm_all, name="battle_confirm_all"),
    path("battles/<int:pk>/correct/", views.battle_correct, name="battle_correct"),
    path(
        "battles/<int:pk>/fortune/markers/",
        views.battle_fortune_markers,
        name="battle_fortune_markers",
    ),
    path("battles/<int:pk>/fortune/discovery/", views.battle_discovery, name="battle_discovery"),
    path(
        "battles/<int:pk>/carried-items/<int:warband_pk>/",
        views.battle_declare,
        name="battle_declare",
    ),
    path(
        "battles/<int:pk>/recovery/start/",
        views.battle_recovery_start,
        name="battle_recovery_start",
    ),
    path("battles/<int:pk>/recovery/", views.battle_recover, name="battle_recover"),
    path("warbands/<int:pk>/captives/", captive_views.warband_captives, name="warband_captives"),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/ransom/",
        captive_views.captive_ransom,
        name="captive_ransom",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/exchange/",
        captive_views.captive_exchange,
        name="captive_exchange",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/fate/",
        captive_views.captive_fate,
        name="captive_fate",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/pay/",
        captive_views.captive_pay,
        name="captive_pay",
    ),
    path(
        "warbands/<int:pk>/captives/<int:captive_pk>/accept/",
        captive_views.captive_accept,
        name="captive_accept",
    ),
    path("sequences/<int:pk>/", sequence_views.sequence_detail, name="sequence_detail"),
    path(
        "sequences/<int:pk>/tasks/<int:task_pk>/",
        sequence_views.sequence_task,
        name="sequence_task",
    ),
    path("sequences/<int:pk>/act/", sequence_views.sequence_act, name="sequence_act"),
    path(
        "sequences/<int:pk>/complete/", sequence_views.sequence_complete, name="sequence_complete"
    ),
    path("sequences/<int:pk>/undo/", sequence_views.sequence_undo, name="sequence_undo"),
    path("sequences/<int:pk>/reopen/", sequence_views.sequence_reopen, name="sequence_reopen"),
]
