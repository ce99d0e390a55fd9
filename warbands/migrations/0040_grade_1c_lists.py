"""The Grade 1c lists, the Imperial Outriders and the lists typed from their text alone
(``warbands/data/lists/``), with the items, spells and skill lists they bring: the reference
data loaded again."""

from django.db import migrations

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0039_dramatis_personae")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
