import gc

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.cache import caches
from django.db import connection, transaction
from django.test import override_settings

from core.embedded import start_embedded
from tests.checksums import table_checksums
from tests.factories import (
    PASSWORD,
    CampaignFactory,
    MembershipFactory,
    UserFactory,
    mustered_warband,
)
from tests.helpers import FAST_PASSWORD_HASHERS
from tests.matrix_answers import MatrixAnswers
from tests.postgresql import prebuild
from tests.postgresql.base import KEPT_TABLES
from tests.replays import replayable
from tests.sharing import (
    MODULES_WITH_TRANSACTIONAL_TESTS,
    is_transactional,
    per_test,
    shared_per_module,
)
from warbands.models import WarbandType
from warbands.reference import load_reference_data

TEMPLATE_PREBUILD = pytest.StashKey()


def pytest_configure(config):
    """The test setup is an entry point: without DATABASE_URL it starts (or joins) the
    embedded PostgreSQL before any test connects. Each xdist worker creates its own test
    database on it (``test_mordheim_gw0``, ``test_mordheim_gw1``), a copy of a template
    that the controlling process starts migrating at once (``tests.postgresql.prebuild``)."""
    start_embedded(settings)
    config.stash[TEMPLATE_PREBUILD] = prebuild.start(config)


def pytest_unconfigure(config):
    prebuild.finish(config.stash.get(TEMPLATE_PREBUILD, None))


def pytest_collection_finish(session):
    """What the collection built (Django, the app, every test's item: about 280,000 objects a
    worker) lives as long as the session: frozen (``gc.freeze``), the cyclic garbage
    collector no longer walks it. Its full collections come ten times rarer than Python's
    default: what a worker keeps still grows (Django's test client leaves a finalizer behind
    for each request), and the collector walked it about a hundred times a run. Together they
    cut the collector's CPU over a run from about 49 s to 23 s (both workers); the garbage
    that waits longer costs a few hundred MB at most."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Every test hashes passwords with the fast hasher (``FAST_PASSWORD_HASHERS``)."""
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS


@pytest.fixture(autouse=True)
def _no_transactional_test_inside_shared_data(request):
    """A transactional test (``transaction=True``, ``transactional_db``, ``live_server``) in a
    class or module whose data ``tests.sharing.built_once`` holds in an open transaction would
    empty the tables inside that transaction: it fails at once instead."""
    if is_transactional(request.node) and connection.in_atomic_block:
        pytest.fail("a transactional test among tests that share data built once (built_once)")


@pytest.fixture(autouse=True)
def no_fragment_cache(settings):
    """Pages are drawn whole in tests: a test's changes never commit (its transaction is rolled
    back), so the versions would not grow after them (``campaign.cache``) and a cached
    fragment could show what was there before. The tests that ask for
    ``fragment_cache`` check the cache itself."""
    settings.CACHES = {
        **settings.CACHES,
        "fragments": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    }


@pytest.fixture
def fragment_cache(settings):
    """The fragment cache as it runs in production (each test starts with it empty)."""
    settings.CACHES = {
        **settings.CACHES,
        "fragments": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                      "LOCATION": "test-fragments"},
    }  # fmt: skip
    caches["fragments"].clear()
    yield caches["fragments"]
    caches["fragments"].clear()


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture(autouse=True, scope="session")
def _plain_static_names(django_test_environment):
    """Pages under test link static files by their plain names. The live server finds them
    through Django's finders, which know nothing of the hashed names in the manifest that
    `collectstatic` (make serve, make bench) leaves in STATIC_ROOT: with those, a browser test
    would run without htmx."""
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    with override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}):
        yield


REFERENCE_ROWS: list[tuple[type, list]] = []  # this process's copy of the warband lists


@pytest.fixture(autouse=True, scope="session")
def _keep_the_warband_lists(django_test_environment):
    """The flush after a transactional test leaves the warband lists alone from the first test
    on, whichever kind of test a worker runs first (``tests.postgresql.KEPT_TABLES``); and the
    content types and permissions, which the migrations made: emptied, Django's ``post_migrate``
    made them all again after every flush (30 ms a test); kept, it finds them there."""
    KEPT_TABLES.update(model._meta.db_table for model in reference_models())
    KEPT_TABLES.update(model._meta.db_table for model in (ContentType, Permission))


def reference_models() -> list[type]:
    """The tables of the warband lists: warbands models that belong to no campaign, and the
    link tables among them."""
    return [
        model
        for model in apps.get_app_config("warbands").get_models(include_auto_created=True)
        if not hasattr(model, "CAMPAIGN_PATH")
        and not any(
            hasattr(field.related_model, "CAMPAIGN_PATH")
            for field in model._meta.concrete_fields
            if field.is_relation
        )
    ]


