"""The URL matrix's scenario and the answers of its crawl, shared by the tests that ask every URL
as a role on it (``tests/test_url_matrix.py``), and what they check of an answer's headers.

Each (role, method) is crawled once per worker (``MatrixAnswers``, the session's
``matrix_answers`` fixture): every route asked once, rolled back, and what each of those tests
checks recorded, so that they read one crawl instead of each asking again."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from battles.helper.start import start_game
from battles.models import Captive, Fighter, PostBattleSequence, SequenceTask
from battles.report import services as battle_services
from battles.rules import ReportedResult
from campaign import co_organisers
from campaign.models import Membership
from tests import feature_matrix, side_matrix
from tests.factories import CampaignFactory, MembershipFactory, mustered_warband
from tests.helpers import every_side_entered, fingerprint, without_tokens
from tests.urlwalk import iter_routes
from warbands import corrections
from warbands.models import VesselItem, Warrior

ROLES = ("anonymous", "stranger", "opponent", "owner", "organiser")
#: The players whose accounts the organiser must find no way into.
PLAYERS = ("owner", "opponent", "stranger")
HTMX = {"HX-Request": "true"}
#: How a URL is asked: (method, as htmx).
GET, POST, HTMX_POST, HTMX_GET = ("get", False), ("post", False), ("post", True), ("get", True)
RESET_LINK = re.compile(r"/accounts/reset/([\w-]+)/([\w-]+)/")
#: Statements that only read, or mark, release or undo a savepoint: a request that ran no
#: other left every row as it was, and needs no fingerprint of the database to show it.
READS = ("SELECT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def private(headers) -> bool:
    """``headers``: an answer, or the headers a crawl recorded of one: ``private, no-store``
    (``core.middleware.PrivateAnswersMiddleware``)."""
    directives = {part.strip() for part in headers.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives


def varies(headers) -> set[str]:
    """What a cache must tell apart before it hands ``headers``' answer on (``Vary``)."""
    return {part.strip().lower() for part in headers.get("Vary", "").split(",")}


def build_scenario() -> dict:
    """A campaign with its organiser, the owner's and the opponent's warbands, a confirmed
    battle between them with the owner's post-battle sequence, a battle the owner reported
    that waits for the opponent, and a stranger playing in another campaign: the primary
    keys (of each role's user too) and the arguments of the URLs that need more than one."""
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    mine = mustered_warband(campaign=campaign, name="Reavers")
    theirs = mustered_warband(campaign=campaign, name="Scourge")
    elsewhere = mustered_warband(campaign=CampaignFactory(name="Elsewhere"), name="Strangers")
    results = [ReportedResult(mine.pk, "won"), ReportedResult(theirs.pk, "lost", True, 1)]
    report = partial(battle_services.report_battle, actor=mine.owner, campaign=campaign)
    battle = report(scenario="Skirmish", results=results)
    every_side_entered(battle)
    battle_services.respond(battle, actor=theirs.owner, agree=True)
    pending = report(scenario="Ambush", results=results)
    game = start_game(
        actor=mine.owner, campaign=campaign, scenario_key="skirmish",
        warband_ids=[mine.pk, theirs.pk],
    )  # fmt: skip
    fighter = Fighter.objects.filter(game__battle=game, side__participant__warband=mine).first()
    sequence = PostBattleSequence.objects.get(participant__battle=battle, participant__warband=mine)
    task = SequenceTask.objects.create(sequence=sequence, step=1, kind="hero_injury", label="x")
    captain = mine.warriors.get(is_leader=True)
    chest = mine.containers.get(kind="treasure_chest")
    vessel = VesselItem.objects.create(warband=mine, kind="loyalty_symbol", name="Banner")
    # A hero of theirs held by the owner's warband, and one of the owner's held by theirs.
    held = Captive.objects.create(
        warrior=theirs.warriors.get(name="Brandt"), captor=mine, battle=battle
    )
    taken = Captive.objects.create(
        warrior=mine.warriors.get(name="Brandt"), captor=theirs, battle=battle
    )
    Warrior.objects.filter(pk__in=[held.warrior_id, taken.warrior_id]).update(status="captured")
    request = corrections.set_experience(captain, actor=mine.owner, experience=40, reason="x")
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=organiser, username=mine.owner.username
    )
    users = {
        "anonymous": None,
        "stranger": elsewhere.owner_id,
        "opponent": theirs.owner_id,
        "owner": mine.owner_id,
        "organiser": organiser.pk,
    }
    pk = {
        "campaign": campaign.pk,
        "warband": mine.pk,
        "warrior": captain.pk,
        "container": chest.pk,
        "vessel": vessel.pk,
        "battle": battle.pk,
        "pending": pending.pk,
        "sequence": sequence.pk,
    }
    kwargs = {
        "join_link": {"code": campaign.join_code},
        "member_remove": {"pk": campaign.pk,
                          "membership_pk": Membership.objects.get(user=theirs.owner).pk},
        "password_reset_confirm": {"uidb64": "MQ", "token": "not-a-token"},
        "invitation_withdraw": {"pk": campaign.pk, "invitation_pk": invitation.pk},
        "invitation_accept": {"pk": invitation.pk},
        "invitation_decline": {"pk": invitation.pk},
        "warband_archive": {"pk": campaign.pk, "warband_pk": theirs.pk},
        "warband_create": {"campaign_id": campaign.pk},
        "house_rules": {"campaign_id": campaign.pk},
        "warband_return_container": {"pk": mine.pk, "container_pk": chest.pk},
        "warrior_remove_item": {"pk": captain.pk, "item_pk": captain.items.first().pk},
        **{name: {"pk": pending.pk, "warband_pk": mine.pk} for name in side_matrix.ROUTES},
        **feature_matrix.build(campaign, organiser, mine, theirs, battle),
        "battle_correct": {"pk": pending.pk},
        **{name: {"pk": mine.pk, "correction_pk": request.pk}
           for name in ("correction_decide", "correction_withdraw")},
        "battle_respond": {"pk": pending.pk},
        "battle_confirm_all": {"pk": pending.pk},
        "battle_declare": {"pk": battle.pk, "warband_pk": mine.pk},
        **{name: {"pk": game.pk} for name in ("play_page", "play_board", "play_move")},
        "play_panel": {"pk": game.pk, "fighter_pk": fighter.pk},
        "sequence_task": {"pk": sequence.pk, "task_pk": task.pk},
        **{name: {"pk": mine.pk, "captive_pk": held.pk}
           for name in ("captive_ransom", "captive_exchange", "captive_fate")},
        **{n: {"pk": mine.pk, "captive_pk": taken.pk} for n in ("captive_pay", "captive_accept")},
    }  # fmt: skip
    return {"users": users, "pk": pk, "kwargs": kwargs}


