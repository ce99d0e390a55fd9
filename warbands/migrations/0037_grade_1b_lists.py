"""The Grade 1b and 1c warband lists written so far (``warbands/data/lists/``, converted from the
community data set's older layout by ``python -m warbands.data.convert_bsdata``), with the items
they bring (javelins): the reference data loaded again."""

from django.db import migrations

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0036_grade_1b_hired_swords")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
