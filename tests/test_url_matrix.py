"""Every URL, every role: the whole URLconf is walked, and each pattern is asked for by an
anonymous visitor, a stranger from another campaign, an opponent in the same campaign, the
owner of the objects in the URL and the campaign's organiser, with GET, a plain POST and an
htmx POST; the answers must be ``MATRIX``'s (a pattern missing from it fails), and a refused
write (login redirect, 403, 404, 405) must leave the database exactly as it was.

Codes, one letter per role in the order of ``ROLES``: O served (any answer but 403, 404, a
server error or a redirect to the log-in page); L redirected to the log-in page (anonymous
visitors); F 403 Forbidden (may know it exists, may not do it); H 404 Not Found (may not even
learn that it exists); M 405 Method Not Allowed."""

from __future__ import annotations

import re
from functools import partial
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import resolve, reverse

from battles.helper.start import start_game
from battles.models import Captive, Fighter, Game, PostBattleSequence, SequenceTask
from battles.report import services as battle_services
from battles.rules import ReportedResult
from campaign import co_organisers
from campaign.models import Membership
from tests import feature_matrix, side_matrix
from tests.factories import CampaignFactory, MembershipFactory, UserFactory, mustered_warband
from tests.helpers import every_side_entered, fingerprint, without_tokens
from tests.sharing import built_once
from tests.urlwalk import iter_routes
from warbands import corrections
from warbands.models import VesselItem, Warrior

ROLES = ("anonymous", "stranger", "opponent", "owner", "organiser")
HTMX = {"HX-Request": "true"}