PK_OF_PREFIX = {
    "campaign": "campaign", "fortune": "campaign", "join": "campaign", "joining": "campaign",
    "co": "campaign", "organiser": "campaign", "member": "campaign", "battle": "battle",
    "warband": "warband", "treasury": "warband", "warrior": "warrior", "vessel": "vessel",
    "sequence": "sequence", "play": "campaign",
}  # fmt: skip
CAMPAIGN_ROUTES = {"battle_record", "battle_report", "play_start", "battle_export",
                   "standings_export", "standings_rules", "scenario_roll"}  # fmt: skip


def path_for(route, scenario) -> str:
    if route.name.startswith("admin:") or route.name == "admin_login_redirect":
        return route.path
    if route.name in scenario["kwargs"]:
        return reverse(route.name, kwargs=scenario["kwargs"][route.name])
    arguments = route.path.count("/1/")
    if arguments == 0:
        return route.path
    prefix = route.name.split("_")[0]
    kind = "campaign" if route.name in CAMPAIGN_ROUTES else PK_OF_PREFIX[prefix]
    return reverse(route.name, kwargs={"pk": scenario["pk"][kind]})


def code_of(response) -> str:
    status = response.status_code
    location = response.get("Location", "") or response.get("HX-Redirect", "")
    if "/login/" in location and (300 <= status < 400 or "HX-Redirect" in response):
        return "L"  # our log-in page, or the admin's (which sends on to ours)
    if status == 403:
        return "F"
    if status == 404:
        return "H"
    if status == 405:
        return "M"
    if status >= 500:
        return "!"
    return "O"


# --- The answers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What the tests check of one answer. ``body`` is a digest of the body with its
    per-request tokens blanked (``without_tokens``); ``queries`` is how many queries the
    request and its body took. ``changed``: whether a refused post (any code but O) left the
    database other than it was, None for the rest. For the organiser's requests only,
    ``reset_links`` names the players whose working password reset link the body holds and
    ``passwords_changed`` whether any player's password changed (None for other roles)."""

    code: str
    status: int
    location: str
    headers: dict[str, str]
    queries: int
    body: str
    changed: bool | None = None
    reset_links: tuple[str, ...] | None = None
    passwords_changed: bool | None = None

    def compared(self) -> tuple:
        """What must not tell a real id from a missing one: status, where it leads, queries,
        body."""
        return (self.status, self.location, self.queries, self.body)


@dataclass(frozen=True)
class Asked:
    route: str
    path: str
    answer: Answer


