"""The URLconf: accounts and the health checks here, every app's pages from its own ``urls``."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path
from django.views.generic import RedirectView

from core import offline, views
from core.forms import LogInForm

# Django's auth views at their conventional URLs, with our own templates in
# templates/registration/. Password reset mails a one-time link (EMAIL_URL in settings; the
# console by default); a site admin can also print one (manage.py reset_link).
account_patterns = [
    path(
        "accounts/login/",
        offline.LogInView.as_view(authentication_form=LogInForm),
        name="login",
    ),
    path("accounts/logout/", offline.LogOutView.as_view(), name="logout"),
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
    path("accounts/notifications/", views.notice_settings, name="notice_settings"),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    # The installed app: its manifest, its service worker (from the root, to cover every
    # page) and the page that worker shows without signal (core.offline).
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/", offline.offline, name="offline"),
    *account_patterns,
    path("", include("campaign.urls")),
    path("", include("league.urls")),
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
