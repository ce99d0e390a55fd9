"""No byte makes a server error. The URLconf is walked (``tests.urlwalk``) as every role of
the URL matrix's campaign (a confirmed battle and its sequence, a battle waiting for a reply,
captives both ways with a ransom asked and an exchange offered, a game under way in the battle
helper); ``tests.test_bad_input.pages`` draws a post-battle sequence at each of its steps, and
``other_states`` the forms only other states show (random fortune, a recovery, a muster, a
side the helper wrote, a warband file's report).

Every form these pages draw is found by reading them, so a new form is covered without being
listed. Each is posted as drawn; with NUL, other control characters, 100 kB and a unicode
digit in every field at once; then one field at a time with 5 kB of text and a textarea's
line breaks and, where a number or nothing is drawn, "³", -1, a 30-digit number and other
warbands' ids (a field drawn once per row, its name told apart by the row's number, is sent
these for the first row where it holds a number, text or nothing: the others are the same
field of the same form). Every page is asked for again with each bad value in every query parameter
that a view reads or a page links with, and every URL with each argument of its path
replaced by each. No answer may be a server error, a 400 must say why (``[data-refusal]``),
and every URL that only takes posts must have had a form drawn for it.

Every request runs in a savepoint rolled back afterwards, so each starts from the same
campaign, and the requests need not be sent in one go: the pages are read once for the module
(``crawl``, which plans the posts, queries and paths they lead to), and the plan is sent in
``PARTS`` tests, each a part of the plan. The forms of the post-battle sequence and of the other
states are sent as each state is reached, in a test of their own. ``-s`` prints how many
requests each test sent, of which kind.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser
from itertools import chain
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode, urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from battles.aftermath import carried_items
from battles.captives import exchange, ransom
from battles.helper import end, moves, start
from battles.models import Captive, Fighter
from battles.report import fortune
from campaign.models import Campaign
from core.dice import ScriptedDice
from tests.battles.test_recovery_dice import confirmed, declared
from tests.factories import UserFactory, WarbandFactory, hire
from tests.helpers import every_side_entered, reported
from tests.matrix_answers import ROLES, build_scenario, path_for
from tests.sharing import built_once
from tests.test_bad_input import pages as step_pages
from tests.urlwalk import iter_routes
from warbands import treasury
from warbands.export import warband_as_json
from warbands.models import StorageContainer, Warband, WarbandType

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
NOT_CRAWLED = ("/admin/", "/accounts/logout/", "/static/")
ROOT = Path(__file__).resolve().parent.parent

# Bytes no form or link sends: posted into every field of a form at once, and sent in every
# query parameter and path argument; with a unicode digit that ``int`` reads as 3.
BYTES = ["a\x00b", "\x1b[31m\x07", "\u0085", "x" * 100_000, "٣"]
# Posted into one text field at a time: long, and a textarea's own lines.
TEXT = ["x" * 5_000, "two\r\nlines\tand a tab"]
# Posted into one numeric field at a time (and sent in query strings and paths), with other
# warbands' ids: a digit ``int`` refuses, a negative number and a 30-digit one.
NUMBERS = ["³", "-1", "9" * 30]
NUMERIC = re.compile(r"-?\d+")
#: The planned requests are sent in this many tests (a failure names its part of the plan).
PARTS = 4


@dataclass(frozen=True)
class Request:
    """One request of the plan, sent as ``role``."""

    role: str
    kind: str  # page, form, query, path
    method: str
    path: str
    data: dict | None = None
    htmx: bool = False


@dataclass
class Form:
    method: str
    action: str
    fields: dict[str, str] = field(default_factory=dict)


class Page(HTMLParser):
    """The forms of a page (action, method, fields with their first value) and the addresses it
    links to (``href``, ``hx-get``, ``hx-post``, GET forms' actions)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.forms: list[Form] = []
        self.links: set[str] = set()
        self._form: Form | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "hx-get", "hx-post", "action"):
            if attrs.get(name):
                self.links.add(urljoin(self.url, attrs[name]))
        if tag == "form":
            method = (attrs.get("method") or "get").lower()
            self._form = Form(method, urljoin(self.url, attrs.get("action") or ""))
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "select", "textarea", "button"):
            name = attrs.get("name")
            if name and name not in ("csrfmiddlewaretoken", "form_token"):
                self._form.fields.setdefault(name, attrs.get("value") or "")
        elif self._form is not None and tag == "option" and self._form.fields:
            last = list(self._form.fields)[-1]
            if not self._form.fields[last] and attrs.get("value"):
                self._form.fields[last] = attrs["value"]

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def query_names() -> set[str]:
    """Every query parameter a view reads by name (``request.GET.get("page")``): the GET forms'
    fields are found on the pages."""
    names = set()
    for app in ("core", "campaign", "warbands", "battles", "league"):
        for source in (ROOT / app).rglob("*.py"):
            names |= set(re.findall(r"GET\.get\(\s*[\"'](\w+)[\"']", source.read_text()))
    return names


