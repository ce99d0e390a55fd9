import pytest

from tests.factories import PASSWORD, UserFactory


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Django's real hasher takes about half a second per password; tests need no strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def user(db):
    return UserFactory()