@contextmanager
def rolled_back() -> Iterator[None]:
    """A savepoint rolled back at its end, so that what follows starts from the same data."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


class Statements:
    """How many statements a request ran, and whether one of them may have written (Django's
    ``execute_wrapper``: lighter than capturing each query's text and time)."""

    def __init__(self) -> None:
        self.count = 0
        self.wrote = False

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        self.wrote = self.wrote or not str(sql).lstrip().upper().startswith(READS)
        return execute(sql, params, many, context)


def answer(client, method: str, path: str, headers: dict, *, session: str | None = None,
           before: str | None = None, players: list | None = None) -> Answer:  # fmt: skip
    """One request, rolled back, so that each starts from the same data, logged in with
    ``session`` (the session cookie; None for nobody, whatever an answer before set).
    ``before``: the database's fingerprint, for a refused post to be compared with;
    ``players``: the users (as read before) whose reset links and passwords are watched."""
    if session is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = session
    else:
        client.cookies.pop(settings.SESSION_COOKIE_NAME, None)
    statements = Statements()
    with rolled_back():
        with connection.execute_wrapper(statements):
            response = getattr(client, method)(path, headers=headers)
            body = b"".join(response) if response.streaming else response.content
        code = code_of(response)
        changed = None
        if before is not None and method == "post" and code != "O":
            # A request that ran only reads and savepoints cannot have changed a row.
            changed = statements.wrote and fingerprint() != before
        reset_links = passwords_changed = None
        if players is not None:
            tokens = [t for _, t in RESET_LINK.findall(body.decode(errors="replace"))]
            reset_links = tuple(
                role for role, user in players
                if any(default_token_generator.check_token(user, t) for t in tokens)
            )  # fmt: skip
            hashes = {user.pk: user.password for _, user in players}
            passwords_changed = hashes != password_hashes(hashes)
        return Answer(
            code=code,
            status=response.status_code,
            location=response.get("Location", "") or response.get("HX-Redirect", ""),
            headers={name: response.get(name, "") for name in ("Cache-Control", "Vary")},
            queries=statements.count,
            body=hashlib.sha256(without_tokens(body).encode()).hexdigest(),
            changed=changed,
            reset_links=reset_links,
            passwords_changed=passwords_changed,
        )


def password_hashes(pks) -> dict:
    return dict(get_user_model().objects.filter(pk__in=pks).values_list("pk", "password"))


def logged_in(client, user) -> str | None:
    """The session cookie of ``user`` logged in on ``client`` (None for nobody)."""
    if user is None:
        return None
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def crawl(built: dict, role: str, variant: tuple[str, bool]) -> tuple[Asked, ...]:
    """Every route of the URLconf asked once as ``role`` on the scenario ``built``, in the
    order of ``iter_routes`` (the admin has several routes of one name); the crawl is rolled
    back whole (the log-in too)."""
    method, htmx = variant
    users = get_user_model().objects.in_bulk([pk for pk in built["users"].values() if pk])
    with rolled_back():
        client = Client()
        session = logged_in(client, users.get(built["users"][role]))
        players = None
        if role == "organiser":
            players = [(name, users[built["users"][name]]) for name in PLAYERS]
        before = fingerprint() if method == "post" else None
        asked = []
        for route in iter_routes():
            path = path_for(route, built)
            got = answer(client, method, path, HTMX if htmx else {}, session=session,
                         before=before, players=players)  # fmt: skip
            asked.append(Asked(route.name, path, got))
    return tuple(asked)


class MatrixAnswers:
    """The crawls of this worker, each (role, method) made the first time a test asks for it:
    the tests that read them may run on either worker, and a worker that runs only the cache
    headers' test then asks no more than that test needs.

    Kept for the worker's session: every crawl is rolled back, and what it records does not
    depend on the primary keys of the scenario (each module builds its own) but for the
    bodies, locations and query counts, which a test compares with its own requests only on
    its own build (``this_build``)."""

    def __init__(self) -> None:
        self._crawls: dict[tuple, tuple[int, tuple[Asked, ...]]] = {}

    def of(self, built: dict, role: str, variant: tuple[str, bool], *,
           this_build: bool = False) -> tuple[Asked, ...]:  # fmt: skip
        """Every route's answer to ``role`` asking it as ``variant`` on the scenario
        ``built`` (``build_scenario``'s), in the order of ``iter_routes``."""
        build = built["pk"]["campaign"]
        made = self._crawls.get((role, variant))
        if made is None or (this_build and made[0] != build):
            made = self._crawls[(role, variant)] = (build, crawl(built, role, variant))
        return made[1]