@pytest.fixture
def reference_data(transactional_db):
    """The warband lists, for tests on a transactional database. The suite's flush leaves
    their tables alone (``tests.postgresql.KEPT_TABLES``), so they are loaded once: from the
    migrations, or, where a flush of another kind emptied them, from the rows this process
    first saw (inserted in one transaction; the foreign keys are checked at its end, so the
    order of the tables does not matter). The test must leave them as it found them."""
    loaded = WarbandType.objects.exists()  # the migrations' rows, before the first flush
    if not loaded and not REFERENCE_ROWS:
        load_reference_data(apps)
    elif not loaded:
        with transaction.atomic():
            for model, rows in REFERENCE_ROWS:
                model._base_manager.bulk_create(rows)
    if not REFERENCE_ROWS:
        REFERENCE_ROWS.extend((m, list(m._base_manager.all())) for m in reference_models())
    KEPT_TABLES.update(model._meta.db_table for model, _ in REFERENCE_ROWS)
    tables = sorted(KEPT_TABLES)
    before = table_checksums(tables)
    yield
    after = table_checksums(tables)
    if after != before:
        KEPT_TABLES.clear()  # this once the flush empties them, and the next test loads them
        changed = [table for table in tables if after[table] != before[table]]
        pytest.fail(f"the test changed the warband lists, which the flush would keep: {changed}")


@replayable
def build_duel() -> dict:
    """A campaign with an organiser and two mustered warbands, Reavers and Scourge."""
    campaign = CampaignFactory(name="Siege")
    organiser = MembershipFactory(campaign=campaign, is_organiser=True).user
    reavers = mustered_warband(campaign=campaign, name="Reavers")
    scourge = mustered_warband(campaign=campaign, name="Scourge")
    return {
        "campaign": campaign,
        "organiser": organiser,
        "reavers": reavers,
        "scourge": scourge,
        "bystander": MembershipFactory(campaign=campaign).user,
    }


#: The modules that take longest, handed out first (``make test``: ``--dist loadfile``, each
#: module one unit, in this order, then every other module as collected): a worker takes a
#: module whole, so that what the module builds once (``tests.sharing``, the crawls) is built
#: once, and the small modules that come last even out the two workers' ends. Browser
#: modules, which mostly wait on Chromium, alternate with modules that compute, so that one
#: worker's wait is the other's time. A name that no longer exists changes nothing but the
#: order.
FIRST = (
    "tests/test_secrets_crawl.py",
    "tests/browser/test_phone_sweep.py",
    "tests/test_fuzz.py",
    "tests/browser/test_new_league_journey.py",
    "tests/race/test_races.py",
    "tests/browser/test_grade_lists_sequence.py",
    "tests/test_bad_input.py",
    "tests/browser/test_hardening.py",
    "tests/battles/test_purchase_paths.py",
    "tests/browser/test_battle_helper.py",
    "tests/test_url_matrix.py",
    "tests/browser/test_printout.py",
    "tests/test_query_counts.py",
    "tests/browser/test_sequence.py",
    "tests/race/test_pairs.py",
    "tests/browser/test_league_round.py",
    "tests/test_data_migrations.py",
    "tests/league/test_backup.py",
    "tests/core/test_database.py",
    "tests/battles/test_sequence_concurrency.py",
    "tests/league/test_standings.py",
    "tests/battles/test_sequence_views.py",
    "tests/league/test_seed_demo.py",
)


def module_of(item) -> str:
    return item.nodeid.split("::")[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The modules holding a transactional test (``tests.sharing``); and the modules of
    ``FIRST`` first, in its order (a stable sort, after pytest-django's own: transactional
    tests stay last within their module)."""
    MODULES_WITH_TRANSACTIONAL_TESTS.update(
        item.module.__name__ for item in items if hasattr(item, "module") and is_transactional(item)
    )
    rank = {module: index for index, module in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(module_of(item), len(FIRST)))


@pytest.fixture(scope="module")
def _duel_built(request, django_db_setup, django_db_blocker):
    """The duel, mustered once for the tests of a module."""
    yield from shared_per_module(request, django_db_blocker, build_duel)


@pytest.fixture
def duel(_duel_built, db):
    """A campaign with an organiser and two mustered warbands, Reavers and Scourge: built once
    per module, rolled back to as built after every test (``tests.sharing.per_test``)."""
    return per_test(_duel_built, build_duel)


@pytest.fixture(scope="session")
def matrix_answers() -> MatrixAnswers:
    """The URL matrix's crawls, made once per worker for the tests that read them
    (``tests.matrix_answers``)."""
    return MatrixAnswers()
