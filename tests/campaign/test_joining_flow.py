"""Joining from a link in one go, password reset by e-mail, and the one other way into a
forgotten account: a site admin's ``manage.py reset_link``, under his own name. No organiser
obtains a way into a player's account."""

from __future__ import annotations

import logging
import re

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.urls import reverse

from campaign.models import Membership
from core.settings import email_settings
from tests.factories import PASSWORD, CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "Ulric-howls-at-dawn-7"


@pytest.fixture
def campaign():
    campaign = CampaignFactory(
        name="Siege of Sigmarhafen", description="\nSix weeks in the ruins.\nSecond line."
    )
    MembershipFactory(campaign=campaign, user=UserFactory(username="greta"), is_organiser=True)
    return campaign


def link(campaign) -> str:
    return reverse("join_link", args=[campaign.join_code])


# --- A logged-out visitor follows the link -------------------------------------------------


def test_the_log_in_page_names_the_campaign_and_sign_up_keeps_the_link(client, campaign):
    response = client.get(link(campaign), follow=True)

    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("login") + "?next=" + link(campaign)
    assert "You are invited to Siege of Sigmarhafen" in page
    assert "Organised by greta." in page
    assert "Six weeks in the ruins." in page and "Second line" not in page
    signup = reverse("signup") + "?next=" + link(campaign)
    assert f'href="{signup}"' in page.replace("&amp;", "&")
    assert reverse("password_reset") in page


def test_signing_up_from_the_link_lands_on_the_join_confirmation(client, campaign):
    signup = reverse("signup") + "?next=" + link(campaign)
    form = client.get(signup).content.decode()
    assert "You are invited to Siege of Sigmarhafen" in form
    assert f'action="{signup}"' in form.replace("&amp;", "&")

    response = client.post(
        signup, {"username": "hans", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        follow=True,
    )  # fmt: skip

    assert response.redirect_chain == [(link(campaign), 302)]
    assert "Join Siege of Sigmarhafen" in response.content.decode()
    joined = client.post(reverse("join"), {"code": campaign.join_code}, follow=True)
    assert joined.redirect_chain == [(reverse("campaign_detail", args=[campaign.pk]), 302)]
    assert "You are in Siege of Sigmarhafen: muster your warband." in joined.content.decode()
    assert Membership.objects.filter(campaign=campaign, user__username="hans").exists()
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "Muster your warband" in dashboard


def test_logging_in_from_the_link_lands_on_the_join_confirmation(client, campaign):
    user = UserFactory(username="hans")

    response = client.post(
        reverse("login"),
        {"username": "hans", "password": PASSWORD, "next": link(campaign)},
        follow=True,
    )

    assert response.redirect_chain == [(link(campaign), 302)]
    assert client.session[SESSION_KEY] == str(user.pk)
    assert "Join Siege of Sigmarhafen" in response.content.decode()


def test_a_failed_log_in_keeps_the_invitation(client, campaign):
    UserFactory(username="hans")

    page = client.post(
        reverse("login"), {"username": "hans", "password": "wrong", "next": link(campaign)}
    ).content.decode()

    assert "Please enter a correct username and password" in page
    assert "You are invited to Siege of Sigmarhafen" in page


@pytest.mark.parametrize(
    ("prepare", "message"),
    [
        (lambda c: setattr(c, "join_code", "REPLACED42"), "No campaign has that join code"),
        (lambda c: setattr(c, "status", "closed"), "is closed: it takes no new players"),
        (lambda c: setattr(c, "joining_open", False), "not taking new players at the moment"),
    ],
)
def test_a_dead_link_says_why_on_the_log_in_page_and_the_join_page(
    client, campaign, prepare, message
):
    old = link(campaign)
    prepare(campaign)
    campaign.save()

    login_page = client.get(old, follow=True).content.decode()
    client.force_login(UserFactory())
    join_page = client.get(old)

    assert message in login_page and "You are invited" not in login_page
    assert message in join_page.content.decode()
    assert join_page.status_code == (404 if "No campaign" in message else 200)
    assert 'role="alert"' in join_page.content.decode()
    assert not Membership.objects.filter(campaign=campaign, is_organiser=False).exists()


def test_a_member_following_the_link_is_told_he_is_in(client, campaign):
    member = MembershipFactory(campaign=campaign).user
    client.force_login(member)

    page = client.get(link(campaign)).content.decode()

    assert "You are already in Siege of Sigmarhafen" in page
    assert 'name="code"' not in page


def test_a_removed_player_is_told_so_by_the_link(client, campaign):
    removed = MembershipFactory(campaign=campaign, is_active=False).user
    client.force_login(removed)

    page = client.get(link(campaign)).content.decode()

    assert "An organiser removed you from Siege of Sigmarhafen." in page


def test_next_to_another_page_shows_no_invitation(client):
    page = client.get(reverse("login") + "?next=/campaigns/1/").content.decode()

    assert 'data-testid="invitation"' not in page


# --- Password reset by e-mail ---------------------------------------------------------------


def test_password_reset_by_email_sets_a_new_password_once(client):
    user = UserFactory(username="hans", email="hans@example.org")

    response = client.post(reverse("password_reset"), {"email": "hans@example.org"})

    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    url = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(url, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    again = client.get(url, follow=True).content.decode()
    assert "This reset link does not work" in again


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})

    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_reset_pages_use_our_layout(client):
    for name in ("password_reset", "password_reset_done", "password_reset_complete"):
        assert "Mordheim Campaigns" in client.get(reverse(name)).content.decode(), name


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
        (
            "smtp://league%40example.org:s3cret@mail.example.org:587?from=league@example.org",
            {
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 587,
                "EMAIL_HOST_USER": "league@example.org",
                "EMAIL_HOST_PASSWORD": "s3cret",
                "EMAIL_USE_SSL": False,
                "EMAIL_USE_TLS": True,
                "EMAIL_TIMEOUT": 10,
                "DEFAULT_FROM_EMAIL": "league@example.org",
                "SERVER_EMAIL": "league@example.org",
            },
        ),
    ],
)
def test_email_url_is_read_into_django_settings(url, expected):
    assert email_settings(url) == expected


