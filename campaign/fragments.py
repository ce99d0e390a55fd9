"""Parts of pages kept in the "fragments" cache under the versions of what they show.

A part drawn in Python (``kept``), where the template's ``{% cache %}`` tag cannot say what
the key is or whether the part may be kept at all. A form in a kept part needs two things
that are new in every answer: its one-time token (``core.once``), which ``kept`` replaces
with a fresh one on the way out, and a CSRF token valid for the browser, which holds only
when the part is kept per browser (its CSRF cookie in the key). A part with forms is kept
only when the caller gives the request for that; otherwise it is drawn every time.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.utils.safestring import SafeString, mark_safe

from campaign.cache import Versioned
from core.once import FIELD, new_token

CSRF_FIELD = "csrfmiddlewaretoken"
_TOKEN = re.compile(rf'(name="{FIELD}" value=")[0-9a-f-]{{36}}(")')


def _fresh_tokens(html: str) -> SafeString:
    """``html`` (drawn by our templates, so safe) with a new one-time token in every form."""
    return mark_safe(_TOKEN.sub(lambda found: f"{found[1]}{new_token()}{found[2]}", html))


def kept(
    shown: Versioned | tuple[Versioned, ...],
    name: str,
    *parts,
    draw: Callable[[], str],
    request=None,
) -> str:
    """The part ``name`` for ``parts`` (a user's primary key where the part shows what only
    that user may see or do) as drawn for the current versions of the rows it shows
    (``shown``: a battle; a battle and a warband; ``campaign.cache``): kept from an earlier
    answer, or drawn now by ``draw`` and kept. With ``request`` a part with forms is kept too,
    for this browser only; without, such a part is not kept."""
    browser = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "") if request is not None else ""
    if request is not None and not browser:
        return draw()  # no CSRF cookie yet: the page drawn now sets one
    if browser:
        browser = hashlib.sha256(browser.encode()).hexdigest()[:20]
    shown = shown if isinstance(shown, tuple) else (shown,)
    versions = [f"{row.KIND}{row.pk}.{row.fragment_version}" for row in shown]
    key = ":".join(["part", name, *versions, *map(str, parts), browser])
    store = caches["fragments"]
    html = store.get(key)
    if html is not None:
        return _fresh_tokens(html)
    html = draw()
    if request is not None or (FIELD not in html and CSRF_FIELD not in html):
        store.set(key, html, min(row.fragment_seconds for row in shown))
    return html
