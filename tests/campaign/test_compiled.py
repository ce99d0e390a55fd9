"""``campaign.compiled``: a queryset compiled once answers, for any values, what evaluating the
queryset built with those values answers: the same rows, the same related objects and
annotations, in one statement, without Django compiling it again."""

import pytest
from django.db import connection, transaction
from django.db.models import Count, Q
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from campaign import permissions
from campaign.compiled import Compiled, CompiledEach
from campaign.nested import nested
from tests.factories import mustered_warband
from warbands.models import StorageContainer, StoredItem, Warband

pytestmark = pytest.mark.django_db


def values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def warbands(user_pk, pk):
    return permissions.with_membership_of(
        Warband.objects.select_related("campaign", "owner", "warband_type"), user_pk
    ).filter(pk=pk)


def test_rows_related_objects_and_annotations_are_the_querysets_for_every_value():
    first, second = mustered_warband(), mustered_warband()
    read = Compiled(warbands)

    for user, warband in [(first.owner, first), (second.owner, second), (first.owner, second)]:
        (got,) = read(user.pk, warband.pk)
        (expected,) = warbands(user.pk, warband.pk)
        assert values(got) == values(expected)
        for related in ("campaign", "owner", "warband_type"):
            assert values(getattr(got, related)) == values(getattr(expected, related))
        assert (got._member_pk, got._member_organiser) == (
            expected._member_pk,
            expected._member_organiser,
        )
    assert read(first.owner.pk, 10**9) == []
    # the stranger has no membership in the other's campaign
    (theirs,) = read(first.owner.pk, second.pk)
    assert theirs._member_pk is None


def test_it_is_compiled_once_and_each_read_is_one_statement(monkeypatch):
    warband = mustered_warband()
    read = Compiled(warbands)
    read(warband.owner.pk, warband.pk)
    compiled = []
    original = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        compiled.append(self.query.model)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            read(warband.owner.pk, warband.pk)
    assert compiled == []
    assert len(queries) == 3


def test_nested_relations_come_with_the_rows():
    warband = mustered_warband()
    chest = warband.containers.get(kind="treasure_chest")
    StoredItem.objects.create(container=chest, name="Rope")
    StoredItem.objects.create(container=chest, name="Lantern")
    read = Compiled(
        lambda pk: nested(StorageContainer.objects.filter(warband=pk).order_by("pk"),
                          stored_items=())
    )  # fmt: skip

    got = read(warband.pk)

    expected = list(StorageContainer.objects.filter(warband=warband).order_by("pk"))
    assert [values(c) for c in got] == [values(c) for c in expected]
    with CaptureQueriesContext(connection) as queries:
        names = {c.pk: [s.name for s in c.stored_items.all()] for c in got}
    assert len(queries) == 0
    assert names[chest.pk] == ["Lantern", "Rope"]


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_locks_and_is_refused_outside_a_transaction(reference_data):
    warband = mustered_warband()
    read = Compiled(lambda pk: StorageContainer.objects.select_for_update().filter(warband=pk))
    count = warband.containers.count()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert len(read(warband.pk)) == count
    assert [q["sql"].endswith("FOR UPDATE") for q in queries] == [True]
    with pytest.raises(transaction.TransactionManagementError):
        read(warband.pk)


@pytest.mark.parametrize(
    ("build", "why"),
    [
        # the value is wrapped ("%…%") on its way into the SQL
        (lambda pk: Warband.objects.filter(name__contains=str(pk)), "do not reach the SQL"),
        # the value never reaches the SQL at all
        (lambda pk: Warband.objects.all(), "do not reach the SQL"),
        (lambda pk: Warband.objects.filter(pk=pk).values("name"), "model instances"),
        (lambda pk: Warband.objects.filter(pk=pk).prefetch_related("warriors"), "prefetches"),
    ],
)
def test_a_queryset_it_cannot_compile_faithfully_is_refused_at_once(build, why):
    with pytest.raises(ValueError, match=why):
        Compiled(build)(1)


@pytest.mark.parametrize("value", [None, "1", 1.0, [1, 2], True])
def test_only_int_values_are_taken(value):
    with pytest.raises(TypeError):
        Compiled(lambda pk: Warband.objects.filter(pk=pk))(value)


def test_a_read_takes_as_many_values_as_at_its_first_call():
    warband = mustered_warband()
    pks = list(warband.containers.order_by("pk").values_list("pk", flat=True))
    read = Compiled(lambda *pks: StorageContainer.objects.filter(pk__in=pks).order_by("pk"))
    assert [c.pk for c in read(*pks[:2])] == pks[:2]
    assert [c.pk for c in read(pks[1], pks[0])] == pks[:2]
    with pytest.raises(TypeError):
        read(*pks[:3])
    many = Compiled(lambda *pks: StorageContainer.objects.filter(pk__in=pks))
    assert len(many(*range(1, 65))) <= 64
    with pytest.raises(ValueError, match="at most 64"):
        Compiled(lambda *pks: StorageContainer.objects.filter(pk__in=pks))(*range(1, 66))


def test_compiled_each_reads_any_number_of_values_and_first_finds_one_or_none():
    warband = mustered_warband()
    pks = list(warband.containers.order_by("pk").values_list("pk", flat=True))
    read = CompiledEach(lambda *pks: StorageContainer.objects.filter(pk__in=pks).order_by("pk"))
    for count in (1, 3, 2, 3):
        assert [c.pk for c in read(*pks[:count])] == pks[:count]
    one = Compiled(lambda pk: StorageContainer.objects.filter(pk=pk))
    assert one.first(pks[0]).pk == pks[0]
    assert one.first(10**9) is None


def test_a_key_beyond_bigint_matches_nothing_without_a_statement():
    warband = mustered_warband()
    read = Compiled(lambda pk: Warband.objects.filter(pk=pk))
    assert read(warband.pk) != []
    with CaptureQueriesContext(connection) as queries:
        assert read(2**63) == [] and read(-(2**63) - 1) == []
    assert len(queries) == 0


def test_an_aggregate_annotation_keeps_its_value():
    warband = mustered_warband()
    read = Compiled(
        lambda pk: Warband.objects.filter(Q(pk=pk)).annotate(warriors_count=Count("warriors"))
    )
    (got,) = read(warband.pk)
    assert got.warriors_count == warband.warriors.count() > 0
