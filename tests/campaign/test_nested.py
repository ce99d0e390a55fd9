"""``campaign.nested``: related rows read in their parents' statement are what
``prefetch_related`` would have read, field by field, and reading them costs no query."""

import pytest
from django.db import connection
from django.db.models import Prefetch
from django.test.utils import CaptureQueriesContext

from tests.factories import mustered_warband
from warbands.models import Skill, Spell, Warrior, WarriorItem, WarriorSkill, WarriorSpell

pytestmark = pytest.mark.django_db


def values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def sheet(warriors) -> list:
    """Everything the roster sheet reads of each warrior's relations."""
    return [
        (
            values(w),
            [(values(owned), values(owned.item)) for owned in w.items.all()],
            [(values(known), values(known.skill)) for known in w.skills.all()],
            [(values(known), values(known.spell)) for known in w.spells.all()],
            [values(injury) for injury in w.injuries.all()],
        )
        for w in warriors
    ]


def test_the_roster_relations_come_in_one_statement_as_prefetch_would_read_them():
    warband = mustered_warband()
    captain, champion = warband.warriors.order_by("pk")[:2]
    for skill in Skill.objects.order_by("pk")[:2]:  # two skills: their order is kept
        WarriorSkill.objects.create(warrior=captain, skill=skill)
    WarriorSpell.objects.create(
        warrior=champion, spell=Spell.objects.order_by("pk").first(), roll=4
    )
    captain.injuries.create(name="Old battle wound", effect="Miss a game on a 1")
    captain.injuries.create(name="Chest wound", effect="-1 Toughness")

    with CaptureQueriesContext(connection) as captured:
        nested = sheet(Warrior.objects.filter(warband=warband).order_by("pk").for_roster_page())
    assert len(captured) == 1

    prefetched = sheet(
        Warrior.objects.filter(warband=warband)
        .order_by("pk")
        .select_related("warrior_type", "warrior_type__race")
        .prefetch_related(
            Prefetch("items", queryset=WarriorItem.objects.select_related("item").order_by(
                *WarriorItem._meta.ordering, "pk")),
            Prefetch("skills", queryset=WarriorSkill.objects.select_related("skill").order_by(
                *WarriorSkill._meta.ordering, "pk")),
            Prefetch("spells", queryset=WarriorSpell.objects.select_related("spell")),
            Prefetch("injuries", queryset=captain.injuries.model.objects.order_by("pk")),
        )
    )  # fmt: skip
    assert nested == prefetched
    _, items, skills, _, injuries = nested[0]
    assert "Sword" in [item["name"] for _, item in items]
    assert len(skills) == 2 and len(injuries) == 2
    assert len(nested[1][3]) == 1  # the champion's spell


def test_a_parent_without_related_rows_has_empty_relations():
    warband = mustered_warband()
    warrior = Warrior.objects.filter(warband=warband).for_roster_page().first()
    with CaptureQueriesContext(connection) as captured:
        assert list(warrior.skills.all()) == [] and list(warrior.injuries.all()) == []
    assert len(captured) == 0


def test_the_subquery_is_built_once_and_its_sql_serves_every_parent(monkeypatch):
    """``_Rows``: Django builds each relation's subquery the first time only; the SQL kept
    reads the right rows for another warband (its own parameters are the outer query's)."""
    from campaign import nested

    first, second = mustered_warband(), mustered_warband()
    built = []
    original = nested._rows
    monkeypatch.setattr(nested, "_COMPILED", {})
    monkeypatch.setattr(nested, "_rows", lambda *args: built.append(args) or original(*args))

    read = [sheet(Warrior.objects.filter(warband=w).order_by("pk").for_roster_page())
            for w in (first, second)]  # fmt: skip

    assert sorted(name for _, name, _ in built) == ["injuries", "items", "skills", "spells"]
    for warband, got in zip((first, second), read, strict=True):
        owned = WarriorItem.objects.filter(warrior__warband=warband).select_related("item")
        owned = owned.order_by("warrior", *WarriorItem._meta.ordering, "pk")
        assert [pair for warrior in got for pair in warrior[1]] == [
            (values(o), values(o.item)) for o in owned
        ]


def test_inside_another_query_the_subquery_is_compiled_for_it():
    """The same relation read by a subquery (its table aliased ``U0``) gets SQL of its own."""
    from django.db.models import OuterRef, Subquery

    from warbands.models import Warband

    warband = mustered_warband()
    captain = warband.warriors.order_by("pk").first()
    list(Warrior.objects.filter(warband=warband).with_items())  # the top-level SQL, kept
    first_items = Subquery(
        Warrior.objects.filter(warband=OuterRef("pk")).order_by("pk").with_items()
        .values("_nested_items")[:1]
    )  # fmt: skip
    read = Warband.objects.annotate(first_items=first_items).get(pk=warband.pk).first_items
    assert [row["id"] for row in read] == list(
        captain.items.order_by("item__category", "item__name", "pk").values_list("pk", flat=True)
    )
    assert read and all(row["warrior_id"] == captain.pk for row in read)
