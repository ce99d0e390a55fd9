"""Data built once for the tests of a module (or class), rolled back to after each test: the
``duel``, ``league`` and ``warband`` fixtures and the crawls' seeded leagues."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from django.db import models, transaction
from django.test import override_settings

from tests.helpers import FAST_PASSWORD_HASHERS

T = TypeVar("T")


def built_once(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """For a class- or module-scoped fixture (``yield from built_once(...)``): what ``build``
    makes, in a transaction that stays open for the tests of the class or module and is rolled
    back after the last of them.

    pytest-django runs each test on the ``db`` fixture in a savepoint inside that transaction
    and rolls the savepoint back after the test, so every test starts from the data exactly as
    built, whatever the test before it wrote (Django's ``setUpTestData`` does the same). Model
    instances live on between tests, though: hand out primary keys, or objects the test may
    not change in memory, and let the tests read the rows again. Not for transactional tests
    (``transaction=True``, ``live_server``): they would empty the tables inside the open
    transaction, and other threads could not see the rows anyway.

    ``build`` runs with the suite's fast password hasher (``tests/conftest.py`` sets it per
    test, after this fixture is built)."""
    atomic = transaction.atomic()
    with django_db_blocker.unblock():
        atomic.__enter__()
    try:
        with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_PASSWORD_HASHERS):
            built = build()
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


#: Modules with a transactional test (``transaction=True``, ``transactional_db``,
#: ``live_server``), filled at collection (``tests/conftest.py``). pytest-django runs those
#: tests after every other, but data a module builds once (``shared_per_module``) stays open
#: until the module's last test: in these modules it is built for each test instead.
MODULES_WITH_TRANSACTIONAL_TESTS: set[str] = set()


def is_transactional(item) -> bool:
    """The test ``item`` runs on a transactional database (its changes commit)."""
    marker = item.get_closest_marker("django_db")
    transactional = marker is not None and (
        marker.kwargs.get("transaction") or marker.args[:1] == (True,)
    )
    fixtures = set(getattr(item, "fixturenames", ()))
    return bool(transactional or {"transactional_db", "live_server"} & fixtures)


def shared_per_module(request, django_db_blocker, build: Callable[[], T]) -> Iterator[T | None]:
    """For a module-scoped fixture: ``built_once(build)``, or None in a module that also holds
    transactional tests. The function-scoped fixture that hands it to the tests
    (``per_test``) then builds afresh for each test."""
    if request.module.__name__ in MODULES_WITH_TRANSACTIONAL_TESTS:
        yield None
    else:
        yield from built_once(django_db_blocker, build)


def per_test(built: T | None, build: Callable[[], T]) -> T:
    """What a test gets of shared data: the rows ``built`` holds, read again (the database
    rolled them back to as built), or, where nothing was built once, ``build()``."""
    return build() if built is None else read_again(built)


def read_again(built):
    """Fresh instances of the rows ``built`` holds (a model instance, or a dict, list or tuple
    of them and of plain values such as names and numbers), read again by primary key, so that
    what one test changed in memory never reaches the next."""
    if isinstance(built, dict):
        return {key: read_again(row) for key, row in built.items()}
    if isinstance(built, list | tuple):
        return type(built)(read_again(row) for row in built)
    if isinstance(built, models.Model):
        return type(built)._base_manager.get(pk=built.pk)
    return built
