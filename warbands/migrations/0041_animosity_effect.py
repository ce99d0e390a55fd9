"""The greenskin lists' Animosity rules name their effect (``animosity``), which the battle
helper reads to ask for the rolls: the reference data loaded again."""

from django.db import migrations

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0040_grade_1c_lists")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
