from django.urls import path

from warbands import views

urlpatterns = [
    path("campaigns/<int:campaign_id>/warbands/new/", views.warband_create, name="warband_create"),
    path("warbands/<int:pk>/", views.warband_roster, name="warband_roster"),
    path("warbands/<int:pk>/muster/", views.warband_muster, name="warband_muster"),
    path("warbands/<int:pk>/hire/", views.warband_hire, name="warband_hire"),
    path("warbands/<int:pk>/finish/", views.warband_finish, name="warband_finish"),
    path("warbands/<int:pk>/rename/", views.warband_rename, name="warband_rename"),
    path("warbands/<int:pk>/disband/", views.warband_disband, name="warband_disband"),
    path("warbands/<int:pk>/export.json", views.warband_export, name="warband_export"),
    path("warriors/<int:pk>/items/", views.warrior_buy_item, name="warrior_buy_item"),
    path(
        "warriors/<int:pk>/items/<int:item_pk>/remove/",
        views.warrior_remove_item,
        name="warrior_remove_item",
    ),
    path("warriors/<int:pk>/size/", views.warrior_group_size, name="warrior_group_size"),
    path("warriors/<int:pk>/rename/", views.warrior_rename, name="warrior_rename"),
    path("warriors/<int:pk>/dismiss/", views.warrior_dismiss, name="warrior_dismiss"),
]