class _Undo(Exception):
    pass


class Fuzz:
    """Sends requests as one role at a time, each rolled back, and keeps what went wrong. The
    requests that the pages lead to (``post_form``, ``query``, ``segments``) are planned
    (``planned``) and sent later (``send_planned``)."""

    def __init__(self, client, foreign_ids: list[str]) -> None:
        self.client = client
        client.raise_request_exception = False
        self.foreign_ids = foreign_ids
        self.sessions: dict[str, str | None] = {}
        self.role: str | None = None
        self.sent = 0
        self.kinds: dict[str, int] = {}  # requests sent: pages, forms, queries, paths
        self.server_errors: list[str] = []
        self.problems: list[str] = []
        self.forms_posted: set[str] = set()
        self.actions: set[str] = set()  # the routes the forms post to
        self.planned: list[Request] = []

    def log_in(self, role: str, user) -> None:
        if role not in self.sessions:
            self.client.cookies.pop(settings.SESSION_COOKIE_NAME, None)
            if user is not None:
                self.client.force_login(user)
            cookie = self.client.cookies.get(settings.SESSION_COOKIE_NAME)
            self.sessions[role] = cookie.value if cookie else None
        self.role = role

    def send(self, kind: str, method: str, path: str, data=None, *, htmx: bool = False):
        session = self.sessions[self.role]
        if session is None:
            self.client.cookies.pop(settings.SESSION_COOKIE_NAME, None)
        else:
            self.client.cookies[settings.SESSION_COOKIE_NAME] = session
        if method == "post":
            data = {**(data or {}), "form_token": str(uuid.uuid4())}
        self.sent += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        response = None
        try:
            with transaction.atomic():
                response = getattr(self.client, method)(path, data, headers=HTMX if htmx else {})
                raise _Undo
        except _Undo:
            pass
        shown = f"{self.role} {method.upper()} {path[:120]} {_short(data)}"
        if response.status_code >= 500:
            error = response.exc_info[1] if response.exc_info else ""
            self.server_errors.append(f"{shown}: {response.status_code} {error!r}"[:400])
        elif response.status_code == 400 and b"data-refusal" not in response.content:
            self.problems.append(f"{shown}: a 400 that does not say why")
        return response

    def plan(self, kind: str, method: str, path: str, data=None, *, htmx: bool = False) -> None:
        self.planned.append(Request(self.role, kind, method, path, data, htmx))

    def send_planned(self, requests: list[Request]) -> None:
        for request in requests:
            self.role = request.role
            self.send(request.kind, request.method, request.path, request.data,
                      htmx=request.htmx)  # fmt: skip

    def post_form(self, form: Form) -> None:
        """The form as drawn; with bad bytes in every field; then each field with each value
        of its kind in turn."""
        path = urlsplit(form.action).path
        route = _route(path)
        # One of each kind: the same form for another warrior or item reads the same fields.
        key = f"{route} {sorted(form.fields)} {form.fields.get('action')}"
        if key in self.forms_posted:
            return
        self.forms_posted.add(key)
        self.actions.add(route)
        self.plan("form", "post", path, form.fields)
        for index, value in enumerate(BYTES):
            self.plan("form", "post", path, dict.fromkeys(form.fields, value), htmx=index % 2 == 0)
        shapes = set()  # a row's field stands for the same field of the form's other rows
        for name, original in form.fields.items():
            shape = (NUMERIC.sub("N", name), bool(NUMERIC.fullmatch(original)), not original)
            if shape in shapes:
                continue
            shapes.add(shape)
            values = [] if NUMERIC.fullmatch(original) else list(TEXT)
            if not original or NUMERIC.fullmatch(original):
                values += NUMBERS + self.foreign_ids
            for index, value in enumerate(values):
                self.plan("form", "post", path, {**form.fields, name: value}, htmx=index % 2 == 0)

    def query(self, path: str, names: set[str]) -> None:
        """The page with every query parameter set to each bad value."""
        for index, value in enumerate([*BYTES, *NUMBERS, *self.foreign_ids[:1]]):
            self.plan("query", "get", f"{path}?{urlencode(dict.fromkeys(sorted(names), value))}",
                      htmx=index % 2 == 1)  # fmt: skip

    def segments(self, path: str, method: str) -> None:
        """The path with each of its arguments replaced by each bad value."""
        try:
            match = resolve(path)
        except Resolver404:
            return
        for name in match.kwargs:
            route = "/" + match.route
            for other, real in match.kwargs.items():
                if other != name:
                    route = re.sub(rf"<(?:\w+:)?{other}>", str(real), route)
            for value in [*BYTES, *NUMBERS, *self.foreign_ids]:
                self.plan(
                    "path", method, re.sub(rf"<(?:\w+:)?{name}>", quote(value, safe=""), route)
                )


