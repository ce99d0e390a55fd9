"""Sign-up, log-in, log-out, password change and the login wall."""

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.urls import reverse
from django.utils.http import urlencode

from core.auth import DEMO_PASSWORD
from tests.factories import UserFactory
from tests.urlwalk import iter_routes

pytestmark = pytest.mark.django_db

# The only pages an anonymous visitor may see (the dashboard's address is his landing page).
# Everything else redirects to the login page.
PUBLIC_ROUTES = {"login", "signup", "healthz", "readyz", "admin_login_redirect", "admin:login",
                 "password_reset", "password_reset_done", "password_reset_confirm",
                 "password_reset_complete", "guide_player", "guide_organiser",
                 "guide_hired_swords", "dashboard", "manifest", "service_worker",
                 "offline"}  # fmt: skip  # /: the landing page; core.offline's show nobody's data


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "gerhardt",
            "password1": "Sigmar-protects-77",
            "password2": "Sigmar-protects-77",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    user = get_user_model().objects.get(username="gerhardt")
    assert client.session[SESSION_KEY] == str(user.pk)
    dashboard = client.get(reverse("dashboard"))
    assert "Welcome to Mordheim, gerhardt." in dashboard.content.decode()


@pytest.mark.parametrize(
    ("password1", "password2", "message"),
    [
        ("Sigmar-protects-77", "Sigmar-protects-78", "The two password fields didn"),
        ("12345678", "12345678", "This password is too common."),
        ("gerhardt1", "gerhardt1", "too similar to the username"),
    ],
)
def test_signup_refuses_bad_passwords_and_creates_nothing(client, password1, password2, message):
    response = client.post(
        reverse("signup"),
        {"username": "gerhardt", "password1": password1, "password2": password2},
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not get_user_model().objects.filter(username="gerhardt").exists()
    assert SESSION_KEY not in client.session


def test_signup_refuses_a_taken_username(client):
    UserFactory(username="gerhardt")

    response = client.post(
        reverse("signup"),
        {
            "username": "gerhardt",
            "password1": "Sigmar-protects-77",
            "password2": "Sigmar-protects-77",
        },
    )

    assert "A user with that username already exists." in response.content.decode()
    assert get_user_model().objects.filter(username="gerhardt").count() == 1


@pytest.mark.parametrize(
    ("next_url", "location"),
    [
        ("https://evil.example/", "/"),
        ("//evil.example/campaigns/", "/"),
        ("/\\evil.example/", "/"),
        ("javascript:alert(1)", "/"),
        ("/accounts/password_change/", "/accounts/password_change/"),
    ],
)
def test_signup_follows_next_only_to_a_page_of_this_site(client, next_url, location):
    response = client.post(
        reverse("signup") + "?" + urlencode({"next": next_url}),
        {"username": "gerhardt", "password1": "Sigmar-protects-77",
         "password2": "Sigmar-protects-77"},
    )  # fmt: skip

    assert response.status_code == 302
    assert response["Location"] == location  # "/" is the dashboard


def test_login_form_logs_in_and_goes_to_the_dashboard(client, user, password):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert 'name="username"' in page.content.decode()

    response = client.post(reverse("login"), {"username": user.username, "password": password})

    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    assert client.session[SESSION_KEY] == str(user.pk)


def test_login_follows_next_to_the_page_asked_for(client, user, password):
    response = client.post(
        reverse("login") + "?next=/accounts/password_change/",
        {"username": user.username, "password": password, "next": "/accounts/password_change/"},
    )

    assert response["Location"] == "/accounts/password_change/"


def test_login_with_a_wrong_password_is_refused_with_a_message(client, user):
    response = client.post(reverse("login"), {"username": user.username, "password": "nope"})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert SESSION_KEY not in client.session


def test_login_rotates_the_session_key(client, user, password):
    client.get(reverse("login"))
    client.session.save()
    before = client.session.session_key

    client.post(reverse("login"), {"username": user.username, "password": password})

    assert client.session.session_key != before


def test_logout_is_a_post_that_ends_the_session(client, user):
    client.force_login(user)

    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("login")
    assert SESSION_KEY not in client.session
    assert 'data-testid="landing"' in client.get(reverse("dashboard")).content.decode()
    assert client.get(reverse("past_campaigns")).status_code == 302


def test_password_change_replaces_the_old_password(client, user, password):
    client.force_login(user)

    response = client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "Ulric-howls-at-dawn",
            "new_password2": "Ulric-howls-at-dawn",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("Ulric-howls-at-dawn")
    assert not user.check_password(password)


def test_password_change_with_a_wrong_old_password_changes_nothing(client, user, password):
    client.force_login(user)

    response = client.post(
        reverse("password_change"),
        {
            "old_password": "wrong",
            "new_password1": "Ulric-howls-at-dawn",
            "new_password2": "Ulric-howls-at-dawn",
        },
    )

    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(password)


def test_account_pages_use_our_templates_not_the_admins(client, user):
    for name in ("login", "signup"):
        assert "Mordheim Campaigns" in client.get(reverse(name)).content.decode()
    client.force_login(user)
    assert "Mordheim Campaigns" in client.get(reverse("password_change")).content.decode()


@pytest.mark.parametrize("debug", [False, True])
def test_the_public_demo_password_only_works_with_debug_on(client, settings, debug):
    settings.DEBUG = debug
    UserFactory(username="alice", password=DEMO_PASSWORD)

    response = client.post(reverse("login"), {"username": "alice", "password": DEMO_PASSWORD})

    assert (SESSION_KEY in client.session) is debug
    assert response.status_code == (302 if debug else 200)


def test_anonymous_visitors_are_sent_to_login_from_every_page_but_the_public_ones(client):
    checked = []
    for route in iter_routes():
        if route.name in PUBLIC_ROUTES:
            continue
        response = client.get(route.path, follow=True)
        assert response.redirect_chain, f"{route.name} ({route.path}) did not redirect"
        final_url, _ = response.redirect_chain[-1]
        assert final_url.startswith(reverse("login") + "?next="), (route.name, final_url)
        assert response.status_code == 200
        checked.append(route.name)
    assert "past_campaigns" in checked and "password_change" in checked
    assert "admin:index" in checked


def test_public_pages_answer_anonymous_visitors(client):
    for name in ("login", "signup"):
        assert client.get(reverse(name)).status_code == 200, name


def test_the_admin_login_is_our_login_page(client):
    response = client.get("/admin/", follow=True)

    assert response.redirect_chain[-1][0] == reverse("login") + "?next=%2Fadmin%2F"


def test_an_htmx_request_without_login_redirects_the_whole_page(client):
    response = client.get(
        reverse("past_campaigns"),
        headers={"HX-Request": "true", "HX-Current-URL": "http://testserver/"},
    )

    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("login") + "?next=/"
