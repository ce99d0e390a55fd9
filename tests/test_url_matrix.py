"""Every URL, every role: the whole URLconf is walked, and each pattern is asked for by an
anonymous visitor, a stranger from another campaign, an opponent in the same campaign, the
owner of the objects in the URL and the campaign's organiser, with GET, a plain POST and an
htmx POST; the answers must be ``MATRIX``'s (a pattern missing from it fails), and a refused
write (login redirect, 403, 404, 405) must leave the database exactly as it was.

Codes, one letter per role in the order of ``ROLES``: O served (any answer but 403, 404, a
server error or a redirect to the log-in page); L redirected to the log-in page (anonymous
visitors); F 403 Forbidden (may know it exists, may not do it); H 404 Not Found (may not even
learn that it exists); M 405 Method Not Allowed.

Every answer is also private and varies on the session cookie and ``HX-Request``, so that no
cache hands one user's page to another (``core.middleware.PrivateAnswersMiddleware``).

The requests are the worker's crawl's (``tests.matrix_answers``), which these tests share:
each (role, method) is asked once."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.urls import resolve, reverse

from battles.models import Game
from tests import feature_matrix
from tests.factories import UserFactory
from tests.matrix_answers import (
    GET,
    HTMX,
    HTMX_GET,
    HTMX_POST,
    POST,
    ROLES,
    answer,
    build_scenario,
    logged_in,
    path_for,
    private,
    varies,
)
from tests.sharing import built_once
from tests.urlwalk import iter_routes

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
    "warband_hire_sword": ("LHFOF", "LHFOF"),
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


def test_every_url_is_in_the_matrix():
    names = {r.name for r in iter_routes() if not r.name.startswith("admin:")}
    assert sorted(names - set(MATRIX)) == [], "add these URL patterns to the matrix"
    assert sorted(set(MATRIX) - names) == [], "these patterns no longer exist"


@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_each_role_as_the_matrix_says(db, built_scenario, matrix_answers, role):
    """Read from the worker's crawl (``tests.matrix_answers``): each request was rolled back,
    so each started from the scenario as built."""
    index = ROLES.index(role)
    wrong = []
    checked = 0
    for variant in (GET, POST, HTMX_POST):
        method, htmx = variant
        for asked in matrix_answers.of(built_scenario, role, variant):
            gets, posts = MATRIX.get(asked.route) or ADMIN_OPEN.get(asked.route, ADMIN)
            expected = (posts if method == "post" else gets)[index]
            got = asked.answer
            checked += 1
            if got.code != expected:
                wrong.append(f"{method.upper()}{' htmx' if htmx else ''} {asked.path} "
                             f"({asked.route}): expected {expected}, got {got.code} "
                             f"({got.status})")  # fmt: skip
            elif got.changed:
                wrong.append(f"{method.upper()} {asked.path} ({asked.route}) was refused but "
                             "changed the database")  # fmt: skip
    assert not wrong, "\n".join(wrong)
    assert checked == 3 * len(list(iter_routes()))


def test_every_answer_of_every_url_is_private_and_varies_on_cookie_and_htmx(
    db, built_scenario, matrix_answers
):
    """No cache keeps an answer unless its view says so (``PrivateAnswersMiddleware``): every
    page, partial, refusal or redirect of the crawl, as the owner of everything and as an
    anonymous visitor. Here rather than with ``tests/core/test_cache_headers.py`` so that it
    reads the crawl this module makes anyway, whichever worker runs it."""
    wrong, asked = [], 0
    for role in ("owner", "anonymous"):
        for variant in (GET, HTMX_GET, HTMX_POST):
            method, htmx = variant
            for each in matrix_answers.of(built_scenario, role, variant):
                got = each.answer
                asked += 1
                if not private(got.headers) or not {"cookie", "hx-request"} <= varies(got.headers):
                    wrong.append(
                        f"{method.upper()}{' htmx' if htmx else ''} {each.path} ({each.route}, "
                        f"{got.status}): Cache-Control {got.headers['Cache-Control']!r}, "
                        f"Vary {got.headers['Vary']!r}"
                    )
    assert not wrong, "\n".join(wrong)
    assert asked == 6 * len(list(iter_routes()))


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


def test_a_stranger_is_answered_as_for_an_id_that_does_not_exist(
    db, client, built_scenario, matrix_answers, record_property
):
    """Every URL with ids, asked by a user of another campaign, answers exactly (status,
    redirect and body, per-request tokens aside) as the same URL with ids that no row has,
    with GET, POST and an htmx POST; the battle helper's poll also with the version its game
    is at (``?v=``), so that not even its 204 tells that a game exists. The real paths' answers
    are the worker's crawl's (on this module's scenario); the rest is asked here."""
    stranger = get_user_model().objects.get(pk=built_scenario["users"]["stranger"])
    session = logged_in(client, stranger)
    version = Game.objects.get(battle_id=built_scenario["kwargs"]["play_board"]["pk"]).version
    crawled = {
        variant: matrix_answers.of(built_scenario, "stranger", variant, this_build=True)
        for variant in (GET, POST, HTMX_POST)
    }
    asked, differ = 0, []
    for index, route in enumerate(iter_routes()):
        if route.name.startswith("admin"):
            continue
        real = path_for(route, built_scenario)
        queries = [""]
        if route.name == "play_board":
            queries = ["", f"?v={version}", f"?v={version + 1}"]
        for missing in with_missing_ids(real):
            for query in queries:
                for variant in (GET, POST, HTMX_POST):
                    method, htmx = variant
                    headers = HTMX if htmx else {}
                    asked += 1
                    if query:
                        theirs = answer(client, method, real + query, headers, session=session)
                    else:
                        theirs = crawled[variant][index].answer
                    none = answer(client, method, missing + query, headers, session=session)
                    if theirs.compared() != none.compared():
                        differ.append(
                            f"{method.upper()}{' htmx' if htmx else ''} {real}{query} "
                            f"({route.name}): {theirs.compared()[:3]} but "
                            f"{none.compared()[:3]} for {missing}"
                            + ("" if theirs.compared()[:3] != none.compared()[:3]
                               else ", bodies differ")
                        )  # fmt: skip
    record_property("requests", 2 * asked)
    assert not differ, "\n".join(differ)
    assert asked > 200


# --- No answer hands anybody a way into another's account ----------------------------------


def test_no_answer_gives_the_organiser_a_way_into_a_players_account(
    db, built_scenario, matrix_answers, record_property
):
    """The organiser asks every URL, with GET, POST and an htmx POST: no answer holds a
    working password reset link for a player (nor anybody else), and no request changes a
    player's password. Read from the worker's crawl, which checked both after each request."""
    found, asked = [], 0
    for variant in (GET, POST, HTMX_POST):
        method = variant[0].upper()
        for each in matrix_answers.of(built_scenario, "organiser", variant):
            asked += 1
            for role in each.answer.reset_links:
                found.append(f"{method} {each.path}: a reset link for the {role}")
            if each.answer.passwords_changed:
                found.append(f"{method} {each.path} changed a player's password")
    record_property("requests", asked)
    assert not found, "\n".join(found)
    assert asked == 3 * len(list(iter_routes()))
