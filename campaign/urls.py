from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path
from django.views.generic import RedirectView

from campaign import views

# Django's auth views at their conventional URLs, with our own templates in
# templates/registration/. Password reset is left out: the app sends no e-mail.
account_patterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/signup/", views.signup, name="signup"),
]

campaign_patterns = [
    path("campaigns/new/", views.campaign_create, name="campaign_create"),
    path("campaigns/<int:pk>/", views.campaign_detail, name="campaign_detail"),
    path("campaigns/<int:pk>/feed/", views.campaign_feed, name="campaign_feed"),
    path("campaigns/<int:pk>/settings/", views.campaign_settings, name="campaign_settings"),
    path(
        "campaigns/<int:pk>/join-code/",
        views.join_code_regenerate,
        name="join_code_regenerate",
    ),
    path("campaigns/<int:pk>/joining/", views.joining_toggle, name="joining_toggle"),
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
    path("campaigns/<int:pk>/status/", views.campaign_status, name="campaign_status"),
    path("campaigns/<int:pk>/random-fortune/", views.fortune_table, name="fortune_table"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join, name="join_link"),
]

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("healthz", views.healthz, name="healthz"),
    *account_patterns,
    *campaign_patterns,
    path("", include("warbands.urls")),
    path("", include("battles.urls")),
    # Staff log in through the same page as everybody else.
    path(
        "admin/login/",
        login_not_required(RedirectView.as_view(pattern_name="login", query_string=True)),
        name="admin_login_redirect",
    ),
    path("admin/", admin.site.urls),
]

# The benchmark's own pages (bench/urls.py) exist only in a benchmark run (MORDHEIM_BENCH=1).
if settings.MORDHEIM_BENCH:
    urlpatterns.insert(0, path("bench/", include("bench.urls")))
