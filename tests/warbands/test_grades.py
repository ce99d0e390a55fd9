"""Each warband list's grade (the community's 1a, 1b, 1c): loaded from its file, and shown as
a badge wherever a warband's list is named (its roster, muster page and printout)."""

import json
import shutil

import pytest
from django.apps import apps
from django.urls import reverse

from tests.factories import WarbandFactory, hire, mustered_warband
from tests.warbands.test_grade_1a_lists import GRADE_1A
from warbands.models import WarbandType
from warbands.models.lists import GRADE_NOTES
from warbands.reference import (
    DATA_DIR,
    GRADES,
    ReferenceDataError,
    load_grades,
    load_reference_data,
    read,
    warband_files,
)

pytestmark = pytest.mark.django_db


def badge(grade: str) -> str:
    return f'<span class="badge badge-grade" title="{GRADE_NOTES[grade]}">Grade {grade}</span>'


def test_the_fifteen_lists_are_loaded_as_grade_1a():
    grades = dict(WarbandType.objects.filter(key__in=GRADE_1A).values_list("key", "grade"))

    assert grades == dict.fromkeys(GRADE_1A, "1a")


def test_every_list_has_the_grade_its_file_names():
    files = {data["key"]: data["grade"] for data in map(read, warband_files())}

    assert dict(WarbandType.objects.values_list("key", "grade")) == files
    assert set(files.values()) <= {"1a", "1b", "1c"}


def test_the_loader_the_model_and_the_badges_know_the_same_grades():
    assert list(GRADES) == WarbandType.Grade.values == list(GRADE_NOTES)
    assert WarbandType.Grade.labels == ["Grade 1a", "Grade 1b", "Grade 1c"]


def test_the_migration_sets_each_list_to_its_files_grade():
    WarbandType.objects.update(grade="1c")

    load_grades(apps)

    assert set(WarbandType.objects.filter(key__in=GRADE_1A).values_list("grade", flat=True)) == {
        "1a"
    }


@pytest.mark.parametrize("grade", [None, "", "2", "1A"])
def test_a_warband_file_without_a_known_grade_is_refused(tmp_path, grade):
    data_dir = tmp_path / "data"
    shutil.copytree(DATA_DIR, data_dir, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = data_dir / "warbands" / "skaven.json"
    data = json.loads(path.read_text())
    if grade is None:
        del data["grade"]
    else:
        data["grade"] = grade
    path.write_text(json.dumps(data))

    with pytest.raises(ReferenceDataError, match=r"skaven\.json: grade"):
        load_reference_data(apps, data_dir)


def test_the_roster_shows_the_lists_grade_with_what_it_means(client):
    warband = mustered_warband()
    client.force_login(warband.owner)

    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()

    assert f"<p>Reikland Mercenaries {badge('1a')} · " in page


def test_a_grade_1b_list_shows_its_own_badge_on_the_roster(client):
    warband = mustered_warband()
    WarbandType.objects.filter(pk=warband.warband_type_id).update(grade="1b")
    client.force_login(warband.owner)

    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()

    assert badge("1b") in page and "Grade 1a" not in page
    assert "tested in play by the community" in GRADE_NOTES["1b"]


def test_the_muster_page_and_the_printout_show_the_grade(client):
    draft = WarbandFactory()
    hire(draft, "mercenary_captain")
    active = mustered_warband()
    client.force_login(draft.owner)

    muster = client.get(reverse("warband_muster", args=[draft.pk])).content.decode()
    client.force_login(active.owner)
    printout = client.get(reverse("warband_print", args=[active.pk])).content.decode()

    assert f"Reikland Mercenaries {badge('1a')} · " in muster
    assert f"Reikland Mercenaries {badge('1a')} · " in printout


def test_a_list_of_no_known_grade_shows_no_badge(client):
    warband = mustered_warband()
    WarbandType.objects.filter(pk=warband.warband_type_id).update(grade="")
    client.force_login(warband.owner)

    page = client.get(reverse("warband_roster", args=[warband.pk])).content.decode()

    assert "<p>Reikland Mercenaries  · " in page and "badge-grade" not in page


def test_the_admin_filters_the_lists_by_grade(admin_client):
    WarbandType.objects.filter(key="skaven").update(grade="1b")

    changelist = reverse("admin:warbands_warbandtype_changelist")
    page = admin_client.get(changelist + "?grade__exact=1b").content.decode()

    assert "Skaven of Clan Eshin" in page and "Reikland Mercenaries" not in page