# route name: (GET, POST) codes for anonymous, stranger, opponent, owner, organiser.
MATRIX: dict[str, tuple[str, str]] = {
    # Public pages.
    "healthz": ("OOOOO", "MMMMM"),
    "readyz": ("OOOOO", "MMMMM"),
    "login": ("OOOOO", "OOOOO"),
    "signup": ("OOOOO", "OOOOO"),
    "password_reset": ("OOOOO", "OOOOO"),
    "password_reset_done": ("OOOOO", "MMMMM"),
    "password_reset_confirm": ("OOOOO", "OOOOO"),  # a wrong link says so
    "password_reset_complete": ("OOOOO", "MMMMM"),
    "guide_player": ("OOOOO", "MMMMM"),
    "guide_organiser": ("OOOOO", "MMMMM"),
    "guide_hired_swords": ("OOOOO", "MMMMM"),
    # Any logged-in user.
    "dashboard": ("OOOOO", "MMMMM"),  # a visitor gets the landing page
    "past_campaigns": ("LOOOO", "LMMMM"),
    "logout": ("LMMMM", "LLLLL"),  # logged out, back to the log-in page
    "password_change": ("LOOOO", "LOOOO"),
    "password_change_done": ("LOOOO", "LMMMM"),
    "notice_settings": ("LOOOO", "LOOOO"),  # the user's own choice: no account in the URL
    "campaign_create": ("LOOOO", "LOOOO"),
    "join": ("LOOOO", "LOOOO"),
    "join_link": ("LOOOO", "LOOOO"),
    # Readable by every member of the campaign.
    "campaign_detail": ("LHOOO", "LMMMM"),
    "campaign_feed": ("LHOOO", "LMMMM"),
    "campaign_table": ("LHOOO", "LMMMM"),
    "standings_export": ("LHOOO", "LMMMM"),
    "campaign_battles": ("LHOOO", "LMMMM"),
    "campaign_members": ("LHOOO", "LMMMM"),
    "warband_roster": ("LHOOO", "LMMMM"),
    "warband_export": ("LHOOO", "LMMMM"),
    "warband_print": ("LHOOO", "LMMMM"),
    "battle_detail": ("LHOOO", "LMMMM"),
    # Run by the organiser.
    "campaign_settings": ("LHFFO", "LHFFO"),
    "standings_rules": ("LHFFO", "LHFFO"),
    "battle_export": ("LHFFO", "LMMMM"),
    "join_code_regenerate": ("LMMMM", "LHFFO"),
    "joining_toggle": ("LMMMM", "LHFFO"),
    "co_organiser_add": ("LMMMM", "LHFFO"),
    "invitation_withdraw": ("LMMMM", "LHFFO"),
    "organiser_step_down": ("LHFFO", "LHFFO"),  # the only organiser is told he cannot
    "member_remove": ("LHFFO", "LHFFO"),
    "warband_archive": ("LHFFO", "LHFFO"),
    "campaign_status": ("LMMMM", "LHFFO"),
    "battle_record": ("LHFFO", "LHFFO"),
    "battle_confirm_all": ("LMMMM", "LHFFO"),
    "fortune_table": ("LHFFO", "LHFFO"),
    # An invitation to co-organise (here the owner's): its addressee answers it; to anybody
    # else it does not exist.
    "invitation_accept": ("LMMMM", "LHHOH"),
    "invitation_decline": ("LMMMM", "LHHOH"),
    # Any member plays in the campaign.
    "warband_create": ("LHOOO", "LHOOO"),
    "house_rules": ("LHOOO", "LHFFO"),  # members read them; organisers change them
    "battle_report": ("LHOOO", "LHOOO"),
    # The warband's owner only.
    "warband_muster": ("LHFOF", "LMMMM"),
    "warband_hire": ("LMMMM", "LHFOF"),
    "warband_hire_sword": ("LMMMM", "LHFOF"),
    "warband_finish": ("LMMMM", "LHFOF"),
    "warband_buy_container": ("LMMMM", "LHFOF"),
    "warband_return_container": ("LMMMM", "LHFOF"),
    "warband_rename": ("LHFOF", "LHFOF"),
    "warband_disband": ("LHFOF", "LHFOF"),
    "warrior_buy_item": ("LMMMM", "LHFOF"),
    "warrior_remove_item": ("LMMMM", "LHFOF"),
    "warrior_group_size": ("LMMMM", "LHFOF"),
    "warrior_lead": ("LMMMM", "LHFOF"),
    "warrior_rename": ("LHFOF", "LHFOF"),
    "warrior_dismiss": ("LHFOF", "LHFOF"),
    "warband_treasury": ("LHFOF", "LMMMM"),
    "treasury_move": ("LMMMM", "LHFOF"),
    "treasury_buy": ("LMMMM", "LHFOF"),
    "treasury_sell": ("LMMMM", "LHFOF"),
    "treasury_place": ("LMMMM", "LHFOF"),
    "treasury_move_item": ("LMMMM", "LHFOF"),
    "treasury_equip": ("LMMMM", "LHFOF"),
    "treasury_store": ("LMMMM", "LHFOF"),
    "treasury_store_pile": ("LMMMM", "LHFOF"),
    "treasury_name": ("LMMMM", "LHFOF"),
    "vessel_place": ("LMMMM", "LHFOF"),
    # Captives: the warband's owner acts; the organiser follows its captives page.
    "warband_captives": ("LHFOO", "LMMMM"),
    "captive_ransom": ("LMMMM", "LHFOF"),
    "captive_exchange": ("LMMMM", "LHFOF"),
    "captive_fate": ("LMMMM", "LHFOF"),
    "captive_pay": ("LMMMM", "LHFOF"),
    "captive_accept": ("LMMMM", "LHFOF"),
    # Corrections by hand: the warband's owner and the organisers.
    "warband_corrections": ("LHFOO", "LMMMM"),
    "warband_correct": ("LMMMM", "LHFOO"),
    # A request of the owner's: an organiser decides it, the owner withdraws it.
    "correction_decide": ("LMMMM", "LHFFO"),
    "correction_withdraw": ("LMMMM", "LHFOF"),
    # A battle's report: whoever reported it (the owner) and the organiser change it.
    "battle_side": ("LHFOO", "LHFOO"),
    "battle_correct": ("LHFOO", "LHFOO"),
    # The battle's participants (and the organiser on their behalf).
    "battle_respond": ("LMMMM", "LHOOO"),
    "battle_fortune_markers": ("LMMMM", "LHOOO"),
    "battle_discovery": ("LMMMM", "LHOOO"),
    "battle_declare": ("LHFOO", "LHFOO"),
    "battle_recovery_start": ("LMMMM", "LHOOO"),
    "battle_recover": ("LMMMM", "LHOOO"),
    # The battle helper: members follow a game; each player moves his own warriors (the
    # opponent's panel of the owner's warrior is an empty one).
    "play_start": ("LHOOO", "LHOOO"),
    "scenario_roll": ("LMMMM", "LHOOO"),
    "play_page": ("LHOOO", "LMMMM"),
    "play_board": ("LHOOO", "LMMMM"),
    "play_panel": ("LHOOO", "LMMMM"),
    "play_move": ("LMMMM", "LHOOO"),
    # The owner's post-battle sequence; the organiser follows it and plays its public steps.
    "sequence_detail": ("LHFOO", "LMMMM"),
    "sequence_task": ("LMMMM", "LHFOO"),
    "sequence_act": ("LMMMM", "LHFOO"),
    "sequence_complete": ("LMMMM", "LHFOO"),
    "sequence_undo": ("LMMMM", "LHFOF"),
    "sequence_reopen": ("LMMMM", "LHFFO"),
    **feature_matrix.MATRIX,
    # The admin is the site staff's: everybody else is sent to log in.
    "admin_login_redirect": ("LLLLL", "LLLLL"),
}
ADMIN = ("LLLLL", "LLLLL")
# The admin's log-out logs anybody out (and sends them to the admin's log-in page).
ADMIN_OPEN = {"admin:logout": ("LOOOO", "LOOOO")}


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


