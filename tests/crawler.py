"""The secrets crawl's crawler (``tests/test_secrets_crawl.py``): every page, partial and form a
member can reach from the dashboard, and the leak check that reads what it found."""

from __future__ import annotations

from collections import deque
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

from django.db import transaction

from tests.secrets import shown_pattern, without_ids

HTMX = {"HX-Request": "true"}
NOT_FOLLOWED = ("/accounts/logout/", "/admin/", "/static/", "/accounts/password_change/")


class Links(HTMLParser):
    """The URLs a page lets a user reach: links, htmx requests and form actions; and each
    form posted by POST as the page fills it (``forms``: {action: data}): its inputs' values,
    the checked boxes, the selected (or first) option of each list, and "crawl" in an empty
    text field or text area (a reason to reopen a step, a dispute)."""

    def __init__(self) -> None:
        super().__init__()
        self.gets: set[str] = set()
        self.posts: set[str] = set()
        self.forms: dict[str, dict[str, str]] = {}
        self._form: dict[str, str] | None = None
        self._action = ""
        self._select = ""

    def _fill(self, tag, attrs):
        form, name = self._form, attrs.get("name")
        kind = (attrs.get("type") or "text").lower()
        if tag == "input" and name and name != "csrfmiddlewaretoken":
            if kind == "radio":
                if "checked" in attrs or name not in form:
                    form[name] = attrs.get("value") or "on"
            elif kind == "checkbox":
                if "checked" in attrs:
                    form[name] = attrs.get("value") or "on"
            elif kind not in ("submit", "button"):
                form[name] = attrs.get("value") or ("crawl" if kind == "text" else "")
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select:
            if self._select not in form or "selected" in attrs:
                form[self._select] = attrs.get("value") or ""
        elif tag == "textarea" and name:
            form[name] = "crawl"

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = ""
        elif tag == "form" and self._form is not None:
            self.forms[self._action] = self._form
            self._form = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._form is not None:
            self._fill(tag, attrs)
        if tag == "form" and (attrs.get("method") or "get").lower() == "post":
            self._action = attrs.get("action") or attrs.get("hx-post") or ""
            self._form = {}
        if tag == "a" and attrs.get("href"):
            self.gets.add(attrs["href"])
        if attrs.get("hx-get"):
            self.gets.add(attrs["hx-get"])
        if attrs.get("hx-post"):
            self.posts.add(attrs["hx-post"])
        if (
            tag == "form"
            and (attrs.get("method") or "get").lower() == "post"
            and attrs.get("action")
        ):
            self.posts.add(attrs["action"])
        if (
            tag == "form"
            and (attrs.get("method") or "get").lower() == "get"
            and attrs.get("action")
        ):
            self.gets.add(attrs["action"])


class _Undo(Exception):
    pass


def ordering(path: str) -> str:
    """``path`` without its table ordering (``sort`` and ``dir``): a league table's twenty
    column links order the same rows, so one of them is read for each page, not all twenty
    for every member (which was a tenth of the crawl and told nothing more)."""
    parts = urlsplit(path)
    rest = [(k, v) for k, v in parse_qsl(parts.query) if k not in ("sort", "dir")]
    ordered = len(rest) < len(parse_qsl(parts.query))
    return parts.path + ("?" + urlencode(rest) if rest else "") + (" ordered" if ordered else "")


def crawl(client, user, *, filled: bool = False) -> dict[str, str]:
    """Every page (and every empty form post, rolled back) the user can reach from the
    dashboard: {what was asked: response body}; of a table's orderings, the first found
    (``ordering``). ``filled``: each form is posted as the page fills it (``Links.forms``)
    instead of empty, so that what it does is done, then undone."""
    client.force_login(user)
    seen: dict[str, str] = {}
    ordered: set[str] = set()
    queue = deque(["/", "/no/such/page/", "/warbands/999999/", "/battles/999999/"])
    posted: set[str] = set()
    while queue:
        url = queue.popleft()
        path = urlsplit(url).path + (f"?{urlsplit(url).query}" if urlsplit(url).query else "")
        if path in seen or path.startswith(NOT_FOLLOWED) or not path.startswith("/"):
            continue
        if (order := ordering(path)).endswith(" ordered"):
            if order in ordered:
                continue
            ordered.add(order)
        for headers in ({}, HTMX):
            response = client.get(path, headers=headers)
            body = response.content.decode(errors="replace")
            seen[f"GET {path} {bool(headers)}"] = body
        seen[path] = body
        links = Links()
        links.feed(body)
        for link in links.gets:
            queue.append(urljoin(path, link))
        for action in links.posts - posted:
            posted.add(action)
            target = urljoin(path, action)
            if target.startswith(NOT_FOLLOWED):
                continue
            try:
                with transaction.atomic():
                    data = links.forms.get(action, {}) if filled else {}
                    response = client.post(target, data, headers=HTMX)
                    seen[f"POST {target}"] = response.content.decode(errors="replace")
                    raise _Undo
            except _Undo:
                pass
    return seen


def leaks(pages: dict[str, str], secrets: list[str]) -> list[str]:
    """Where each of ``secrets`` is shown in ``pages``: one pattern for all of them, read once
    per page (a crawl reads thousands); a number, not where it is an id (``without_ids``)."""
    numbers = [s for s in secrets if s.isdigit()]
    words = [s for s in secrets if not s.isdigit()]
    numbers_shown = shown_pattern(numbers) if numbers else None
    words_shown = shown_pattern(words) if words else None
    found = []
    for where, body in pages.items():
        shown = set(words_shown.findall(body)) if words_shown else set()
        if numbers_shown:
            shown.update(numbers_shown.findall(without_ids(body)))
        found += [f"{secret!r} in {where}" for secret in secrets if secret in shown]
    return found


def requests(seen: dict[str, str]) -> int:
    """How many requests a crawl sent (``crawl`` also keeps each page under its path)."""
    return sum(1 for where in seen if where.startswith(("GET ", "POST ")))
