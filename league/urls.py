from django.urls import path

from league import guides, lists, views
from league.accounts import views as accounts

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("warbands/<int:pk>/disband/", views.warband_disband, name="warband_disband"),
    path("accounts/", accounts.account, name="account"),
    path("accounts/download/", accounts.account_download, name="account_download"),
    path("accounts/delete/", accounts.account_delete, name="account_delete"),
    path("guide/", guides.guide_player, name="guide_player"),
    path("guide/organiser/", guides.guide_organiser, name="guide_organiser"),
    path("guide/hired-swords/", guides.guide_hired_swords, name="guide_hired_swords"),
    path("campaigns/<int:pk>/", views.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/feed/", views.campaign_feed, name="campaign_feed"),
    path("campaigns/<int:pk>/table/", lists.campaign_table, name="campaign_table"),
    path("campaigns/<int:pk>/battles/", lists.campaign_battles, name="campaign_battles"),
    path("campaigns/<int:pk>/members/", lists.campaign_members, name="campaign_members"),
    path("campaigns/past/", views.past_campaigns, name="past_campaigns"),
    path("campaigns/<int:pk>/battles.csv", views.battle_export, name="battle_export"),
    path("campaigns/<int:pk>/standings.csv", views.standings_export, name="standings_export"),
    path("campaigns/<int:pk>/settings/", views.campaign_settings, name="campaign_settings"),
    path("campaigns/<int:pk>/organisers/", views.co_organiser_add, name="co_organiser_add"),
    path(
        "campaigns/<int:pk>/members/<int:membership_pk>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path(
        "campaigns/<int:pk>/warbands/<int:warband_pk>/archive/",
        views.warband_archive,
        name="warband_archive",
    ),
    path("campaigns/<int:pk>/random-fortune/", views.fortune_table, name="fortune_table"),
]