@pytest.fixture(scope="module")
def built_scenario(django_db_setup, django_db_blocker):
    """The scenario is built once for the module (``tests.sharing.built_once``); each test
    starts from it as built."""
    yield from built_once(django_db_blocker, build_scenario)


@pytest.fixture
def scenario(db, built_scenario):
    """The scenario, each role's user read afresh for the test."""
    pks = built_scenario["users"]
    users = get_user_model().objects.in_bulk([pk for pk in pks.values() if pk is not None])
    return {**built_scenario, "users": {role: users.get(pk) for role, pk in pks.items()}}


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


class _Undo(Exception):
    pass


def ask(client, method, path, headers, *, before: str | None) -> tuple[str, int, bool]:
    """One request, rolled back afterwards (a savepoint), so that each starts from the same
    scenario: (code, status, whether the database then differs from ``before``, its
    fingerprint before the request, when given)."""
    result = None
    try:
        with transaction.atomic():
            response = getattr(client, method)(path, headers=headers)
            changed = before is not None and fingerprint() != before
            result = (code_of(response), response.status_code, changed)
            raise _Undo
    except _Undo:
        pass
    return result


def test_every_url_is_in_the_matrix():
    names = {r.name for r in iter_routes() if not r.name.startswith("admin:")}
    assert sorted(names - set(MATRIX)) == [], "add these URL patterns to the matrix"
    assert sorted(set(MATRIX) - names) == [], "these patterns no longer exist"


@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_each_role_as_the_matrix_says(client, scenario, role):
    user = scenario["users"][role]
    index = ROLES.index(role)
    session = None
    if user is not None:
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
    # Every request is rolled back (``ask``): each starts from the database as it is now.
    start = fingerprint()
    wrong = []
    checked = 0
    for route in iter_routes():
        expected_get, expected_post = MATRIX.get(route.name) or ADMIN_OPEN.get(route.name, ADMIN)
        path = path_for(route, scenario)
        for method, headers, expected in (
            ("get", {}, expected_get[index]),
            ("post", {}, expected_post[index]),
            ("post", HTMX, expected_post[index]),
        ):
            # Each request starts logged in as the role (a log-out rolled back leaves the session
            # row in place but drops the cookie; put it back).
            if session is not None:
                client.cookies[settings.SESSION_COOKIE_NAME] = session
            refused = method == "post" and expected != "O"
            got, status, changed = ask(
                client, method, path, headers, before=start if refused else None
            )
            checked += 1
            if got != expected:
                wrong.append(f"{method.upper()}{' htmx' if headers else ''} {path} ({route.name}): "
                             f"expected {expected}, got {got} ({status})")  # fmt: skip
            elif changed:
                wrong.append(f"{method.upper()} {path} ({route.name}) was refused but changed "
                             "the database")  # fmt: skip
    assert not wrong, "\n".join(wrong)
    assert checked == 3 * len(list(iter_routes()))


def test_an_unknown_user_of_the_same_site_is_a_stranger_everywhere(client, scenario):
    """A fresh account, in no campaign: the same answers as the stranger's."""
    client.force_login(UserFactory(username="newcomer"))
    path = reverse("warband_treasury", args=[scenario["pk"]["warband"]])
    assert client.get(path).status_code == 404


# --- A stranger learns nothing from an id ---------------------------------------------------

#: An id no row has (inside PostgreSQL's integer range, so it is looked up, not refused).
MISSING = 2_000_000_000


