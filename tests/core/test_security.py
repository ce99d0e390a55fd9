"""Log-in throttling, security headers and cookies."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def log_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_five_wrong_passwords_lock_the_account_out_from_that_address(client):
    user = UserFactory(username="gerhardt")
    for _ in range(4):
        assert log_in(client, "gerhardt", "wrong-password").status_code == 200

    locked = log_in(client, "gerhardt", "wrong-password")  # the fifth failure locks
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "15 minutes" in locked.content.decode()

    refused = log_in(client, "gerhardt", PASSWORD)  # even the right password, for now
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session

    other = UserFactory(username="ulrika")  # other accounts are not affected
    assert log_in(client, "ulrika", PASSWORD).status_code == 302
    client.post(reverse("logout"))

    call_command("axes_reset", verbosity=0)  # what the README tells an admin to run
    assert log_in(client, "gerhardt", PASSWORD).status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    assert other.pk != user.pk


def test_a_success_resets_the_count(client):
    UserFactory(username="gerhardt")
    for _ in range(4):
        log_in(client, "gerhardt", "wrong-password")
    assert log_in(client, "gerhardt", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(4):
        assert log_in(client, "gerhardt", "wrong-password").status_code == 200


@pytest.mark.parametrize("path", ["/accounts/login/", "/healthz"])
def test_security_headers_on_every_response(client, path):
    response = client.get(path)

    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_pages_carry_no_inline_script_or_style(client):
    user = UserFactory()
    client.force_login(user)
    text = client.get(reverse("dashboard")).content.decode()
    assert "<script>" not in text and " style=" not in text and "hx-on" not in text
    assert '"allowEval": false' in text and '"includeIndicatorStyles": false' in text


def test_session_cookie_is_http_only_and_same_site(client):
    UserFactory(username="gerhardt")
    response = log_in(client, "gerhardt", PASSWORD)
    cookie = response.cookies["sessionid"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


def _settings_with(env: dict[str, str]) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DEBUG", "SECURE_"))}
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='core.settings'; "
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True,
        text=True, timeout=60, check=True,
    )  # fmt: skip
    return result.stdout.strip()


def test_with_debug_off_cookies_are_secure_and_hsts_is_sent():
    assert _settings_with({}) == "True True 31536000"
    assert _settings_with({"DEBUG": "1"}) == "False False 0"


def test_hsts_goes_out_on_https_responses(client, settings):
    settings.SECURE_HSTS_SECONDS = 31_536_000
    assert client.get("/healthz", secure=True)["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/healthz")
