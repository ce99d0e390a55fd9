from django.urls import path

from warbands import treasury_views, views

urlpatterns = [
    path("campaigns/<int:campaign_id>/warbands/new/", views.warband_create, name="warband_create"),
    path("warbands/<int:pk>/", views.warband_roster, name="warband_roster"),
    path("warbands/<int:pk>/muster/", views.warband_muster, name="warband_muster"),
    path("warbands/<int:pk>/hire/", views.warband_hire, name="warband_hire"),
    path("warbands/<int:pk>/finish/", views.warband_finish, name="warband_finish"),
    path(
        "warbands/<int:pk>/containers/buy/",
        views.warband_buy_container,
        name="warband_buy_container",
    ),
    path(
        "warbands/<int:pk>/containers/<int:container_pk>/return/",
        views.warband_return_container,
        name="warband_return_container",
    ),
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
    # The treasury (secret: see campaign.permissions)
    path("warbands/<int:pk>/treasury/", treasury_views.warband_treasury, name="warband_treasury"),
    path("warbands/<int:pk>/treasury/move/", treasury_views.treasury_move, name="treasury_move"),
    path("warbands/<int:pk>/treasury/buy/", treasury_views.treasury_buy, name="treasury_buy"),
    path("containers/<int:pk>/sell/", treasury_views.container_sell, name="container_sell"),
    path("containers/<int:pk>/place/", treasury_views.container_place, name="container_place"),
    path("containers/<int:pk>/name/", treasury_views.container_name, name="container_name"),
    path(
        "containers/<int:pk>/move-item/",
        treasury_views.container_move_item,
        name="container_move_item",
    ),
    path("containers/<int:pk>/equip/", treasury_views.container_equip, name="container_equip"),
    path("warriors/<int:pk>/store/", treasury_views.warrior_store_item, name="warrior_store_item"),
    path("vessels/<int:pk>/place/", treasury_views.vessel_place, name="vessel_place"),
]
