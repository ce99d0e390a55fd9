from django.urls import path

from campaign import views

urlpatterns = [
    path("campaigns/new/", views.campaign_create, name="campaign_create"),
    path(
        "campaigns/<int:pk>/join-code/",
        views.join_code_regenerate,
        name="join_code_regenerate",
    ),
    path("campaigns/<int:pk>/joining/", views.joining_toggle, name="joining_toggle"),
    path("campaigns/<int:pk>/status/", views.campaign_status, name="campaign_status"),
    path(
        "campaigns/<int:pk>/members/<int:membership_pk>/reset-link/",
        views.member_reset_link,
        name="member_reset_link",
    ),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join, name="join_link"),
]