def _route(path: str) -> str:
    try:
        return resolve(path).view_name
    except Resolver404:
        return path


def _short(data) -> str:
    if not data:
        return ""
    texts = {k: str(v) for k, v in data.items() if k != "form_token"}
    shown = {k: (v if len(v) < 30 else f"{v[:10]}…({len(v)})") for k, v in texts.items()}
    return repr(shown)


def seeded_campaign():
    """The URL matrix's campaign, with its game under way (a fighter knocked down, a note in
    the log to undo); and the ids of other warbands, their warriors and containers (the
    opponent's, a stranger's in another campaign), to post as if they were ours."""
    scenario = build_scenario()
    found = get_user_model().objects.in_bulk([pk for pk in scenario["users"].values() if pk])
    users = scenario["users"] = {role: found.get(pk) for role, pk in scenario["users"].items()}
    mine = Warband.objects.get(pk=scenario["pk"]["warband"])
    game_pk = scenario["kwargs"]["play_page"]["pk"]
    owner = mine.owner
    fighter = Fighter.objects.filter(game__battle=game_pk, side__participant__warband=mine).first()
    moves.set_state(game_pk, fighter.pk, "knocked_down", actor=owner)
    moves.note(game_pk, "A note to undo", actor=owner)
    theirs = Warband.objects.get(owner=users["opponent"], campaign=mine.campaign)
    # The captor asks a ransom for the owner's hero and offers him for his own: the owner's
    # captives page draws the forms to pay and to accept.
    taken = Captive.objects.get(pk=scenario["kwargs"]["captive_pay"]["captive_pk"])
    held = Captive.objects.get(pk=scenario["kwargs"]["captive_ransom"]["captive_pk"])
    ransom.set_ransom(taken, actor=theirs.owner, ransom=25, into=theirs.containers.first())
    exchange.offer_exchange(taken, actor=theirs.owner, for_captive=held)
    # An empty sack to sell, and a coach to load boxes and the vessel into.
    treasury.buy_container(mine, "large_sack", actor=owner)
    StorageContainer.objects.create(warband=mine, kind="opulent_coach")
    stranger = Warband.objects.get(owner=users["stranger"])
    ids = {theirs.pk, theirs.warriors.first().pk, stranger.containers.first().pk}
    return scenario, sorted(str(i) for i in ids)


