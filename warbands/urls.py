from django.urls import path

from warbands import correction_views, print_views, views
from warbands.house_rules import views as house_rules_views
from warbands.transfer import views as transfer_views
from warbands.treasury import views as treasury_views

urlpatterns = [
    path("campaigns/<int:campaign_id>/warbands/new/", views.warband_create, name="warband_create"),
    path(
        "campaigns/<int:campaign_id>/house-rules/",
        house_rules_views.house_rules,
        name="house_rules",
    ),
    path("warbands/<int:pk>/", views.warband_roster, name="warband_roster"),
    path("warbands/<int:pk>/muster/", views.warband_muster, name="warband_muster"),
    path("warbands/<int:pk>/hire/", views.warband_hire, name="warband_hire"),
    path("warbands/<int:pk>/hire-sword/", views.warband_hire_sword, name="warband_hire_sword"),
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
    path("warbands/<int:pk>/export.json", views.warband_export, name="warband_export"),
    path("warbands/<int:pk>/carry/", transfer_views.warband_carry, name="warband_carry"),
    path("campaigns/<int:pk>/import/", transfer_views.campaign_import, name="campaign_import"),
    path(
        "campaigns/<int:pk>/import/confirm/",
        transfer_views.campaign_import_confirm,
        name="campaign_import_confirm",
    ),
    path("warbands/<int:pk>/print/", print_views.warband_print, name="warband_print"),
    path("warriors/<int:pk>/items/", views.warrior_buy_item, name="warrior_buy_item"),
    path(
        "warriors/<int:pk>/items/<int:item_pk>/remove/",
        views.warrior_remove_item,
        name="warrior_remove_item",
    ),
    path("warriors/<int:pk>/lead/", views.warrior_lead, name="warrior_lead"),
    path("warriors/<int:pk>/size/", views.warrior_group_size, name="warrior_group_size"),
    path("warriors/<int:pk>/rename/", views.warrior_rename, name="warrior_rename"),
    path("warriors/<int:pk>/dismiss/", views.warrior_dismiss, name="warrior_dismiss"),
    # The treasury: secret, each view opens it through warbands.permissions.get_treasury_for_user
    path("warbands/<int:pk>/treasury/", treasury_views.warband_treasury, name="warband_treasury"),
    path("warbands/<int:pk>/treasury/move/", treasury_views.treasury_move, name="treasury_move"),
    path("warbands/<int:pk>/treasury/buy/", treasury_views.treasury_buy, name="treasury_buy"),
    path("warbands/<int:pk>/treasury/sell/", treasury_views.treasury_sell, name="treasury_sell"),
    path("warbands/<int:pk>/treasury/load/", treasury_views.treasury_place, name="treasury_place"),
    path(
        "warbands/<int:pk>/treasury/move-item/",
        treasury_views.treasury_move_item,
        name="treasury_move_item",
    ),
    path("warbands/<int:pk>/treasury/equip/", treasury_views.treasury_equip, name="treasury_equip"),
    path("warbands/<int:pk>/treasury/store/", treasury_views.treasury_store, name="treasury_store"),
    path(
        "warbands/<int:pk>/treasury/store-pile/",
        treasury_views.treasury_store_pile,
        name="treasury_store_pile",
    ),
    path("warbands/<int:pk>/treasury/name/", treasury_views.treasury_name, name="treasury_name"),
    path("vessels/<int:pk>/place/", treasury_views.vessel_place, name="vessel_place"),
    # Corrections by hand, outside the rules (the owner's and the organisers')
    path(
        "warbands/<int:pk>/corrections/",
        correction_views.warband_corrections,
        name="warband_corrections",
    ),
    path(
        "warbands/<int:pk>/corrections/new/",
        correction_views.warband_correct,
        name="warband_correct",
    ),
    path(
        "warbands/<int:pk>/corrections/<int:correction_pk>/decide/",
        correction_views.correction_decide,
        name="correction_decide",
    ),
    path(
        "warbands/<int:pk>/corrections/<int:correction_pk>/withdraw/",
        correction_views.correction_withdraw,
        name="correction_withdraw",
    ),
]
