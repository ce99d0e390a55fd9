"""The log-in lockout (django-axes, per username and address) behind reverse proxies: keyed on
the client's address as the trusted proxies saw it (``TRUSTED_PROXY_COUNT``), never on what a
client wrote in X-Forwarded-For, and never on the proxy's own address."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from core.settings import client_address_from
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
LIMIT = 5  # AXES_FAILURE_LIMIT's default


def log_in(client, password, forwarded_for=None):
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return client.post(
        reverse("login"), {"username": "gerhardt", "password": password}, headers=headers
    )


@pytest.mark.parametrize(
    ("proxies", "chain"),
    [
        (1, "{client}"),  # the proxy (the test client's 127.0.0.1) appended the client
        (2, "{client}, 10.0.0.2"),  # the outer proxy appended the client, the inner one it
    ],
)
def test_behind_trusted_proxies_one_clients_failures_do_not_lock_out_another(
    client, settings, proxies, chain
):
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER, settings.AXES_IPWARE_PROXY_COUNT = (
        client_address_from(proxies)
    )
    UserFactory(username="gerhardt")
    for _ in range(LIMIT):
        attacker = log_in(client, "wrong-password", chain.format(client="198.51.100.7"))
    assert attacker.status_code == 429
    # Writing another address in front does not help: the proxies appended the real one.
    forged = chain.format(client="198.51.100.8, 198.51.100.7")
    assert log_in(client, PASSWORD, forged).status_code == 429

    owner = log_in(client, PASSWORD, chain.format(client="198.51.100.8"))  # another player

    assert owner.status_code == 302


def test_without_trusted_proxies_x_forwarded_for_is_ignored(client):
    """Anyone can send X-Forwarded-For: a header the app does not know to be its proxy's
    neither splits one address into many nor lets a client pick the address it is locked on."""
    UserFactory(username="gerhardt")
    for _ in range(LIMIT):
        log_in(client, "wrong-password", "198.51.100.7")

    assert log_in(client, PASSWORD, "198.51.100.8").status_code == 429


def settings_for(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "TRUSTED_PROXY_COUNT"}
    code = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE']='core.settings'; "
        "from django.conf import settings as s; "
        "print(s.AXES_IPWARE_META_PRECEDENCE_ORDER, s.AXES_IPWARE_PROXY_COUNT)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean, **env}, capture_output=True,
        text=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        ("", "('REMOTE_ADDR',) None"),
        ("0", "('REMOTE_ADDR',) None"),
        ("1", "('HTTP_X_FORWARDED_FOR', 'REMOTE_ADDR') 0"),
        ("2", "('HTTP_X_FORWARDED_FOR', 'REMOTE_ADDR') 1"),
    ],
)
def test_trusted_proxy_count_comes_from_the_environment(value, printed):
    assert settings_for({"TRUSTED_PROXY_COUNT": value}).stdout.strip() == printed


def test_a_negative_proxy_count_is_refused():
    result = settings_for({"TRUSTED_PROXY_COUNT": "-1"})
    assert result.returncode != 0 and "TRUSTED_PROXY_COUNT must be 0 or more" in result.stderr