def other_states(duel):
    """(user, page) pairs drawing the forms the other campaigns show in no state of theirs: a
    battle with random fortune (its markers, then a discovery) that waits for the players, so
    the organiser may confirm it for everybody; the recovery of an uncontrolled treasure
    chest after a battle; a warband being mustered with a group and a container, and one whose
    player names its leader; a side the battle helper wrote; and, with a third item (the
    upload posted to the page), a warband file's report with its confirmation."""
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    battle = reported(duel)
    yield reavers.owner, reverse("battle_detail", args=[battle.pk])
    fortune.roll_fortune_markers(battle, actor=reavers.owner, dice=ScriptedDice([6, 3, 4]))
    yield reavers.owner, reverse("battle_detail", args=[battle.pk])
    every_side_entered(battle)
    yield organiser, reverse("battle_detail", args=[battle.pk])

    battle = confirmed(duel, [(reavers, "won", None), (scourge, "lost", 1)])
    declared(battle, scourge)
    yield reavers.owner, reverse("battle_detail", args=[battle.pk])
    carried_items.start_recovery(battle, actor=reavers.owner, dice=ScriptedDice([]))
    yield reavers.owner, reverse("battle_detail", args=[battle.pk])

    draft = WarbandFactory(campaign=duel["campaign"], owner=UserFactory())
    hire(draft, "warrior", models=2, name="Guards")
    treasury.buy_container(draft, "large_sack", actor=draft.owner)
    yield draft.owner, reverse("warband_muster", args=[draft.pk])

    # a list whose player names its leader: each hero's card offers to name him
    court = WarbandFactory(
        campaign=duel["campaign"],
        owner=UserFactory(),
        warband_type=WarbandType.objects.get(key="court_of_the_profane_pleasures"),
    )
    hire(court, "slaaneshi_danseuse", name="Lira")
    yield court.owner, reverse("warband_muster", args=[court.pk])

    # a side the battle helper wrote, confirmed as it stands with one press
    game = start.start_game(
        actor=reavers.owner,
        campaign=duel["campaign"],
        scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )
    end.end_game(game.pk, actor=reavers.owner, winner_id=reavers.pk)
    yield reavers.owner, reverse("battle_detail", args=[game.pk])

    # a warband file's report, drawn in answer to its upload (a post: its third item)
    Campaign.objects.filter(pk=duel["campaign"].pk).update(
        imports_allowed=True, max_warbands_per_player=2
    )
    exported = json.dumps(warband_as_json(scourge)).encode()
    upload = {"file": SimpleUploadedFile("scourge.json", exported, "application/json")}
    yield reavers.owner, reverse("campaign_import", args=[duel["campaign"].pk]), upload


