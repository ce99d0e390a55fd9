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
    path("campaigns/<int:pk>/standings/", views.standings_rules, name="standings_rules"),
    path(
        "campaigns/<int:pk>/organisers/<int:invitation_pk>/withdraw/",
        views.invitation_withdraw,
        name="invitation_withdraw",
    ),
    path(
        "campaigns/<int:pk>/organisers/step-down/",
        views.organiser_step_down,
        name="organiser_step_down",
    ),
    path("invitations/<int:pk>/accept/", views.invitation_accept, name="invitation_accept"),
    path("invitations/<int:pk>/decline/", views.invitation_decline, name="invitation_decline"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join, name="join_link"),
]
