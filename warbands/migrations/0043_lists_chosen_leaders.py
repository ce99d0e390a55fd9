"""The Lustrian Reavers, and the Court of the Profane Pleasures' leader chosen among its heroes
(``roster_rules: leader``), with the items their lists bring: the reference data loaded
again."""

from django.db import migrations

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0042_skill_effect")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
