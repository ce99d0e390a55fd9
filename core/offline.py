"""The app installed on a phone and readable there without signal: its manifest, its service
worker (static/js/sw.js, served from the site's root so that it may look after every page),
the page it shows offline, and the marks the server puts on the answers it may keep.

The worker keeps nothing the server did not mark. A view marks an answer (``keep_offline``)
only when its feature's permissions say the user may keep it: a player's own roster and
printout (``warbands.permissions.may_keep_offline``), never a partial, a form's answer, the
battle helper, a treasury page or another player's page. The mark names the user by an opaque
key, never by his name, and the worker keeps each user's copies under that key and drops any
other user's. Logging in or out answers with ``Clear-Site-Data``, so that a phone handed to
another player keeps nothing of the first.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.views.decorators.http import require_GET

# What the browser is told to forget when the user changes: its HTTP cache, and its storage
# (the service worker's caches and the worker itself, which the next page registers again).
CLEAR_SITE_DATA = '"cache", "storage"'
KEEP_HEADER = "X-Offline-Cache"
USER_HEADER = "X-Offline-User"
THEME_COLOUR = "#ffbf00"  # Pico amber's primary
BACKGROUND_COLOUR = "#1b1b1b"  # the favicon's disc
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)
SHELL_FILES = (
    "css/pico-2.1.1.amber.min.css",
    "css/app.css",
    "css/print.css",
    "css/print-sheet.css",
    "js/htmx-2.0.11.min.js",
    "js/app.js",
    "favicon.svg",
    *(icon for icon, _size, _purpose in ICONS),
)


def user_key(user) -> str:
    """An opaque, stable key for the user's copies on his phone: his name never goes into a
    cache name, and the key cannot be turned back into him or guessed for another user."""
    return salted_hmac("core.offline.user", str(user.pk)).hexdigest()[:24]


def keep_offline(request: HttpRequest, response: HttpResponse, allowed: bool) -> HttpResponse:
    """Marks ``response`` as one the user's phone may keep, when ``allowed`` (the feature's
    permission) and it is a whole page read plainly: a GET without query (a private printout
    is not kept) and not an htmx partial, answered 200."""
    if (
        allowed
        and request.method == "GET"
        and not request.GET
        and "HX-Request" not in request.headers
        and response.status_code == 200
    ):
        response[KEEP_HEADER] = "owner"
        response[USER_HEADER] = user_key(request.user)
    return response


def forget_offline_copies(response: HttpResponse) -> HttpResponse:
    """Tells the browser to drop every copy it kept: the user just changed."""
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


class LogInView(auth_views.LoginView):
    """Django's log-in; a successful one empties the browser's copies of the last user's."""

    def form_valid(self, form):
        return forget_offline_copies(super().form_valid(form))


class LogOutView(auth_views.LogoutView):
    """Django's log-out; it empties the browser's copies as the user leaves."""

    def post(self, request, *args, **kwargs):
        return forget_offline_copies(super().post(request, *args, **kwargs))


@login_not_required
@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: what a phone needs to install the app on its home screen. Like
    every answer of the app it is ``private, no-store`` (``PrivateAnswersMiddleware``): the
    browser asks again, which costs nothing (no database, no session)."""
    data = {
        "name": "Mordheim Campaigns",
        "short_name": "Mordheim",
        "description": "Campaigns, rosters and post-battle sequences for Mordheim leagues.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(icon), "sizes": size, "type": "image/png", "purpose": purpose}
            for icon, size, purpose in ICONS
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


def shell() -> list[str]:
    """The files every page needs, kept by the worker so that a saved page still has its
    look: the static files (by their hashed names once collected) and the offline page."""
    return [static(name) for name in SHELL_FILES] + [reverse("offline")]


@login_not_required
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js from the site's root, so that its scope is every page, with the shell's
    addresses before it; their digest names its cache, so a new shell replaces the old."""
    source = (settings.BASE_DIR / "static" / "js" / "sw.js").read_text()
    files = shell()
    version = hashlib.sha256((json.dumps(files) + source).encode()).hexdigest()[:12]
    head = (
        f"const SHELL = {json.dumps(files)};\n"
        f"const OFFLINE_PAGE = {json.dumps(reverse('offline'))};\n"
        f"const VERSION = {json.dumps(version)};\n"
    )
    return HttpResponse(head + source, content_type="text/javascript; charset=utf-8")


@login_not_required
@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the worker shows for a page it has not kept. It is drawn for nobody (the worker
    fetches it once for every user of the phone), so it reads no user and no session."""
    return render(request, "core/offline.html")