def with_missing_ids(path: str) -> list[str]:
    """``path`` with its integer arguments replaced by ids that do not exist: all of them,
    then (when it has several) each alone; [] when it has none."""
    match = resolve(urlsplit(path).path)
    ids = [k for k, v in match.kwargs.items() if isinstance(v, int)]
    if not ids or not match.url_name:
        return []
    name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
    chosen = [ids] + ([[k] for k in ids] if len(ids) > 1 else [])
    return [reverse(name, kwargs={**match.kwargs, **dict.fromkeys(some, MISSING)})
            for some in chosen]  # fmt: skip


def answer(client, method, path, headers) -> tuple:
    """Status, where it leads, the body with its per-request tokens blanked, and how many
    queries it took (reading more for a real id would tell it apart by its time), rolled
    back."""
    result = None
    try:
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            response = getattr(client, method)(path, headers=headers)
            body = b"".join(response) if response.streaming else response.content
            body = without_tokens(body)
            location = response.get("Location", "") or response.get("HX-Redirect", "")
            result = (response.status_code, location, len(queries), body)
            raise _Undo
    except _Undo:
        pass
    return result


def test_a_stranger_is_answered_as_for_an_id_that_does_not_exist(client, scenario, record_property):
    """Every URL with ids, asked by a user of another campaign, answers exactly (status,
    redirect and body, per-request tokens aside) as the same URL with ids that no row has,
    with GET, POST and an htmx POST; the battle helper's poll also with the version its game
    is at (``?v=``), so that not even its 204 tells that a game exists."""
    client.force_login(scenario["users"]["stranger"])
    version = Game.objects.get(battle_id=scenario["kwargs"]["play_board"]["pk"]).version
    asked, differ = 0, []
    for route in iter_routes():
        if route.name.startswith("admin"):
            continue
        real = path_for(route, scenario)
        queries = [""]
        if route.name == "play_board":
            queries = ["", f"?v={version}", f"?v={version + 1}"]
        for missing in with_missing_ids(real):
            for query in queries:
                for method, headers in (("get", {}), ("post", {}), ("post", HTMX)):
                    asked += 1
                    theirs = answer(client, method, real + query, headers)
                    none = answer(client, method, missing + query, headers)
                    if theirs != none:
                        differ.append(
                            f"{method.upper()}{' htmx' if headers else ''} {real}{query} "
                            f"({route.name}): {theirs[:3]} but {none[:3]} for {missing}"
                            + ("" if theirs[:3] != none[:3] else ", bodies differ")
                        )
    record_property("requests", 2 * asked)
    assert not differ, "\n".join(differ)
    assert asked > 200


# --- No answer hands anybody a way into another's account ----------------------------------

RESET_LINK = re.compile(r"/accounts/reset/([\w-]+)/([\w-]+)/")


def test_no_answer_gives_the_organiser_a_way_into_a_players_account(
    client, scenario, record_property
):
    """The organiser asks every URL, with GET, POST and an htmx POST: no answer holds a
    working password reset link for a player (nor anybody else), and no request changes a
    player's password."""
    organiser = scenario["users"]["organiser"]
    players = [scenario["users"][role] for role in ("owner", "opponent", "stranger")]
    client.force_login(organiser)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    User = get_user_model()
    hashes = dict(User.objects.filter(pk__in=[p.pk for p in players]).values_list("pk", "password"))
    found, asked = [], 0
    for route in iter_routes():
        path = path_for(route, scenario)
        for method, headers in (("get", {}), ("post", {}), ("post", HTMX)):
            client.cookies[settings.SESSION_COOKIE_NAME] = session
            asked += 1
            try:
                with transaction.atomic():
                    response = getattr(client, method)(path, headers=headers)
                    body = b"".join(response) if response.streaming else response.content
                    for user in players:
                        token_ok = any(
                            default_token_generator.check_token(user, token)
                            for _, token in RESET_LINK.findall(body.decode(errors="replace"))
                        )
                        if token_ok:
                            found.append(f"{method.upper()} {path}: a reset link for {user}")
                    now = dict(User.objects.filter(pk__in=hashes).values_list("pk", "password"))
                    if now != hashes:
                        found.append(f"{method.upper()} {path} changed a player's password")
                    raise _Undo
            except _Undo:
                pass
    record_property("requests", asked)
    assert not found, "\n".join(found)
    assert asked == 3 * len(list(iter_routes()))