def test_smtps_defaults_to_port_465_over_tls():
    found = email_settings("smtps://mail.example.org")
    assert (found["EMAIL_PORT"], found["EMAIL_USE_SSL"], found["EMAIL_USE_TLS"]) == (
        465,
        True,
        False,
    )


@pytest.mark.parametrize("url", ["http://mail.example.org", "smtp://", "smtp://h:port"])
def test_a_bad_email_url_is_refused(url):
    with pytest.raises(ImproperlyConfigured):
        email_settings(url)


# --- Nobody but the owner obtains a way into an account ----------------------------------


def organiser_of(campaign):
    return Membership.objects.filter(campaign=campaign, is_organiser=True).earliest("pk").user


def test_a_site_admin_prints_a_reset_link_under_his_own_name(capsys, caplog):
    hans = UserFactory(username="hans")
    admin = UserFactory(username="warden", is_staff=True)

    with caplog.at_level(logging.WARNING):
        call_command(
            "reset_link", "hans", "--by", "warden", "--base-url", "https://league.example.org/"
        )

    printed = capsys.readouterr().out
    match = re.fullmatch(r"https://league\.example\.org(/accounts/reset/\S+/\S+/)\n", printed)
    assert match
    token = match.group(1).split("/")[4]
    assert default_token_generator.check_token(hans, token)
    history = LogEntry.objects.get(object_id=str(hans.pk))
    assert (history.user, history.action_flag, history.get_change_message()) == (
        admin, CHANGE, "Made a one-time password reset link (manage.py reset_link)."
    )  # fmt: skip
    assert history.content_type.model_class() is type(hans)
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", "warden made a password reset link for hans (manage.py reset_link).")
    ]
    assert token not in caplog.text and token not in history.change_message


@pytest.mark.parametrize("by", ["", "hans", "nobody", "retired"])
def test_a_reset_link_needs_an_active_site_admin_who_names_himself(capsys, by):
    UserFactory(username="hans")
    UserFactory(username="retired", is_staff=True, is_active=False)
    arguments = ["reset_link", "hans"] + (["--by", by] if by else [])

    with pytest.raises((CommandError, SystemExit)):
        call_command(*arguments)

    assert "/accounts/reset/" not in capsys.readouterr().out
    assert not LogEntry.objects.exists()


def test_an_email_given_at_sign_up_receives_the_reset_link(client):
    client.post(
        reverse("signup"),
        {"username": "hans", "email": "hans@example.org",
         "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )  # fmt: skip
    client.logout()

    client.post(reverse("password_reset"), {"email": "hans@example.org"})

    assert [message.to for message in mail.outbox] == [["hans@example.org"]]