def crawl(client) -> dict:
    """Every URL as every role, its page read and the requests it leads to planned: the
    forms it draws posted, every page with every query parameter that a view reads or a page
    sends, every argument of every path (as the owner: other warbands' ids among the
    values). Returns the fuzz (its pages sent, the rest planned), the query parameters and
    the routes that only take posts."""
    scenario, foreign_ids = seeded_campaign()
    fuzz = Fuzz(client, foreign_ids)
    names = query_names()
    routes = [r for r in iter_routes() if not r.path.startswith(NOT_CRAWLED)]
    post_only: set[str] = set()
    read: dict[str, tuple[str, str]] = {}  # route: the first role that read its page, and path

    # Every URL as every role: the forms of its page planned.
    for role in ROLES:
        fuzz.log_in(role, scenario["users"][role])
        for route in routes:
            path = path_for(route, scenario)
            response = fuzz.send("page", "get", path)
            if response.status_code == 405:
                post_only.add(route.name)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            read.setdefault(route.name, (role, path))
            page = Page(path)
            page.feed(response.content.decode())
            for form in page.forms:
                if form.method == "get":
                    names |= set(form.fields)
                elif not urlsplit(form.action).path.startswith(NOT_CRAWLED):
                    fuzz.post_form(form)
            names |= {name for link in page.links for name, _ in parse_qsl(urlsplit(link).query)}

    for role, path in read.values():
        fuzz.log_in(role, scenario["users"][role])
        fuzz.query(path, names)

    fuzz.log_in("owner", scenario["users"]["owner"])
    for route in routes:
        fuzz.segments(path_for(route, scenario), "post" if route.name in post_only else "get")
    return {"fuzz": fuzz, "names": names, "post_only": post_only}


@pytest.fixture(scope="module")
def crawled(_duel_built, django_db_blocker):
    """The URL matrix's campaign seeded and crawled once for the module: the sessions the
    roles logged in with and the rows the plan's ids name stay until the module's end."""
    yield from built_once(django_db_blocker, lambda: crawl(Client()))


def report(name: str, fuzz: Fuzz) -> None:
    print(f"\nfuzz {name}: {fuzz.sent} requests {fuzz.kinds}: "
          f"{len(fuzz.server_errors)} server errors")  # fmt: skip
    assert not fuzz.server_errors, "\n".join(fuzz.server_errors[:40])
    assert not fuzz.problems, "\n".join(fuzz.problems[:20])


def test_no_page_of_any_url_as_any_role_makes_a_server_error(crawled):
    fuzz = crawled["fuzz"]
    print(f"\nfuzz: {len(fuzz.planned)} requests planned, {len(fuzz.forms_posted)} forms, "
          f"{len(crawled['names'])} query parameters")  # fmt: skip
    report("pages", fuzz)


@pytest.mark.parametrize("part", range(PARTS))
def test_no_byte_in_any_form_query_string_or_path_makes_a_server_error(client, crawled, part):
    """Every ``PARTS``-th request of the plan (so that each part holds as many of the costly
    form posts as the others)."""
    fuzz = Fuzz(client, crawled["fuzz"].foreign_ids)
    fuzz.sessions = crawled["fuzz"].sessions
    fuzz.send_planned(crawled["fuzz"].planned[part::PARTS])
    report(f"part {part + 1} of {PARTS}", fuzz)


def test_no_byte_in_the_forms_of_a_sequence_or_other_states_makes_a_server_error(
    client, crawled, duel
):
    """The post-battle sequence at each step, and the other forms drawn only in some state
    (``tests.test_bad_input.pages``), in a campaign of their own: each page's forms are sent
    in the state that drew them. Then, with the crawl's: every URL that only takes posts had
    a form drawn for it."""
    fuzz = Fuzz(client, crawled["fuzz"].foreign_ids)
    fuzz.forms_posted = set(crawled["fuzz"].forms_posted)  # the crawl's are not sent again
    for user, path, *upload in chain(step_pages(duel), other_states(duel)):
        fuzz.log_in(f"{user.username} (steps)", user)
        page = Page(path)
        drawn = (
            fuzz.send("page", "post", path, *upload) if upload else fuzz.send("page", "get", path)
        )
        page.feed(drawn.content.decode())
        for form in page.forms:
            if form.method == "post":
                fuzz.post_form(form)
        fuzz.send_planned(fuzz.planned)
        fuzz.planned.clear()
    report("sequence and states", fuzz)
    unposted = crawled["post_only"] - crawled["fuzz"].actions - fuzz.actions
    assert not unposted, f"no page drew a form for {sorted(unposted)}"
    assert len(fuzz.forms_posted) >= 60, f"only {len(fuzz.forms_posted)} forms found"
